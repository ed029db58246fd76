// SPDX-License-Identifier: MIT
// The credentials file and the bearer check (host/broker_credentials.h,
// docs/configuration.md "Credentials"): which files are read and which refused
// (the message never holding a secret), which Authorization and X-Auth-Token
// headers pass, the Shared Access Signature check of an HTTP request, the
// codes a payload or host refusal answers with, and that without credentials
// every request passes.
#include "host/broker_credentials.h"
#include "host/serve_options.h"
#include "http/http_request.h"
#include "support/test_main.h"

#include <QTemporaryDir>
#include <QUrl>
#include <QTest>

using namespace relaydesk;

namespace {

constexpr const char *kSecret = "s3cret-Value/+xyz";
constexpr int kPasses = 0;

std::shared_ptr<const BrokerCredentials> credentials()
{
    auto made = std::make_shared<BrokerCredentials>();
    made->accessKeys.emplace("AKID1", kSecret);
    made->bearerTokens = {"token-one", "token-two"};
    made->sharedAccessKeys.emplace("RootManageSharedAccessKey", kSecret);
    return made;
}

// A request claiming a signature (all zeros) by `keyId` at 2025-01-01T00:00:00Z.
HttpRequest signedBy(const QByteArray &keyId)
{
    return HttpRequest("POST", "/", false,
                       {{"Host", "localhost"},
                        {"X-Amz-Date", "20250101T000000Z"},
                        {"Authorization", "AWS4-HMAC-SHA256 Credential=" + keyId +
                                              "/20250101/us-east-1/sqs/aws4_request, SignedHeaders=host;x-amz-date, Signature=00"}});
}

} // namespace

class BrokerCredentialsTest final : public QObject {
    Q_OBJECT

private slots:
    void file_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("problem");   // empty: read
        QTest::newRow("all three") << QByteArray("{\"accessKeys\": {\"AKID1\": \"s3cret-Value/+xyz\"}, \"bearerTokens\": [\"t\"], "
                                                  "\"sharedAccessKeys\": {\"RootManageSharedAccessKey\": \"s3cret-Value/+xyz\"}}")
                                   << QString();
        QTest::newRow("keys only") << QByteArray("{\"accessKeys\": {\"AKID1\": \"s3cret-Value/+xyz\"}}") << QString();
        QTest::newRow("empty object") << QByteArray("{}") << QString();
        QTest::newRow("unknown member") << QByteArray("{\"accessKey\": {\"AKID1\": \"s3cret-Value/+xyz\"}}")
                                        << QStringLiteral("unknown member \"accessKey\"");
        QTest::newRow("empty secret") << QByteArray("{\"accessKeys\": {\"AKID1\": \"\"}}") << QStringLiteral("non-empty secret");
        QTest::newRow("secret not a string") << QByteArray("{\"accessKeys\": {\"AKID1\": 7}}") << QStringLiteral("non-empty secret");
        QTest::newRow("key id with a slash") << QByteArray("{\"accessKeys\": {\"AK/ID\": \"s3cret-Value/+xyz\"}}")
                                             << QStringLiteral("no '/'");
        QTest::newRow("tokens not a list") << QByteArray("{\"bearerTokens\": \"s3cret-Value/+xyz\"}")
                                           << QStringLiteral("\"bearerTokens\" must be an array");
        QTest::newRow("empty token") << QByteArray("{\"bearerTokens\": [\"\"]}") << QStringLiteral("non-empty strings");
        QTest::newRow("key names without keys (the former member)")
            << QByteArray("{\"sharedAccessKeyNames\": [\"RootManageSharedAccessKey\"]}")
            << QStringLiteral("Give each key name its key: \"sharedAccessKeys\"");
        QTest::newRow("shared access keys a list") << QByteArray("{\"sharedAccessKeys\": [\"s3cret-Value/+xyz\"]}")
                                                   << QStringLiteral("\"sharedAccessKeys\" must map key names to non-empty key");
        QTest::newRow("empty shared access key") << QByteArray("{\"sharedAccessKeys\": {\"RootManageSharedAccessKey\": \"\"}}")
                                                 << QStringLiteral("non-empty key strings");
        QTest::newRow("not JSON") << QByteArray("AKID1=s3cret-Value/+xyz") << QStringLiteral("not a JSON object");
        QTest::newRow("an array") << QByteArray("[\"s3cret-Value/+xyz\"]") << QStringLiteral("not a JSON object");
    }

    void file()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, problem);
        QTemporaryDir folder;
        const QString path = folder.filePath(QStringLiteral("credentials.json"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
        file.close();
        const auto read = readCredentialsFile(path);
        if (problem.isEmpty()) {
            QVERIFY(std::holds_alternative<BrokerCredentials>(read));
            return;
        }
        QVERIFY(std::holds_alternative<QString>(read));
        const QString message = std::get<QString>(read);
        QVERIFY2(message.contains(problem), qPrintable(message));
        QVERIFY2(message.startsWith(QStringLiteral("--credentials ") + path), qPrintable(message));
        QVERIFY(!message.contains(QLatin1String(kSecret)));
    }

    void missingFile_isRefused()
    {
        const auto read = readCredentialsFile(QStringLiteral("/nonexistent/credentials.json"));
        QVERIFY(std::holds_alternative<QString>(read));
    }

    void bearer_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<int>("status");
        QTest::newRow("Bearer, first token") << QByteArray("Authorization") << QByteArray("Bearer token-one") << kPasses;
        QTest::newRow("Bearer, second token") << QByteArray("Authorization") << QByteArray("Bearer token-two") << kPasses;
        QTest::newRow("scheme in lower case") << QByteArray("authorization") << QByteArray("bearer token-one") << kPasses;
        QTest::newRow("X-Auth-Token (Zaqar)") << QByteArray("X-Auth-Token") << QByteArray("token-two") << kPasses;
        QTest::newRow("wrong token") << QByteArray("Authorization") << QByteArray("Bearer token-three") << 401;
        QTest::newRow("a token's prefix") << QByteArray("Authorization") << QByteArray("Bearer token-on") << 401;
        QTest::newRow("a token and more") << QByteArray("Authorization") << QByteArray("Bearer token-one2") << 401;
        QTest::newRow("Basic") << QByteArray("Authorization") << QByteArray("Basic dG9rZW4tb25lOg==") << 401;
        QTest::newRow("the token without a scheme") << QByteArray("Authorization") << QByteArray("token-one") << 401;
        QTest::newRow("an AWS signature") << QByteArray("Authorization")
                                          << QByteArray("AWS4-HMAC-SHA256 Credential=AKID1/20250101/us-east-1/sqs/aws4_request")
                                          << 401;
        QTest::newRow("a secret as the token") << QByteArray("Authorization") << QByteArray("Bearer s3cret-Value/+xyz") << 401;
        QTest::newRow("nothing") << QByteArray("Accept") << QByteArray("*/*") << 401;
    }

    void bearer()
    {
        QFETCH(QByteArray, name);
        QFETCH(QByteArray, value);
        QFETCH(int, status);
        const HttpRequest request("GET", "/api/v1/queues", false, {{"Host", "localhost"}, {name, value}});
        const std::optional<WireError> refused = RequestCredentials(credentials()).checkBearer(request);
        QCOMPARE(refused ? refused->httpStatus : kPasses, status);
        if (refused) {
            QCOMPARE(QByteArray::fromStdString(refused->jsonCode), QByteArray("Unauthorized"));
            QVERIFY(refused->message.find("token-") == std::string::npos);
        }
        // Without --credentials every request passes, signed or not.
        QVERIFY(!RequestCredentials().checkBearer(request));
        QVERIFY(!RequestCredentials().checkSignature(request, 0));
    }

    void signature_refusalsMapToAwsCodes()
    {
        const RequestCredentials required(credentials());
        const HttpRequest unsigned_("POST", "/", false, {{"Host", "localhost"}, {"X-Amz-Target", "AmazonSQS.ListQueues"}});
        std::optional<WireError> refused = required.checkSignature(unsigned_, 0);
        QVERIFY(refused);
        QCOMPARE(QByteArray::fromStdString(refused->jsonCode), QByteArray("InvalidClientTokenId"));
        QCOMPARE(refused->httpStatus, 403);
        const HttpRequest unknown = signedBy("AKIDX");
        refused = required.checkSignature(unknown, 1735689600);
        QVERIFY(refused);
        QCOMPARE(QByteArray::fromStdString(refused->queryCode), QByteArray("InvalidClientTokenId"));
        const HttpRequest wrong = signedBy("AKID1");
        refused = required.checkSignature(wrong, 1735689600);
        QVERIFY(refused);
        QCOMPARE(QByteArray::fromStdString(refused->queryCode), QByteArray("SignatureDoesNotMatch"));
        QCOMPARE(refused->httpStatus, 403);
        refused = required.checkSignature(wrong, 1735689600 + 16 * 60);
        QVERIFY(refused);
        QCOMPARE(QByteArray::fromStdString(refused->queryCode), QByteArray("SignatureDoesNotMatch"));
        QVERIFY2(refused->message.find("expired") != std::string::npos, refused->message.c_str());
    }

    void sharedAccessSignature_data()
    {
        QTest::addColumn<QByteArray>("authorization");   // "SIGNED:RESOURCE:EXPIRES_IN" signs with kSecret
        QTest::addColumn<int>("status");
        QTest::newRow("the namespace") << QByteArray("SIGNED:https://localhost:9911/:60") << kPasses;
        QTest::newRow("the entity") << QByteArray("SIGNED:https://localhost:9911/orders:60") << kPasses;
        QTest::newRow("another entity") << QByteArray("SIGNED:https://localhost:9911/payments:60") << 401;
        QTest::newRow("expired") << QByteArray("SIGNED:https://localhost:9911/:-1") << 401;
        QTest::newRow("a bare key name") << QByteArray("SharedAccessSignature skn=RootManageSharedAccessKey") << 401;
        QTest::newRow("a bearer token") << QByteArray("Bearer token-one") << 401;
        QTest::newRow("none") << QByteArray() << 401;
    }

    void sharedAccessSignature()
    {
        QFETCH(QByteArray, authorization);
        QFETCH(int, status);
        constexpr std::int64_t now = 1800000000;
        if (authorization.startsWith("SIGNED:")) {
            const qsizetype last = authorization.lastIndexOf(':');
            const std::string sr = QUrl::toPercentEncoding(QString::fromLatin1(authorization.mid(7, last - 7))).toStdString();
            const std::string se = std::to_string(now + authorization.mid(last + 1).toLongLong());
            const std::string sig = QUrl::toPercentEncoding(QString::fromStdString(SharedAccessSignatureCheck::sign(kSecret, sr, se)))
                                        .toStdString();
            authorization = QByteArray::fromStdString("SharedAccessSignature sr=" + sr + "&sig=" + sig + "&se=" + se +
                                                      "&skn=RootManageSharedAccessKey");
        }
        HttpRequest::Headers headers{{"Host", "localhost:9911"}};
        if (!authorization.isEmpty())
            headers.emplace_back("Authorization", authorization);
        const HttpRequest request("PUT", "/orders?api-version=2021-05", false, headers);
        const std::optional<WireError> refused = RequestCredentials(credentials()).checkSharedAccessSignature(request, now);
        QCOMPARE(refused ? refused->httpStatus : kPasses, status);
        if (refused)
            QVERIFY(refused->message.find(kSecret) == std::string::npos);
        QVERIFY(!RequestCredentials().checkSharedAccessSignature(request, now));
    }

    void signature_payloadAndHostRefusalsMapToAwsCodes()
    {
        const RequestCredentials required(credentials());
        HttpRequest tampered("POST", "/", false,
                             {{"Host", "localhost"},
                              {"X-Amz-Date", "20250101T000000Z"},
                              {"X-Amz-Content-Sha256", "UNSIGNED-PAYLOAD"},
                              {"Authorization", "AWS4-HMAC-SHA256 Credential=AKID1/20250101/us-east-1/sqs/aws4_request, "
                                                "SignedHeaders=host;x-amz-date, Signature=00"}});
        tampered.setBody("Action=ListQueues");
        std::optional<WireError> refused = required.checkSignature(tampered, 1735689600);
        QVERIFY(refused);
        QCOMPARE(QByteArray::fromStdString(refused->queryCode), QByteArray("XAmzContentSHA256Mismatch"));
        QCOMPARE(refused->httpStatus, 400);
        const HttpRequest hostless("POST", "/", false,
                                   {{"Host", "localhost"},
                                    {"X-Amz-Date", "20250101T000000Z"},
                                    {"Authorization", "AWS4-HMAC-SHA256 Credential=AKID1/20250101/us-east-1/sqs/aws4_request, "
                                                      "SignedHeaders=x-amz-date, Signature=00"}});
        refused = required.checkSignature(hostless, 1735689600);
        QVERIFY(refused);
        QCOMPARE(QByteArray::fromStdString(refused->queryCode), QByteArray("IncompleteSignature"));
        QCOMPARE(QByteArray::fromStdString(refused->message),
                 QByteArray("'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization."));
    }

    void option_isParsedForServeAndWindow()
    {
        for (OptionsFor command : {OptionsFor::Serve, OptionsFor::Window}) {
            const auto parsed = parseServeOptions({QStringLiteral("--credentials"), QStringLiteral("/etc/relaydesk.json")}, command);
            QVERIFY(std::holds_alternative<ServeOptions>(parsed));
            QCOMPARE(std::get<ServeOptions>(parsed).credentialsFile, QStringLiteral("/etc/relaydesk.json"));
            QVERIFY(std::holds_alternative<QString>(parseServeOptions({QStringLiteral("--credentials"), QString()}, command)));
        }
        QVERIFY(std::get<ServeOptions>(parseServeOptions({})).credentialsFile.isEmpty());
    }
};

RELAYDESK_TEST_MAIN(BrokerCredentialsTest)
#include "broker_credentials_test.moc"
