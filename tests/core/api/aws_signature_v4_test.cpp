// SPDX-License-Identifier: MIT
// AWS Signature Version 4 as the broker checks it (api/wire/aws_signature_v4.h):
// every case of AWS's published test suite (data/aws_sigv4_suite.json: the raw
// request, its canonical request and its Authorization) is read, its
// canonical request rebuilt and its signature accepted, and the same request
// with one thing changed refused; then the refusals row by row (unknown key,
// no signature, clock skew, a changed body, a payload hash that is not the
// body's, host left unsigned, presigned URLs).
#include "api/wire/aws_signature_v4.h"
#include "http/http_request.h"
#include "support/aws_sigv4_suite.h"
#include "support/test_main.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QFile>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;

namespace {

using Outcome = SignatureCheck::Outcome;

const nlohmann::json &suite() { return relaydesk::test::sigv4Suite(); }

constexpr std::int64_t kSuiteTime = 1440938160;   // 2015-08-30T12:36:00Z, the suite's X-Amz-Date

// A request as the suite writes it: "METHOD TARGET HTTP/1.1", "Name:value"
// lines, an empty line, the body.
HttpRequest parseRequest(const std::string &text, const std::string &authorization = {})
{
    const relaydesk::test::SuiteRequest suiteText = relaydesk::test::suiteRequest(text);
    HttpRequest::Headers headers;
    for (const auto &[name, value] : suiteText.headers)
        headers.emplace_back(name, value);
    if (!authorization.empty())
        headers.emplace_back("Authorization", QByteArray::fromStdString(authorization));
    HttpRequest request(suiteText.method, suiteText.target, false, headers);
    request.setBody(suiteText.body);
    return request;
}

SecretLookup suiteSecrets()
{
    return [](std::string_view id) -> std::optional<std::string> {
        if (id == suite()["accessKeyId"].get<std::string>())
            return suite()["secretAccessKey"].get<std::string>();
        return std::nullopt;
    };
}

std::string field(const std::string &authorization, const std::string &name)
{
    const std::size_t at = authorization.find(name + "=");
    const std::size_t end = authorization.find(',', at);
    return authorization.substr(at + name.size() + 1, end == std::string::npos ? std::string::npos : end - at - name.size() - 1);
}

// A signed SQS JSON request (region eu-west-3, service sqs), signed at `signedAt`
// over `signedHeaders`; `contentSha256` (when not empty) sent as x-amz-content-sha256
// and signed as the payload hash, as the AWS SDK for JavaScript v3 does.
HttpRequest signedRequest(const std::string &accessKeyId, const std::string &secret, std::int64_t signedAt,
                          const QByteArray &body, const std::string &signedHeaders = "host;x-amz-date;x-amz-target",
                          const QByteArray &contentSha256 = {})
{
    const QDateTime at = QDateTime::fromSecsSinceEpoch(signedAt, Qt::UTC);
    const std::string amzDate = at.toString(QStringLiteral("yyyyMMddTHHmmssZ")).toStdString();
    HttpRequest::Headers headers{{"Host", "localhost:9911"},
                                 {"X-Amz-Date", QByteArray::fromStdString(amzDate)},
                                 {"X-Amz-Target", "AmazonSQS.ListQueues"}};
    if (!contentSha256.isEmpty())
        headers.emplace_back("X-Amz-Content-Sha256", contentSha256);
    HttpRequest unsignedRequest("POST", "/", false, headers);
    const std::string payload = contentSha256.isEmpty()
                                    ? QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex().toStdString()
                                    : contentSha256.toStdString();
    unsignedRequest.setBody(body);
    const std::string canonical = awsCanonicalRequest(unsignedRequest, signedHeaders, payload);
    const std::string scope = amzDate.substr(0, 8) + "/eu-west-3/sqs/aws4_request";
    const std::string toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" +
                               QCryptographicHash::hash(QByteArray::fromStdString(canonical), QCryptographicHash::Sha256).toHex().toStdString();
    const std::string signature = awsSignature(secret, amzDate.substr(0, 8), "eu-west-3", "sqs", toSign);
    headers.emplace_back("Authorization", QByteArray::fromStdString("AWS4-HMAC-SHA256 Credential=" + accessKeyId + "/" + scope +
                                                                    ", SignedHeaders=" + signedHeaders + ", Signature=" + signature));
    HttpRequest request("POST", "/", false, headers);
    request.setBody(body);
    return request;
}

// A presigned GET of the query protocol, X-Amz-Expires `expires`, signed at `signedAt`
// (UNSIGNED-PAYLOAD, as botocore presigns), carrying `body`.
HttpRequest presignedRequest(std::int64_t signedAt, int expires, const QByteArray &body = {})
{
    const std::string amzDate =
        QDateTime::fromSecsSinceEpoch(signedAt, Qt::UTC).toString(QStringLiteral("yyyyMMddTHHmmssZ")).toStdString();
    const std::string scope = amzDate.substr(0, 8) + "/us-east-1/sqs/aws4_request";
    const std::string query = "Action=ListQueues&Version=2012-11-05&X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=" +
                              suite()["accessKeyId"].get<std::string>() + "%2F" + amzDate.substr(0, 8) +
                              "%2Fus-east-1%2Fsqs%2Faws4_request&X-Amz-Date=" + amzDate +
                              "&X-Amz-Expires=" + std::to_string(expires) + "&X-Amz-SignedHeaders=host";
    const HttpRequest::Headers headers{{"Host", "localhost:9911"}};
    const HttpRequest unsignedRequest("GET", QByteArray::fromStdString("/?" + query), false, headers);
    const std::string canonical = awsCanonicalRequest(unsignedRequest, "host", "UNSIGNED-PAYLOAD");
    const std::string toSign = "AWS4-HMAC-SHA256\n" + amzDate + "\n" + scope + "\n" +
                               QCryptographicHash::hash(QByteArray::fromStdString(canonical), QCryptographicHash::Sha256).toHex().toStdString();
    const std::string signature =
        awsSignature(suite()["secretAccessKey"].get<std::string>(), amzDate.substr(0, 8), "us-east-1", "sqs", toSign);
    HttpRequest request("GET", QByteArray::fromStdString("/?" + query + "&X-Amz-Signature=" + signature), false, headers);
    request.setBody(body);
    return request;
}

} // namespace

class AwsSignatureV4Test final : public QObject {
    Q_OBJECT

private slots:
    void publishedSuite_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<QByteArray>("authorization");
        QTest::addColumn<QByteArray>("canonicalRequest");
        for (const nlohmann::json &row : suite()["cases"])
            QTest::newRow(row["name"].get<std::string>().c_str())
                << QByteArray::fromStdString(row["request"].get<std::string>())
                << QByteArray::fromStdString(row["authorization"].get<std::string>())
                << QByteArray::fromStdString(row["canonicalRequest"].get<std::string>());
    }

    void publishedSuite()
    {
        QFETCH(QByteArray, request);
        QFETCH(QByteArray, authorization);
        QFETCH(QByteArray, canonicalRequest);
        const HttpRequest parsed = parseRequest(request.toStdString(), authorization.toStdString());
        const std::string payload = QCryptographicHash::hash(parsed.body(), QCryptographicHash::Sha256).toHex().toStdString();
        QCOMPARE(QByteArray::fromStdString(awsCanonicalRequest(parsed, field(authorization.toStdString(), "SignedHeaders"), payload)),
                 canonicalRequest);
        const SignatureCheck check = checkAwsSignatureV4(parsed, suiteSecrets(), kSuiteTime);
        QCOMPARE(int(check.outcome), int(Outcome::Valid));
        QCOMPARE(QByteArray::fromStdString(check.accessKeyId), QByteArray("AKIDEXAMPLE"));

        // One hex digit of the signature changed: refused.
        std::string tampered = authorization.toStdString();
        tampered.back() = tampered.back() == '0' ? '1' : '0';
        QCOMPARE(int(checkAwsSignatureV4(parseRequest(request.toStdString(), tampered), suiteSecrets(), kSuiteTime).outcome),
                 int(Outcome::Mismatch));
    }

    void refusals_data()
    {
        QTest::addColumn<int>("outcome");
        QTest::addColumn<QByteArray>("keyId");
        QTest::addColumn<QByteArray>("secret");
        QTest::addColumn<int>("signedSecondsAgo");
        QTest::addColumn<QByteArray>("sentBody");        // empty: the body signed; "<empty>": none
        QTest::addColumn<QByteArray>("signedHeaders");   // empty: host;x-amz-date;x-amz-target
        QTest::addColumn<QByteArray>("contentSha256");   // x-amz-content-sha256 sent and signed; "body": the signed body's
        const QByteArray id("AKIDEXAMPLE");
        const QByteArray other("{\"QueueNamePrefix\":\"x\"}");
        QTest::newRow("right key") << int(Outcome::Valid) << id << QByteArray() << 0 << QByteArray() << QByteArray() << QByteArray();
        QTest::newRow("14 minutes ago") << int(Outcome::Valid) << id << QByteArray() << 14 * 60 << QByteArray() << QByteArray() << QByteArray();
        QTest::newRow("14 minutes ahead") << int(Outcome::Valid) << id << QByteArray() << -14 * 60 << QByteArray() << QByteArray() << QByteArray();
        QTest::newRow("16 minutes ago") << int(Outcome::Expired) << id << QByteArray() << 16 * 60 << QByteArray() << QByteArray() << QByteArray();
        QTest::newRow("16 minutes ahead") << int(Outcome::Expired) << id << QByteArray() << -16 * 60 << QByteArray() << QByteArray() << QByteArray();
        QTest::newRow("unknown key id") << int(Outcome::UnknownKey) << QByteArray("AKIDOTHER") << QByteArray() << 0 << QByteArray() << QByteArray() << QByteArray();
        QTest::newRow("wrong secret") << int(Outcome::Mismatch) << id << QByteArray("not-the-secret") << 0 << QByteArray() << QByteArray() << QByteArray();
        QTest::newRow("body changed after signing") << int(Outcome::Mismatch) << id << QByteArray() << 0 << other << QByteArray() << QByteArray();
        QTest::newRow("payload hash of the body sent") << int(Outcome::Valid) << id << QByteArray() << 0 << QByteArray() << QByteArray() << QByteArray("body");
        QTest::newRow("payload hash signed, body changed") << int(Outcome::PayloadMismatch) << id << QByteArray() << 0 << other << QByteArray() << QByteArray("body");
        QTest::newRow("payload hash signed, body emptied") << int(Outcome::PayloadMismatch) << id << QByteArray() << 0 << QByteArray("<empty>") << QByteArray() << QByteArray("body");
        QTest::newRow("UNSIGNED-PAYLOAD in the header form") << int(Outcome::PayloadMismatch) << id << QByteArray() << 0 << QByteArray() << QByteArray() << QByteArray("UNSIGNED-PAYLOAD");
        QTest::newRow("host not signed") << int(Outcome::Malformed) << id << QByteArray() << 0 << QByteArray() << QByteArray("x-amz-date;x-amz-target") << QByteArray();
        QTest::newRow("a header named like host signed instead") << int(Outcome::Malformed) << id << QByteArray() << 0 << QByteArray() << QByteArray("hostname;x-amz-date") << QByteArray();
    }

    void refusals()
    {
        QFETCH(int, outcome);
        QFETCH(QByteArray, keyId);
        QFETCH(QByteArray, secret);
        QFETCH(int, signedSecondsAgo);
        QFETCH(QByteArray, sentBody);
        QFETCH(QByteArray, signedHeaders);
        QFETCH(QByteArray, contentSha256);
        const std::string key = secret.isEmpty() ? suite()["secretAccessKey"].get<std::string>() : secret.toStdString();
        const QByteArray body("{}");
        if (contentSha256 == "body")
            contentSha256 = QCryptographicHash::hash(body, QCryptographicHash::Sha256).toHex();
        HttpRequest request = signedRequest(keyId.toStdString(), key, kSuiteTime - signedSecondsAgo, body,
                                            signedHeaders.isEmpty() ? "host;x-amz-date;x-amz-target" : signedHeaders.toStdString(),
                                            contentSha256);
        if (!sentBody.isEmpty())
            request.setBody(sentBody == "<empty>" ? QByteArray() : sentBody);
        const SignatureCheck check = checkAwsSignatureV4(request, suiteSecrets(), kSuiteTime);
        QCOMPARE(int(check.outcome), outcome);
        QVERIFY(check.message.find(suite()["secretAccessKey"].get<std::string>()) == std::string::npos);
    }

    void noSignature_isMissing()
    {
        const HttpRequest plain("POST", "/", false, {{"Host", "localhost"}, {"Authorization", "Bearer abc"}});
        QCOMPARE(int(checkAwsSignatureV4(plain, suiteSecrets(), kSuiteTime).outcome), int(Outcome::Missing));
        const HttpRequest none("GET", "/?Action=ListQueues", false, {{"Host", "localhost"}});
        QCOMPARE(int(checkAwsSignatureV4(none, suiteSecrets(), kSuiteTime).outcome), int(Outcome::Missing));
    }

    void unreadableAuthorization_isMalformed()
    {
        const HttpRequest request("POST", "/", false,
                                  {{"Host", "localhost"},
                                   {"X-Amz-Date", "20150830T123600Z"},
                                   {"Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1, Signature=00"}});
        QCOMPARE(int(checkAwsSignatureV4(request, suiteSecrets(), kSuiteTime).outcome), int(Outcome::Malformed));
    }

    void presigned_acceptedWithinExpires()
    {
        QCOMPARE(int(checkAwsSignatureV4(presignedRequest(kSuiteTime - 100, 300), suiteSecrets(), kSuiteTime).outcome),
                 int(Outcome::Valid));
        QCOMPARE(int(checkAwsSignatureV4(presignedRequest(kSuiteTime - 400, 300), suiteSecrets(), kSuiteTime).outcome),
                 int(Outcome::Expired));
        HttpRequest changed = presignedRequest(kSuiteTime, 300);
        changed = HttpRequest("GET", QByteArray(changed.target()).replace("ListQueues", "ListTopics"), false, changed.headers());
        QCOMPARE(int(checkAwsSignatureV4(changed, suiteSecrets(), kSuiteTime).outcome), int(Outcome::Mismatch));
        // UNSIGNED-PAYLOAD covers no body: a presigned URL with one sent along is refused.
        QCOMPARE(int(checkAwsSignatureV4(presignedRequest(kSuiteTime, 300, "Action=DeleteQueue"), suiteSecrets(), kSuiteTime).outcome),
                 int(Outcome::Mismatch));
    }
};

RELAYDESK_TEST_MAIN(AwsSignatureV4Test)
#include "aws_signature_v4_test.moc"
