// SPDX-License-Identifier: MIT
// Unit tests of the queue/topic name rules (docs/behaviour.md §1, 10) and of the broker's
// identifiers: ARNs, queue URLs and parsing them back (docs/behaviour.md §1).

#include "broker/broker_identity.h"
#include "broker/entity_names.h"
#include "support/test_main.h"

#include <QString>
#include <QtTest>

using namespace relaydesk;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

namespace {

QString repeated(char c, int count) { return QString(count, QLatin1Char(c)); }
std::string s(const QString &text) { return text.toStdString(); }

const QString kOk = QString();   // expected message fragment column: empty = valid

} // namespace

class EntityNamesTest final : public QObject {
    Q_OBJECT

private slots:
    void validateQueueName_specRule_data();
    void validateQueueName_specRule();
    void validateTopicName_specRule_data();
    void validateTopicName_specRule();
    void hasFifoSuffix_names();
    void identity_defaults_followAws();
    void identity_builders_useRegionAccountEndpoint();
    void identity_validate_rejectsBadFields_data();
    void identity_validate_rejectsBadFields();
    void identity_validate_acceptsEndpoints_data();
    void identity_validate_acceptsEndpoints();
    void queueNameFromUrl_urls_data();
    void queueNameFromUrl_urls();
    void queueNameFromArn_arns_data();
    void queueNameFromArn_arns();
    void topicNameFromArn_arns_data();
    void topicNameFromArn_arns();
    void subscriptionFromArn_arns_data();
    void subscriptionFromArn_arns();
};

void EntityNamesTest::validateQueueName_specRule_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<QString>("messageFragment");

    const QString standard = QStringLiteral("Can only include alphanumeric characters, hyphens, or underscores");
    const QString fifo = QStringLiteral("The name of a FIFO queue");
    QTest::newRow("one letter") << "a" << true << kOk;
    QTest::newRow("letters digits - _") << "Orders-2024_eu" << true << kOk;
    QTest::newRow("80 characters") << repeated('q', 80) << true << kOk;
    QTest::newRow("fifo") << "orders.fifo" << true << kOk;
    QTest::newRow("fifo, 80 with suffix") << repeated('q', 75) + ".fifo" << true << kOk;
    QTest::newRow("fifo, one-letter base") << "q.fifo" << true << kOk;
    QTest::newRow("empty") << "" << false << standard;
    QTest::newRow("81 characters") << repeated('q', 81) << false << standard;
    QTest::newRow("fifo, 81 with suffix") << repeated('q', 76) + ".fifo" << false << fifo;
    QTest::newRow("suffix alone") << ".fifo" << false << fifo;
    QTest::newRow("dot in a standard name") << "orders.v2" << false << standard;
    QTest::newRow("upper-case suffix is not FIFO") << "orders.FIFO" << false << standard;
    QTest::newRow("space") << "my queue" << false << standard;
    QTest::newRow("slash") << "a/b" << false << standard;
    QTest::newRow("non-ASCII letter") << "caf\u00e9" << false << standard;
    QTest::newRow("dot in a FIFO base") << "a.b.fifo" << false << fifo;
}

void EntityNamesTest::validateQueueName_specRule()
{
    QFETCH(QString, name);
    QFETCH(bool, valid);
    QFETCH(QString, messageFragment);
    const Status status = validateQueueName(s(name));
    QCOMPARE(status.ok(), valid);
    if (!valid) {
        QCOMPARE(status.error().code, BrokerErrorCode::InvalidParameterValue);
        QVERIFY2(QString::fromStdString(status.error().message).startsWith(messageFragment),
                 status.error().message.c_str());
    }
}

void EntityNamesTest::validateTopicName_specRule_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("valid");

    QTest::newRow("one letter") << "t" << true;
    QTest::newRow("256 characters") << repeated('t', 256) << true;
    QTest::newRow("fifo, 256 with suffix") << repeated('t', 251) + ".fifo" << true;
    QTest::newRow("letters digits - _") << "Order_Events-1" << true;
    QTest::newRow("empty") << "" << false;
    QTest::newRow("257 characters") << repeated('t', 257) << false;
    QTest::newRow("fifo, 257 with suffix") << repeated('t', 252) + ".fifo" << false;
    QTest::newRow("dot") << "order.events" << false;
    QTest::newRow("colon") << "a:b" << false;
    QTest::newRow("suffix alone") << ".fifo" << false;
}

void EntityNamesTest::validateTopicName_specRule()
{
    QFETCH(QString, name);
    QFETCH(bool, valid);
    const Status status = validateTopicName(s(name));
    QCOMPARE(status.ok(), valid);
    if (!valid) {
        QCOMPARE(status.error().code, BrokerErrorCode::SnsInvalidParameter);
        QCOMPARE(QString::fromStdString(status.error().message), QStringLiteral("Invalid parameter: Topic Name"));
    }
}

void EntityNamesTest::hasFifoSuffix_names()
{
    QVERIFY(hasFifoSuffix("orders.fifo"));
    QVERIFY(hasFifoSuffix(".fifo"));
    QVERIFY(!hasFifoSuffix("orders"));
    QVERIFY(!hasFifoSuffix("orders.FIFO"));
    QVERIFY(!hasFifoSuffix("fifo"));
}

void EntityNamesTest::identity_defaults_followAws()
{
    const BrokerIdentity identity;
    QCOMPARE(QString::fromStdString(identity.region), QStringLiteral("us-east-1"));
    QCOMPARE(QString::fromStdString(identity.accountId), QStringLiteral("000000000000"));
    QVERIFY(identity.validate().ok());
    QCOMPARE(QString::fromStdString(identity.topicArn("orders")), QStringLiteral("arn:aws:sns:us-east-1:000000000000:orders"));
    QCOMPARE(QString::fromStdString(identity.queueArn("jobs.fifo")),
             QStringLiteral("arn:aws:sqs:us-east-1:000000000000:jobs.fifo"));
    QCOMPARE(QString::fromStdString(identity.queueUrl("jobs")), QStringLiteral("http://127.0.0.1:9911/000000000000/jobs"));
    QCOMPARE(QString::fromStdString(identity.subscriptionArn("orders", "0d9bb2a4-3a8c-4b6e-9a50-2f1d1c1e8f00")),
             QStringLiteral("arn:aws:sns:us-east-1:000000000000:orders:0d9bb2a4-3a8c-4b6e-9a50-2f1d1c1e8f00"));
}

void EntityNamesTest::identity_builders_useRegionAccountEndpoint()
{
    BrokerIdentity identity;
    identity.region = "eu-west-1";
    identity.accountId = "123456789012";
    identity.endpoint = "http://localhost:4566";
    QVERIFY(identity.validate().ok());
    QCOMPARE(QString::fromStdString(identity.topicArn("t")), QStringLiteral("arn:aws:sns:eu-west-1:123456789012:t"));
    QCOMPARE(QString::fromStdString(identity.queueArn("q")), QStringLiteral("arn:aws:sqs:eu-west-1:123456789012:q"));
    QCOMPARE(QString::fromStdString(identity.queueUrl("q")), QStringLiteral("http://localhost:4566/123456789012/q"));
    // Built identifiers parse back.
    QCOMPARE(QString::fromStdString(identity.queueNameFromUrl(identity.queueUrl("q")).value()), QStringLiteral("q"));
    QCOMPARE(QString::fromStdString(identity.queueNameFromArn(identity.queueArn("q")).value()), QStringLiteral("q"));
    QCOMPARE(QString::fromStdString(identity.topicNameFromArn(identity.topicArn("t")).value()), QStringLiteral("t"));
}

void EntityNamesTest::identity_validate_rejectsBadFields_data()
{
    QTest::addColumn<QString>("region");
    QTest::addColumn<QString>("account");
    QTest::addColumn<QString>("endpoint");

    QTest::newRow("empty region") << "" << "000000000000" << "http://127.0.0.1:9911";
    QTest::newRow("upper-case region") << "US-EAST-1" << "000000000000" << "http://127.0.0.1:9911";
    QTest::newRow("colon in region") << "us:east" << "000000000000" << "http://127.0.0.1:9911";
    QTest::newRow("short account") << "us-east-1" << "123" << "http://127.0.0.1:9911";
    QTest::newRow("letters in account") << "us-east-1" << "00000000000a" << "http://127.0.0.1:9911";
    QTest::newRow("endpoint without scheme") << "us-east-1" << "000000000000" << "127.0.0.1:9911";
    QTest::newRow("endpoint with path") << "us-east-1" << "000000000000" << "http://127.0.0.1:9911/";
    QTest::newRow("endpoint without host") << "us-east-1" << "000000000000" << "http://:80";
    QTest::newRow("endpoint port 99999") << "us-east-1" << "000000000000" << "http://localhost:99999";
    QTest::newRow("endpoint port 0") << "us-east-1" << "000000000000" << "http://localhost:0";
    QTest::newRow("endpoint empty port") << "us-east-1" << "000000000000" << "http://localhost:";
    QTest::newRow("endpoint port letters") << "us-east-1" << "000000000000" << "http://localhost:80a";
    QTest::newRow("endpoint host 5000 characters") << "us-east-1" << "000000000000"
                                                   << "http://" + QString(5000, QLatin1Char('h')) + ":9911";
    QTest::newRow("endpoint host with @") << "us-east-1" << "000000000000" << "http://user@evil.example:80";
    QTest::newRow("endpoint IPv6 unclosed") << "us-east-1" << "000000000000" << "http://[::1:9911";
    QTest::newRow("endpoint IPv6 not hex") << "us-east-1" << "000000000000" << "http://[zz::1]:9911";
}

void EntityNamesTest::identity_validate_acceptsEndpoints_data()
{
    QTest::addColumn<QString>("endpoint");
    QTest::newRow("name and port") << "http://host.docker.internal:9911";
    QTest::newRow("no port") << "https://relaydesk.example";
    QTest::newRow("address") << "http://192.168.1.20:80";
    QTest::newRow("IPv6") << "http://[::1]:9911";
    QTest::newRow("IPv6 without port") << "http://[fe80::1]";
    QTest::newRow("port 65535") << "http://localhost:65535";
    QTest::newRow("253-character host") << "http://" + QString(253, QLatin1Char('h'));
}

void EntityNamesTest::identity_validate_acceptsEndpoints()
{
    QFETCH(QString, endpoint);
    BrokerIdentity identity;
    identity.endpoint = s(endpoint);
    QVERIFY2(identity.validate().ok(), qPrintable(endpoint));
}

void EntityNamesTest::identity_validate_rejectsBadFields()
{
    QFETCH(QString, region);
    QFETCH(QString, account);
    QFETCH(QString, endpoint);
    BrokerIdentity identity;
    identity.region = s(region);
    identity.accountId = s(account);
    identity.endpoint = s(endpoint);
    const Status status = identity.validate();
    QVERIFY(!status.ok());
    QCOMPARE(status.error().code, BrokerErrorCode::InvalidParameterValue);
}

void EntityNamesTest::queueNameFromUrl_urls_data()
{
    QTest::addColumn<QString>("url");
    QTest::addColumn<QString>("name");   // empty: QueueDoesNotExist

    QTest::newRow("own endpoint") << "http://127.0.0.1:9911/000000000000/orders" << "orders";
    QTest::newRow("another host name") << "http://localhost:4566/000000000000/orders.fifo" << "orders.fifo";
    QTest::newRow("https, AWS host") << "https://sqs.us-east-1.amazonaws.com/000000000000/q" << "q";
    QTest::newRow("path only") << "/000000000000/q" << "q";
    QTest::newRow("trailing slash") << "http://h:1/000000000000/q/" << "q";
    QTest::newRow("other account") << "http://127.0.0.1:9911/123456789012/orders" << "";
    QTest::newRow("name alone") << "orders" << "";
    QTest::newRow("no name") << "http://127.0.0.1:9911/000000000000/" << "";
    QTest::newRow("extra path segment") << "http://h/000000000000/a/b" << "";
    QTest::newRow("invalid name") << "http://h/000000000000/a.b" << "";
    QTest::newRow("no path") << "http://127.0.0.1:9911" << "";
    QTest::newRow("empty") << "" << "";
}

void EntityNamesTest::queueNameFromUrl_urls()
{
    QFETCH(QString, url);
    QFETCH(QString, name);
    const Result<std::string> parsed = BrokerIdentity().queueNameFromUrl(s(url));
    QCOMPARE(parsed.ok(), !name.isEmpty());
    if (parsed.ok())
        QCOMPARE(QString::fromStdString(parsed.value()), name);
    else
        QCOMPARE(parsed.error().code, BrokerErrorCode::QueueDoesNotExist);
}

void EntityNamesTest::queueNameFromArn_arns_data()
{
    QTest::addColumn<QString>("arn");
    QTest::addColumn<QString>("name");   // empty: QueueDoesNotExist

    QTest::newRow("ours") << "arn:aws:sqs:us-east-1:000000000000:dlq" << "dlq";
    QTest::newRow("fifo") << "arn:aws:sqs:us-east-1:000000000000:dlq.fifo" << "dlq.fifo";
    QTest::newRow("other region") << "arn:aws:sqs:eu-west-1:000000000000:dlq" << "";
    QTest::newRow("other account") << "arn:aws:sqs:us-east-1:111111111111:dlq" << "";
    QTest::newRow("topic ARN") << "arn:aws:sns:us-east-1:000000000000:dlq" << "";
    QTest::newRow("too few fields") << "arn:aws:sqs:us-east-1:dlq" << "";
    QTest::newRow("not an ARN") << "dlq" << "";
}

void EntityNamesTest::queueNameFromArn_arns()
{
    QFETCH(QString, arn);
    QFETCH(QString, name);
    const Result<std::string> parsed = BrokerIdentity().queueNameFromArn(s(arn));
    QCOMPARE(parsed.ok(), !name.isEmpty());
    if (parsed.ok())
        QCOMPARE(QString::fromStdString(parsed.value()), name);
    else
        QCOMPARE(parsed.error().code, BrokerErrorCode::QueueDoesNotExist);
}

void EntityNamesTest::topicNameFromArn_arns_data()
{
    QTest::addColumn<QString>("arn");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<BrokerErrorCode>("code");
    QTest::addColumn<QString>("name");

    QTest::newRow("ours") << "arn:aws:sns:us-east-1:000000000000:orders" << true << BrokerErrorCode::InternalError
                          << "orders";
    QTest::newRow("fifo") << "arn:aws:sns:us-east-1:000000000000:orders.fifo" << true << BrokerErrorCode::InternalError
                          << "orders.fifo";
    QTest::newRow("other account: not found") << "arn:aws:sns:us-east-1:999999999999:orders" << false
                                              << BrokerErrorCode::SnsNotFound << "";
    QTest::newRow("other region: not found") << "arn:aws:sns:eu-west-1:000000000000:orders" << false
                                             << BrokerErrorCode::SnsNotFound << "";
    QTest::newRow("queue ARN: malformed") << "arn:aws:sqs:us-east-1:000000000000:orders" << false
                                          << BrokerErrorCode::SnsInvalidParameter << "";
    QTest::newRow("bad name: malformed") << "arn:aws:sns:us-east-1:000000000000:a.b" << false
                                         << BrokerErrorCode::SnsInvalidParameter << "";
    QTest::newRow("subscription ARN: malformed")
        << "arn:aws:sns:us-east-1:000000000000:orders:0d9bb2a4-3a8c-4b6e-9a50-2f1d1c1e8f00" << false
        << BrokerErrorCode::SnsInvalidParameter << "";
    QTest::newRow("name only: malformed") << "orders" << false << BrokerErrorCode::SnsInvalidParameter << "";
}

void EntityNamesTest::topicNameFromArn_arns()
{
    QFETCH(QString, arn);
    QFETCH(bool, valid);
    QFETCH(BrokerErrorCode, code);
    QFETCH(QString, name);
    const Result<std::string> parsed = BrokerIdentity().topicNameFromArn(s(arn));
    QCOMPARE(parsed.ok(), valid);
    if (valid)
        QCOMPARE(QString::fromStdString(parsed.value()), name);
    else
        QCOMPARE(parsed.error().code, code);
}

void EntityNamesTest::subscriptionFromArn_arns_data()
{
    QTest::addColumn<QString>("arn");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<BrokerErrorCode>("code");

    QTest::newRow("ours") << "arn:aws:sns:us-east-1:000000000000:orders:0d9bb2a4-3a8c-4b6e-9a50-2f1d1c1e8f00" << true
                          << BrokerErrorCode::InternalError;
    QTest::newRow("upper-case UUID") << "arn:aws:sns:us-east-1:000000000000:orders:0D9BB2A4-3A8C-4B6E-9A50-2F1D1C1E8F00"
                                     << true << BrokerErrorCode::InternalError;
    QTest::newRow("other account") << "arn:aws:sns:us-east-1:999999999999:orders:0d9bb2a4-3a8c-4b6e-9a50-2f1d1c1e8f00"
                                   << false << BrokerErrorCode::SnsNotFound;
    QTest::newRow("no UUID") << "arn:aws:sns:us-east-1:000000000000:orders" << false
                             << BrokerErrorCode::SnsInvalidParameter;
    QTest::newRow("suffix not a UUID") << "arn:aws:sns:us-east-1:000000000000:orders:PendingConfirmation" << false
                                       << BrokerErrorCode::SnsInvalidParameter;
    QTest::newRow("short UUID") << "arn:aws:sns:us-east-1:000000000000:orders:0d9bb2a4-3a8c-4b6e-9a50-2f1d1c1e8f0"
                                << false << BrokerErrorCode::SnsInvalidParameter;
}

void EntityNamesTest::subscriptionFromArn_arns()
{
    QFETCH(QString, arn);
    QFETCH(bool, valid);
    QFETCH(BrokerErrorCode, code);
    const auto parsed = BrokerIdentity().subscriptionFromArn(s(arn));
    QCOMPARE(parsed.ok(), valid);
    if (valid) {
        QCOMPARE(QString::fromStdString(parsed->topicName), QStringLiteral("orders"));
        QCOMPARE(QString::fromStdString(parsed->subscriptionId).toLower(),
                 QStringLiteral("0d9bb2a4-3a8c-4b6e-9a50-2f1d1c1e8f00"));
    } else {
        QCOMPARE(parsed.error().code, code);
    }
}

RELAYDESK_TEST_MAIN(EntityNamesTest)
#include "entity_names_test.moc"
