// SPDX-License-Identifier: MIT
// Unit tests of TopicAttributes and SubscriptionAttributes (docs/behaviour.md §1, 2, 4, 6,
// 10): defaults, FIFO rules, the DeliveryPolicy check through core/policy
// with docs/behaviour.md §10's message form, filter policy and redrive policy attributes,
// protocols and endpoints.

#include "broker/topics/subscription_attributes.h"
#include "broker/topics/topic_attributes.h"

#include "attribute_spec.h"
#include "support/test_main.h"

#include <QString>
#include <QtTest>

using namespace relaydesk;
using namespace relaydesk::testing;

Q_DECLARE_METATYPE(relaydesk::EndpointProtocol)

namespace {

std::string s(const QString &text) { return text.toStdString(); }
QString q(const std::string &text) { return QString::fromStdString(text); }

const QString kAttributesReason = QStringLiteral("Invalid parameter: Attributes Reason: ");
const QString kDlq = QStringLiteral("arn:aws:sqs:us-east-1:000000000000:dlq");

} // namespace

class SnsAttributesTest final : public QObject {
    Q_OBJECT

private slots:
    void topic_nothingGiven_defaults();
    void topic_valid_writtenBack_data();
    void topic_valid_writtenBack();
    void topic_invalid_snsInvalidParameter_data();
    void topic_invalid_snsInvalidParameter();
    void topic_apply_fifoTopicFixed();
    void topic_deliveryPolicy_keptInGivenForm();
    void subscription_nothingGiven_defaults();
    void subscription_valid_writtenBack_data();
    void subscription_valid_writtenBack();
    void subscription_invalid_snsInvalidParameter_data();
    void subscription_invalid_snsInvalidParameter();
    void subscription_rawDeliveryOff_rechecksDeliveryPolicy();
    void subscription_filterPolicy_isParsed();
    void subscriptionProtocol_names_data();
    void subscriptionProtocol_names();
    void subscriptionEndpoint_perProtocol_data();
    void subscriptionEndpoint_perProtocol();
};

void SnsAttributesTest::topic_nothingGiven_defaults()
{
    const Result<TopicAttributes> parsed = parseTopicAttributes("orders", {});
    QVERIFY(parsed.ok());
    QCOMPARE(parsed->fifoTopic, false);
    QCOMPARE(parsed->signatureVersion, 1);
    QVERIFY(!parsed->deliveryPolicy.has_value());
    QVERIFY(!parsed->defaultMessageTimeToLive.has_value());
    QVERIFY(!parsed->autoDeleteOnIdle.has_value());
    const AttributeMap written = writeTopicAttributes(parsed.value());
    QCOMPARE(get(written, "DisplayName"), QString());
    QCOMPARE(get(written, "SignatureVersion"), QStringLiteral("1"));
    QCOMPARE(get(written, "FifoTopic"), QStringLiteral("<absent>"));
    QCOMPARE(get(written, "DeliveryPolicy"), QStringLiteral("<absent>"));
}

void SnsAttributesTest::topic_valid_writtenBack_data()
{
    QTest::addColumn<QString>("topic");
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("written");

    QTest::newRow("FIFO topic") << "orders.fifo" << "FifoTopic=true" << "FifoTopic" << "true";
    QTest::newRow("FIFO content-based dedup") << "orders.fifo" << "FifoTopic=true|ContentBasedDeduplication=true"
                                              << "ContentBasedDeduplication" << "true";
    QTest::newRow("FifoTopic false, standard name") << "orders" << "FifoTopic=false" << "FifoTopic" << "<absent>";
    QTest::newRow("DisplayName 100 chars") << "t" << "DisplayName=" + QString(100, QLatin1Char('d')) << "DisplayName"
                                           << QString(100, QLatin1Char('d'));
    QTest::newRow("SignatureVersion 2") << "t" << "SignatureVersion=2" << "SignatureVersion" << "2";
    QTest::newRow("DefaultMessageTimeToLive") << "t" << "DefaultMessageTimeToLive=3600" << "DefaultMessageTimeToLive"
                                              << "3600";
    QTest::newRow("AutoDeleteOnIdle 300") << "t" << "AutoDeleteOnIdle=300" << "AutoDeleteOnIdle" << "300";
    QTest::newRow("DeliveryPolicy topic form")
        << "t" << "DeliveryPolicy={\"http\": {\"defaultHealthyRetryPolicy\": {\"numRetries\": 5}}}" << "DeliveryPolicy"
        << "{\"http\": {\"defaultHealthyRetryPolicy\": {\"numRetries\": 5}}}";
    QTest::newRow("DeliveryPolicy Zaqar form") << "t" << "DeliveryPolicy={\"_retry_policy\": {}}" << "DeliveryPolicy"
                                               << "{\"_retry_policy\": {}}";
    QTest::newRow("DeliveryPolicy empty object") << "t" << "DeliveryPolicy={}" << "DeliveryPolicy" << "{}";
    QTest::newRow("DeliveryPolicy empty = none") << "t" << "DeliveryPolicy=" << "DeliveryPolicy" << "<absent>";
}

void SnsAttributesTest::topic_valid_writtenBack()
{
    QFETCH(QString, topic);
    QFETCH(QString, given);
    QFETCH(QString, name);
    QFETCH(QString, written);
    const Result<TopicAttributes> parsed = parseTopicAttributes(s(topic), attributes(given));
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(get(writeTopicAttributes(parsed.value()), s(name).c_str()), written);
}

void SnsAttributesTest::topic_invalid_snsInvalidParameter_data()
{
    QTest::addColumn<QString>("topic");
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("messageStart");

    QTest::newRow("unknown attribute") << "t" << "Colour=red" << kAttributesReason + "Unknown attribute Colour";
    QTest::newRow("read-only TopicArn") << "t" << "TopicArn=x" << kAttributesReason + "Unknown attribute TopicArn";
    QTest::newRow("FifoTopic true, standard name") << "t" << "FifoTopic=true" << "Invalid parameter: Fifo Topic names";
    QTest::newRow(".fifo name without FifoTopic") << "t.fifo" << "" << "Invalid parameter: Topic Name";
    QTest::newRow("FifoTopic not a boolean") << "t" << "FifoTopic=maybe" << kAttributesReason + "FifoTopic:";
    QTest::newRow("ContentBasedDeduplication on standard") << "t" << "ContentBasedDeduplication=true"
                                                           << kAttributesReason + "ContentBasedDeduplication:";
    QTest::newRow("DisplayName 101 chars") << "t" << "DisplayName=" + QString(101, QLatin1Char('d'))
                                           << kAttributesReason + "DisplayName:";
    QTest::newRow("SignatureVersion 3") << "t" << "SignatureVersion=3" << kAttributesReason + "SignatureVersion:";
    QTest::newRow("DefaultMessageTimeToLive 0") << "t" << "DefaultMessageTimeToLive=0"
                                                << kAttributesReason + "DefaultMessageTimeToLive:";
    QTest::newRow("AutoDeleteOnIdle 299 (docs/behaviour.md §6: at least 5 minutes)") << "t" << "AutoDeleteOnIdle=299"
                                                                       << kAttributesReason + "AutoDeleteOnIdle:";
    // docs/behaviour.md §10: "Invalid parameter: Attributes Reason: DeliveryPolicy: <field> <problem>", field paths of the form.
    QTest::newRow("DeliveryPolicy minDelayTarget 0")
        << "t" << "DeliveryPolicy={\"http\": {\"defaultHealthyRetryPolicy\": {\"minDelayTarget\": 0}}}"
        << kAttributesReason + "DeliveryPolicy: http.defaultHealthyRetryPolicy.minDelayTarget ";
    QTest::newRow("DeliveryPolicy unknown key (typo)")
        << "t" << "DeliveryPolicy={\"http\": {\"defaultHealthyRetryPolicy\": {\"minDelayTaget\": 5}}}"
        << kAttributesReason + "DeliveryPolicy: http.defaultHealthyRetryPolicy.minDelayTaget ";
    QTest::newRow("DeliveryPolicy over the 3600 s cap")
        << "t" << "DeliveryPolicy={\"http\": {\"defaultHealthyRetryPolicy\": {\"numRetries\": 100, \"minDelayTarget\": 60, "
                  "\"maxDelayTarget\": 60}}}"
        << kAttributesReason + "DeliveryPolicy: http.defaultHealthyRetryPolicy";
    QTest::newRow("DeliveryPolicy subscription form on a topic")
        << "t" << "DeliveryPolicy={\"healthyRetryPolicy\": {\"numRetries\": 3}}" << kAttributesReason + "DeliveryPolicy: ";
    QTest::newRow("DeliveryPolicy not JSON") << "t" << "DeliveryPolicy={http" << kAttributesReason + "DeliveryPolicy: ";
}

void SnsAttributesTest::topic_invalid_snsInvalidParameter()
{
    QFETCH(QString, topic);
    QFETCH(QString, given);
    QFETCH(QString, messageStart);
    const Result<TopicAttributes> parsed = parseTopicAttributes(s(topic), attributes(given));
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.error().code, BrokerErrorCode::SnsInvalidParameter);
    QVERIFY2(q(parsed.error().message).startsWith(messageStart), parsed.error().message.c_str());
}

void SnsAttributesTest::topic_apply_fifoTopicFixed()
{
    const TopicAttributes current = parseTopicAttributes("t", {}).value();
    const Result<TopicAttributes> fifo = applyTopicAttribute(current, "FifoTopic", "true");
    QVERIFY(!fifo.ok());
    QCOMPARE(fifo.error().code, BrokerErrorCode::SnsInvalidParameter);
    const Result<TopicAttributes> named = applyTopicAttribute(current, "DisplayName", "Orders");
    QVERIFY(named.ok());
    QCOMPARE(q(named->displayName), QStringLiteral("Orders"));
    const Result<TopicAttributes> bad = applyTopicAttribute(named.value(), "Colour", "red");
    QVERIFY(!bad.ok());
}

void SnsAttributesTest::topic_deliveryPolicy_keptInGivenForm()
{
    const std::string text = R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 4, "backoffFunction": "exponential"}, "disableSubscriptionOverrides": true}})";
    const Result<TopicAttributes> parsed = parseTopicAttributes("t", {{"DeliveryPolicy", text}});
    QVERIFY(parsed.ok());
    QVERIFY(parsed->deliveryPolicy.has_value());
    QCOMPARE(q(parsed->deliveryPolicy->text), q(text));
    const DeliveryPolicy &policy = parsed->deliveryPolicy->policy;
    QCOMPARE(policy.form, PolicyForm::SnsTopic);
    QVERIFY(policy.retry.has_value());
    QCOMPARE(policy.retry->numRetries, 4);
    QCOMPARE(policy.retry->backoffFunction, BackoffFunction::Exponential);
    QVERIFY(policy.disableSubscriptionOverrides);
}

void SnsAttributesTest::subscription_nothingGiven_defaults()
{
    const Result<SubscriptionAttributes> parsed = parseSubscriptionAttributes(EndpointProtocol::Https, {});
    QVERIFY(parsed.ok());
    QCOMPARE(parsed->rawMessageDelivery, false);
    QVERIFY(!parsed->filterPolicy.has_value());
    QVERIFY(!parsed->redrivePolicy.has_value());
    QVERIFY(!parsed->deliveryPolicy.has_value());
    const AttributeMap written = writeSubscriptionAttributes(parsed.value());
    QCOMPARE(get(written, "RawMessageDelivery"), QStringLiteral("false"));
    QCOMPARE(get(written, "FilterPolicy"), QStringLiteral("<absent>"));
    QCOMPARE(get(written, "FilterPolicyScope"), QStringLiteral("<absent>"));
}

void SnsAttributesTest::subscription_valid_writtenBack_data()
{
    QTest::addColumn<EndpointProtocol>("protocol");
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("written");

    const auto http = EndpointProtocol::Http;
    const auto sqs = EndpointProtocol::Sqs;
    QTest::newRow("RawMessageDelivery") << sqs << "RawMessageDelivery=true" << "RawMessageDelivery" << "true";
    QTest::newRow("FilterPolicy") << sqs << "FilterPolicy={\"store\": [\"example_corp\"]}" << "FilterPolicy"
                                  << "{\"store\": [\"example_corp\"]}";
    QTest::newRow("FilterPolicyScope written with a policy") << sqs << "FilterPolicy={\"a\": [\"b\"]}"
                                                             << "FilterPolicyScope" << "MessageAttributes";
    QTest::newRow("FilterPolicyScope MessageAttributes accepted")
        << sqs << "FilterPolicyScope=MessageAttributes|FilterPolicy={\"a\": [\"b\"]}" << "FilterPolicyScope"
        << "MessageAttributes";
    QTest::newRow("RedrivePolicy") << http << "RedrivePolicy={\"deadLetterTargetArn\": \"" + kDlq + "\"}"
                                   << "RedrivePolicy" << "{\"deadLetterTargetArn\":\"" + kDlq + "\"}";
    QTest::newRow("DeliveryPolicy subscription form") << http << "DeliveryPolicy={\"healthyRetryPolicy\": {\"numRetries\": 3}}"
                                                      << "DeliveryPolicy" << "{\"healthyRetryPolicy\": {\"numRetries\": 3}}";
    QTest::newRow("DeliveryPolicy text/html with raw delivery (docs/behaviour.md §4.3)")
        << http << "RawMessageDelivery=true|DeliveryPolicy={\"requestPolicy\": {\"headerContentType\": \"text/html\"}}"
        << "DeliveryPolicy" << "{\"requestPolicy\": {\"headerContentType\": \"text/html\"}}";
    QTest::newRow("DefaultMessageTimeToLive") << sqs << "DefaultMessageTimeToLive=60" << "DefaultMessageTimeToLive" << "60";
}

void SnsAttributesTest::subscription_valid_writtenBack()
{
    QFETCH(EndpointProtocol, protocol);
    QFETCH(QString, given);
    QFETCH(QString, name);
    QFETCH(QString, written);
    const Result<SubscriptionAttributes> parsed = parseSubscriptionAttributes(protocol, attributes(given));
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(get(writeSubscriptionAttributes(parsed.value()), s(name).c_str()), written);
}

void SnsAttributesTest::subscription_invalid_snsInvalidParameter_data()
{
    QTest::addColumn<EndpointProtocol>("protocol");
    QTest::addColumn<QString>("given");
    QTest::addColumn<QString>("messageStart");

    const auto http = EndpointProtocol::Http;
    const auto sqs = EndpointProtocol::Sqs;
    QTest::newRow("unknown attribute") << http << "Colour=red" << kAttributesReason + "Unknown attribute Colour";
    QTest::newRow("read-only PendingConfirmation") << http << "PendingConfirmation=false"
                                                   << kAttributesReason + "Unknown attribute PendingConfirmation";
    QTest::newRow("RawMessageDelivery not a boolean") << http << "RawMessageDelivery=yes"
                                                      << kAttributesReason + "RawMessageDelivery:";
    QTest::newRow("FilterPolicy too complex") << sqs << "FilterPolicy={\"a\": [" + QString("\"x\",").repeated(150) + "\"x\"]}"
                                              << kAttributesReason + "FilterPolicy: Filter policy is too complex";
    QTest::newRow("FilterPolicy not JSON") << sqs << "FilterPolicy={a" << kAttributesReason + "FilterPolicy: ";
    QTest::newRow("FilterPolicyScope MessageBody unsupported") << sqs << "FilterPolicyScope=MessageBody"
                                                               << kAttributesReason + "FilterPolicyScope:";
    QTest::newRow("FilterPolicyScope unknown") << sqs << "FilterPolicyScope=Body" << kAttributesReason + "FilterPolicyScope:";
    QTest::newRow("DeliveryPolicy on sqs (fixed policy)") << sqs << "DeliveryPolicy={\"healthyRetryPolicy\": {}}"
                                                          << kAttributesReason + "DeliveryPolicy: ";
    QTest::newRow("DeliveryPolicy numRetries 101")
        << http << "DeliveryPolicy={\"healthyRetryPolicy\": {\"numRetries\": 101}}"
        << kAttributesReason + "DeliveryPolicy: healthyRetryPolicy.numRetries ";
    QTest::newRow("DeliveryPolicy text/html without raw delivery")
        << http << "DeliveryPolicy={\"requestPolicy\": {\"headerContentType\": \"text/html\"}}"
        << kAttributesReason + "DeliveryPolicy: requestPolicy.headerContentType ";
    QTest::newRow("DeliveryPolicy topic form on a subscription")
        << http << "DeliveryPolicy={\"http\": {}}" << kAttributesReason + "DeliveryPolicy: ";
    QTest::newRow("RedrivePolicy target not SQS")
        << http << "RedrivePolicy={\"deadLetterTargetArn\": \"arn:aws:sns:us-east-1:000000000000:t\"}"
        << kAttributesReason + "RedrivePolicy:";
    QTest::newRow("RedrivePolicy unknown key") << http
                                               << "RedrivePolicy={\"deadLetterTargetArn\": \"" + kDlq + "\", \"maxReceiveCount\": 3}"
                                               << kAttributesReason + "RedrivePolicy:";
    QTest::newRow("AutoDeleteOnIdle 60") << http << "AutoDeleteOnIdle=60" << kAttributesReason + "AutoDeleteOnIdle:";
}

void SnsAttributesTest::subscription_invalid_snsInvalidParameter()
{
    QFETCH(EndpointProtocol, protocol);
    QFETCH(QString, given);
    QFETCH(QString, messageStart);
    const Result<SubscriptionAttributes> parsed = parseSubscriptionAttributes(protocol, attributes(given));
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.error().code, BrokerErrorCode::SnsInvalidParameter);
    QVERIFY2(q(parsed.error().message).startsWith(messageStart), parsed.error().message.c_str());
}

void SnsAttributesTest::subscription_rawDeliveryOff_rechecksDeliveryPolicy()
{
    const SubscriptionAttributes raw =
        parseSubscriptionAttributes(EndpointProtocol::Https,
                                    {{"RawMessageDelivery", "true"},
                                     {"DeliveryPolicy", R"({"requestPolicy": {"headerContentType": "text/html"}})"}})
            .value();
    const Result<SubscriptionAttributes> off = applySubscriptionAttribute(EndpointProtocol::Https, raw, "RawMessageDelivery", "false");
    QVERIFY(!off.ok());
    QCOMPARE(off.error().code, BrokerErrorCode::SnsInvalidParameter);
    QVERIFY2(q(off.error().message).contains(QLatin1String("headerContentType")), off.error().message.c_str());

    const Result<SubscriptionAttributes> plain = applySubscriptionAttribute(EndpointProtocol::Https, raw, "DeliveryPolicy", "");
    QVERIFY(plain.ok());
    QVERIFY(!plain->deliveryPolicy.has_value());
    QVERIFY(applySubscriptionAttribute(EndpointProtocol::Https, plain.value(), "RawMessageDelivery", "false").ok());
}

void SnsAttributesTest::subscription_filterPolicy_isParsed()
{
    const Result<SubscriptionAttributes> parsed =
        parseSubscriptionAttributes(EndpointProtocol::Sqs, {{"FilterPolicy", R"({"store": ["example_corp"]})"}});
    QVERIFY(parsed.ok());
    QVERIFY(parsed->filterPolicy.has_value());
    MessageAttributes matching{{"store", {"String", "example_corp", ""}}};
    MessageAttributes other{{"store", {"String", "other", ""}}};
    QVERIFY(parsed->filterPolicy->policy.matches(matching));
    QVERIFY(!parsed->filterPolicy->policy.matches(other));
    const Result<SubscriptionAttributes> removed =
        applySubscriptionAttribute(EndpointProtocol::Sqs, parsed.value(), "FilterPolicy", "");
    QVERIFY(removed.ok());
    QVERIFY(!removed->filterPolicy.has_value());
}

void SnsAttributesTest::subscriptionProtocol_names_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("valid");
    QTest::newRow("http") << "http" << true;
    QTest::newRow("https") << "https" << true;
    QTest::newRow("sqs") << "sqs" << true;
    QTest::newRow("email (not offered)") << "email" << false;
    QTest::newRow("lambda (not offered)") << "lambda" << false;
    QTest::newRow("upper case") << "HTTP" << false;
}

void SnsAttributesTest::subscriptionProtocol_names()
{
    QFETCH(QString, name);
    QFETCH(bool, valid);
    const Result<EndpointProtocol> parsed = parseSubscriptionProtocol(s(name));
    QCOMPARE(parsed.ok(), valid);
    if (!valid) {
        QCOMPARE(parsed.error().code, BrokerErrorCode::SnsInvalidParameter);
        QVERIFY(q(parsed.error().message).contains(name));
    }
}

void SnsAttributesTest::subscriptionEndpoint_perProtocol_data()
{
    QTest::addColumn<EndpointProtocol>("protocol");
    QTest::addColumn<QString>("endpoint");
    QTest::addColumn<bool>("valid");

    const auto http = EndpointProtocol::Http;
    const auto https = EndpointProtocol::Https;
    const auto sqs = EndpointProtocol::Sqs;
    QTest::newRow("http URL") << http << "http://127.0.0.1:8080/hook" << true;
    QTest::newRow("http host only") << http << "http://example.com" << true;
    QTest::newRow("https URL") << https << "https://example.com/sns?x=1" << true;
    QTest::newRow("https endpoint for http") << http << "https://example.com/" << false;
    QTest::newRow("http endpoint for https") << https << "http://example.com/" << false;
    QTest::newRow("no host") << http << "http:///path" << false;
    QTest::newRow("scheme only") << http << "http://" << false;
    QTest::newRow("not a URL") << http << "example.com" << false;
    QTest::newRow("queue ARN") << sqs << "arn:aws:sqs:us-east-1:000000000000:jobs" << true;
    QTest::newRow("topic ARN for sqs") << sqs << "arn:aws:sns:us-east-1:000000000000:jobs" << false;
    QTest::newRow("queue URL for sqs") << sqs << "http://127.0.0.1:9911/000000000000/jobs" << false;
}

void SnsAttributesTest::subscriptionEndpoint_perProtocol()
{
    QFETCH(EndpointProtocol, protocol);
    QFETCH(QString, endpoint);
    QFETCH(bool, valid);
    const Status status = validateSubscriptionEndpoint(protocol, s(endpoint));
    QCOMPARE(status.ok(), valid);
    if (!valid)
        QCOMPARE(status.error().code, BrokerErrorCode::SnsInvalidParameter);
}

RELAYDESK_TEST_MAIN(SnsAttributesTest)
#include "sns_attributes_test.moc"
