// SPDX-License-Identifier: MIT
// The connections' SigV4 signer (core/connections/aws_request_signer.h) against
// AWS's published Signature Version 4 test suite (tests/core/api/data/aws_sigv4_suite.json,
// the same cases the broker's check passes), and a request it signs checked by
// the broker's own verifier.
#include "api/wire/aws_signature_v4.h"
#include "connections/aws_request_signer.h"
#include "http/http_request.h"
#include "support/aws_sigv4_suite.h"
#include "support/test_main.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;

namespace {

using relaydesk::test::sigv4Suite;

AwsSigningInput inputOf(const std::string &text)
{
    const relaydesk::test::SuiteRequest request = relaydesk::test::suiteRequest(text);
    return {request.method, request.target, request.headers, request.body};
}

// "AKIDEXAMPLE/20150830/us-east-1/service/aws4_request" → region, service
QStringList scopeOf(const std::string &authorization)
{
    const QByteArray text = QByteArray::fromStdString(authorization);
    const qsizetype at = text.indexOf("Credential=") + 11;
    return QString::fromUtf8(text.mid(at, text.indexOf(',', at) - at)).split(QLatin1Char('/'));
}

} // namespace

class AwsRequestSignerTest : public QObject {
    Q_OBJECT
private slots:
    void publishedSuite_data();
    void publishedSuite();
    void brokerVerifiesWhatItSigns_data();
    void brokerVerifiesWhatItSigns();
    void signsTheHostQtSends_data();
    void signsTheHostQtSends();
};

void AwsRequestSignerTest::publishedSuite_data()
{
    QTest::addColumn<QString>("request");
    QTest::addColumn<QString>("authorization");
    for (const nlohmann::json &item : sigv4Suite()["cases"])
        QTest::newRow(item["name"].get<std::string>().c_str())
            << QString::fromStdString(item["request"].get<std::string>())
            << QString::fromStdString(item["authorization"].get<std::string>());
}

void AwsRequestSignerTest::publishedSuite()
{
    QFETCH(QString, request);
    QFETCH(QString, authorization);
    const QStringList scope = scopeOf(authorization.toStdString());
    const AwsCredentials credentials{QString::fromStdString(sigv4Suite()["accessKeyId"].get<std::string>()),
                                     QString::fromStdString(sigv4Suite()["secretAccessKey"].get<std::string>()), {}};
    QCOMPARE(QString::fromUtf8(awsAuthorization(inputOf(request.toStdString()), credentials, scope[2], scope[3])),
             authorization);
}

void AwsRequestSignerTest::brokerVerifiesWhatItSigns_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("sessionToken");
    QTest::addColumn<QString>("secretTheBrokerKnows");
    QTest::addColumn<int>("outcome");
    const QString secret = QStringLiteral("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY");
    QTest::newRow("root path") << "http://127.0.0.1:9911/" << "" << secret << int(SignatureCheck::Outcome::Valid);
    QTest::newRow("queue URL, session token") << "http://localhost:9911/000000000000/orders" << "TOKEN" << secret
                                              << int(SignatureCheck::Outcome::Valid);
    QTest::newRow("no port, encoded query") << "http://broker.internal/?a=b%20c&A=1" << "" << secret
                                            << int(SignatureCheck::Outcome::Valid);
    QTest::newRow("another secret") << "http://127.0.0.1:9911/" << "" << "not-it" << int(SignatureCheck::Outcome::Mismatch);
}

void AwsRequestSignerTest::brokerVerifiesWhatItSigns()
{
    QFETCH(QString, url);
    QFETCH(QString, sessionToken);
    QFETCH(QString, secretTheBrokerKnows);
    QFETCH(int, outcome);
    const QDateTime when = QDateTime::currentDateTimeUtc();
    const QByteArray body = R"({"QueueName":"orders"})";
    const QUrl target(url);
    const AwsHeaders headers =
        signAwsRequest("POST", target, {{"Content-Type", "application/x-amz-json-1.0"}, {"X-Amz-Target", "AmazonSQS.CreateQueue"}},
                       body, {QStringLiteral("AKIDEXAMPLE"), QStringLiteral("wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"), sessionToken},
                       QStringLiteral("eu-west-3"), QStringLiteral("sqs"), when);
    HttpRequest::Headers sent(headers.begin(), headers.end());
    QByteArray requestTarget = target.path(QUrl::FullyEncoded).toUtf8();
    if (requestTarget.isEmpty())
        requestTarget = "/";
    if (target.hasQuery())
        requestTarget += '?' + target.query(QUrl::FullyEncoded).toUtf8();
    HttpRequest request("POST", requestTarget, false, sent);
    request.setBody(body);
    const std::string known = secretTheBrokerKnows.toStdString();
    const SignatureCheck check = checkAwsSignatureV4(
        request, [known](std::string_view id) -> std::optional<std::string> {
            return id == "AKIDEXAMPLE" ? std::optional(known) : std::nullopt;
        },
        when.toSecsSinceEpoch());
    QCOMPARE(int(check.outcome), outcome);
}

// QNetworkAccessManager sends the port in Host only when it is not the scheme's own.
void AwsRequestSignerTest::signsTheHostQtSends_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("host");
    QTest::newRow("AWS") << "https://sqs.eu-west-3.amazonaws.com" << "sqs.eu-west-3.amazonaws.com";
    QTest::newRow("a port") << "http://127.0.0.1:9911/" << "127.0.0.1:9911";
    QTest::newRow("http's own port") << "http://broker.internal:80/" << "broker.internal";
    QTest::newRow("https's own port") << "https://broker.internal:443/" << "broker.internal";
    QTest::newRow("443 over http") << "http://broker.internal:443/" << "broker.internal:443";
}

void AwsRequestSignerTest::signsTheHostQtSends()
{
    QFETCH(QString, url);
    QFETCH(QString, host);
    const AwsHeaders headers = signAwsRequest("POST", QUrl(url), {}, {}, {QStringLiteral("AK"), QStringLiteral("SK"), {}},
                                              QStringLiteral("us-east-1"), QStringLiteral("sqs"), QDateTime::currentDateTimeUtc());
    QCOMPARE(QString::fromUtf8(headers.first().second), host);
    QCOMPARE(headers.first().first, QByteArray("Host"));
}

RELAYDESK_TEST_MAIN(AwsRequestSignerTest)
#include "aws_request_signer_test.moc"
