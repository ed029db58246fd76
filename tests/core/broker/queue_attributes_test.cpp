// SPDX-License-Identifier: MIT
// Unit tests of QueueAttributes: defaults and ranges (docs/behaviour.md §1, 5, 6, 10), the
// error code of every violation (docs/behaviour.md §10's table; InvalidAttributeName for
// names as SQS reports them), SetQueueAttributes, the CreateQueue
// same-attributes rule and the GetQueueAttributes map.

#include "broker/queues/queue_attributes.h"

#include "attribute_spec.h"
#include "support/test_main.h"

#include <QString>
#include <QStringList>
#include <QtTest>

using namespace relaydesk;
using namespace relaydesk::testing;

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

namespace {

std::string s(const QString &text) { return text.toStdString(); }

const QString kDlq = QStringLiteral("arn:aws:sqs:us-east-1:000000000000:dlq");
const QString kFifoDlq = QStringLiteral("arn:aws:sqs:us-east-1:000000000000:dlq.fifo");

} // namespace

class QueueAttributesTest final : public QObject {
    Q_OBJECT

private slots:
    void parse_nothingGiven_specDefaults();
    void parse_validValue_writtenBack_data();
    void parse_validValue_writtenBack();
    void parse_invalid_specErrorCode_data();
    void parse_invalid_specErrorCode();
    void parse_fifoQueue_fifoDefaultsWritten();
    void apply_changes_keepOthers();
    void apply_invalid_refusedWhole_data();
    void apply_invalid_refusedWhole();
    void apply_emptyRedrivePolicy_removesIt();
    void checkSame_existingQueue_data();
    void checkSame_existingQueue();
    void isQueueAttributeName_names_data();
    void isQueueAttributeName_names();
    void timeToLiveCap_smallerOfDefaultTtlAndRetention();
};

void QueueAttributesTest::parse_nothingGiven_specDefaults()
{
    const Result<QueueAttributes> parsed = parseQueueAttributes("jobs", {});
    QVERIFY(parsed.ok());
    const QueueAttributes &a = parsed.value();
    QCOMPARE(a.fifoQueue, false);
    QCOMPARE(a.visibilityTimeout, 30);
    QCOMPARE(a.delaySeconds, 0);
    QCOMPARE(a.messageRetentionPeriod, 345'600);
    QCOMPARE(a.maximumMessageSize, 262'144);
    QCOMPARE(a.receiveMessageWaitTimeSeconds, 0);
    QVERIFY(!a.redrivePolicy.has_value());
    QVERIFY(!a.redriveAllowPolicy.has_value());
    QCOMPARE(a.contentBasedDeduplication, false);
    QVERIFY(!a.defaultMessageTimeToLive.has_value());      // docs/behaviour.md §6: no expiry by default
    QCOMPARE(a.deadLetteringOnMessageExpiration, false);
    QVERIFY(!a.autoDeleteOnIdle.has_value());               // docs/behaviour.md §6: never by default

    const AttributeMap written = writeQueueAttributes(a);
    QCOMPARE(get(written, "VisibilityTimeout"), QStringLiteral("30"));
    QCOMPARE(get(written, "DelaySeconds"), QStringLiteral("0"));
    QCOMPARE(get(written, "MessageRetentionPeriod"), QStringLiteral("345600"));
    QCOMPARE(get(written, "MaximumMessageSize"), QStringLiteral("262144"));
    QCOMPARE(get(written, "ReceiveMessageWaitTimeSeconds"), QStringLiteral("0"));
    QCOMPARE(get(written, "FifoQueue"), QStringLiteral("<absent>"));
    QCOMPARE(get(written, "ContentBasedDeduplication"), QStringLiteral("<absent>"));
    QCOMPARE(get(written, "RedrivePolicy"), QStringLiteral("<absent>"));
    QCOMPARE(get(written, "DefaultMessageTimeToLive"), QStringLiteral("<absent>"));
}

void QueueAttributesTest::parse_validValue_writtenBack_data()
{
    QTest::addColumn<QString>("queue");
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("written");

    QTest::newRow("VisibilityTimeout 0") << "q" << "VisibilityTimeout" << "0" << "0";
    QTest::newRow("VisibilityTimeout 43200") << "q" << "VisibilityTimeout" << "43200" << "43200";
    QTest::newRow("VisibilityTimeout leading zero") << "q" << "VisibilityTimeout" << "045" << "45";
    QTest::newRow("DelaySeconds 900") << "q" << "DelaySeconds" << "900" << "900";
    QTest::newRow("MessageRetentionPeriod 60") << "q" << "MessageRetentionPeriod" << "60" << "60";
    QTest::newRow("MessageRetentionPeriod 1209600") << "q" << "MessageRetentionPeriod" << "1209600" << "1209600";
    QTest::newRow("MaximumMessageSize 1024") << "q" << "MaximumMessageSize" << "1024" << "1024";
    QTest::newRow("MaximumMessageSize 1048576") << "q" << "MaximumMessageSize" << "1048576" << "1048576";
    QTest::newRow("ReceiveMessageWaitTimeSeconds 20") << "q" << "ReceiveMessageWaitTimeSeconds" << "20" << "20";
    QTest::newRow("RedrivePolicy, count as number")
        << "q" << "RedrivePolicy" << "{\"deadLetterTargetArn\": \"" + kDlq + "\", \"maxReceiveCount\": 5}"
        << "{\"deadLetterTargetArn\":\"" + kDlq + "\",\"maxReceiveCount\":5}";
    QTest::newRow("RedrivePolicy, count as string")
        << "q" << "RedrivePolicy" << "{\"maxReceiveCount\": \"1000\", \"deadLetterTargetArn\": \"" + kDlq + "\"}"
        << "{\"deadLetterTargetArn\":\"" + kDlq + "\",\"maxReceiveCount\":1000}";
    QTest::newRow("RedrivePolicy, FIFO to FIFO")
        << "q.fifo" << "RedrivePolicy" << "{\"deadLetterTargetArn\": \"" + kFifoDlq + "\", \"maxReceiveCount\": 1}"
        << "{\"deadLetterTargetArn\":\"" + kFifoDlq + "\",\"maxReceiveCount\":1}";
    QTest::newRow("RedriveAllowPolicy byQueue")
        << "q" << "RedriveAllowPolicy" << "{\"redrivePermission\": \"byQueue\", \"sourceQueueArns\": [\"" + kDlq + "\"]}"
        << "{\"redrivePermission\":\"byQueue\",\"sourceQueueArns\":[\"" + kDlq + "\"]}";
    QTest::newRow("RedriveAllowPolicy denyAll") << "q" << "RedriveAllowPolicy" << "{\"redrivePermission\":\"denyAll\"}"
                                                << "{\"redrivePermission\":\"denyAll\"}";
    QTest::newRow("ContentBasedDeduplication on FIFO") << "q.fifo" << "ContentBasedDeduplication" << "true" << "true";
    QTest::newRow("ContentBasedDeduplication any case") << "q.fifo" << "ContentBasedDeduplication" << "TRUE" << "true";
    QTest::newRow("DeduplicationScope") << "q.fifo" << "DeduplicationScope" << "messageGroup" << "messageGroup";
    QTest::newRow("DefaultMessageTimeToLive 1") << "q" << "DefaultMessageTimeToLive" << "1" << "1";
    QTest::newRow("DefaultMessageTimeToLive empty = none") << "q" << "DefaultMessageTimeToLive" << "" << "<absent>";
    QTest::newRow("DeadLetteringOnMessageExpiration") << "q" << "DeadLetteringOnMessageExpiration" << "true" << "true";
    QTest::newRow("AutoDeleteOnIdle 300") << "q" << "AutoDeleteOnIdle" << "300" << "300";
    QTest::newRow("Policy stored as given") << "q" << "Policy" << "{\"Version\": \"2012-10-17\"}"
                                            << "{\"Version\": \"2012-10-17\"}";
    QTest::newRow("SqsManagedSseEnabled") << "q" << "SqsManagedSseEnabled" << "false" << "false";
    QTest::newRow("FifoQueue false on a standard name") << "q" << "FifoQueue" << "false" << "<absent>";
}

void QueueAttributesTest::parse_validValue_writtenBack()
{
    QFETCH(QString, queue);
    QFETCH(QString, name);
    QFETCH(QString, value);
    QFETCH(QString, written);

    AttributeMap given{{s(name), s(value)}};
    if (queue.endsWith(QLatin1String(".fifo")))
        given["FifoQueue"] = "true";
    const Result<QueueAttributes> parsed = parseQueueAttributes(s(queue), given);
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message.c_str());
    QCOMPARE(get(writeQueueAttributes(parsed.value()), s(name).c_str()), written);
}

void QueueAttributesTest::parse_invalid_specErrorCode_data()
{
    QTest::addColumn<QString>("queue");
    QTest::addColumn<QString>("given");
    QTest::addColumn<BrokerErrorCode>("code");
    QTest::addColumn<QString>("messageFragment");

    const auto ipv = BrokerErrorCode::InvalidParameterValue;
    const auto iav = BrokerErrorCode::InvalidAttributeValue;
    const auto ian = BrokerErrorCode::InvalidAttributeName;

    // docs/behaviour.md §10: visibility timeout 0–43 200 s, InvalidParameterValue.
    QTest::newRow("VisibilityTimeout -1") << "q" << "VisibilityTimeout=-1" << ipv << "VisibilityTimeout";
    QTest::newRow("VisibilityTimeout 43201") << "q" << "VisibilityTimeout=43201" << ipv << "VisibilityTimeout";
    QTest::newRow("VisibilityTimeout not a number") << "q" << "VisibilityTimeout=abc" << ipv << "VisibilityTimeout";
    QTest::newRow("VisibilityTimeout fraction") << "q" << "VisibilityTimeout=1.5" << ipv << "VisibilityTimeout";
    QTest::newRow("VisibilityTimeout empty") << "q" << "VisibilityTimeout=" << ipv << "VisibilityTimeout";
    QTest::newRow("VisibilityTimeout blank") << "q" << "VisibilityTimeout= 5" << ipv << "VisibilityTimeout";
    // docs/behaviour.md §10: retention 60–1 209 600 s, InvalidAttributeValue.
    QTest::newRow("MessageRetentionPeriod 59") << "q" << "MessageRetentionPeriod=59" << iav << "MessageRetentionPeriod";
    QTest::newRow("MessageRetentionPeriod 1209601") << "q" << "MessageRetentionPeriod=1209601" << iav
                                                    << "MessageRetentionPeriod";
    // docs/behaviour.md §10: delay 0–900 s, InvalidParameterValue.
    QTest::newRow("DelaySeconds 901") << "q" << "DelaySeconds=901" << ipv << "DelaySeconds";
    QTest::newRow("DelaySeconds -1") << "q" << "DelaySeconds=-1" << ipv << "DelaySeconds";
    // docs/behaviour.md §10: queue MaximumMessageSize 1 024 – 1 048 576, InvalidParameterValue.
    QTest::newRow("MaximumMessageSize 1023") << "q" << "MaximumMessageSize=1023" << ipv << "MaximumMessageSize";
    QTest::newRow("MaximumMessageSize 1048577") << "q" << "MaximumMessageSize=1048577" << ipv << "MaximumMessageSize";
    // docs/behaviour.md §10: WaitTimeSeconds 0–20, InvalidParameterValue.
    QTest::newRow("ReceiveMessageWaitTimeSeconds 21") << "q" << "ReceiveMessageWaitTimeSeconds=21" << ipv
                                                      << "ReceiveMessageWaitTimeSeconds";
    // Names.
    QTest::newRow("unknown name (typo)") << "q" << "VisibilityTimeOut=30" << ian << "Unknown Attribute VisibilityTimeOut";
    QTest::newRow("read-only QueueArn") << "q" << "QueueArn=arn:aws:sqs:us-east-1:000000000000:q" << ian << "QueueArn";
    QTest::newRow("read-only count") << "q" << "ApproximateNumberOfMessages=0" << ian << "ApproximateNumberOfMessages";
    QTest::newRow("typo wins over a bad value") << "q" << "VisibilityTimeout=-1|Zebra=1" << ian << "Zebra";
    QTest::newRow("ContentBasedDeduplication on standard") << "q" << "ContentBasedDeduplication=true" << ian
                                                           << "ContentBasedDeduplication";
    QTest::newRow("FifoThroughputLimit on standard") << "q" << "FifoThroughputLimit=perQueue" << ian
                                                     << "FifoThroughputLimit";
    // FIFO consistency (queue-name sentences).
    QTest::newRow("FifoQueue true, name without .fifo") << "q" << "FifoQueue=true" << ipv << "The name of a FIFO queue";
    QTest::newRow(".fifo name without FifoQueue") << "q.fifo" << "" << ipv << "Can only include alphanumeric";
    QTest::newRow(".fifo name, FifoQueue false") << "q.fifo" << "FifoQueue=false" << ipv << "Can only include alphanumeric";
    QTest::newRow("FifoQueue not a boolean") << "q" << "FifoQueue=yes" << iav << "FifoQueue";
    // Redrive policy (docs/behaviour.md §5.3): maxReceiveCount 1–1000, FIFO to FIFO.
    QTest::newRow("RedrivePolicy maxReceiveCount 0")
        << "q" << "RedrivePolicy={\"deadLetterTargetArn\":\"" + kDlq + "\",\"maxReceiveCount\":0}" << ipv
        << "Invalid value for maxReceiveCount: 0";
    QTest::newRow("RedrivePolicy maxReceiveCount 1001")
        << "q" << "RedrivePolicy={\"deadLetterTargetArn\":\"" + kDlq + "\",\"maxReceiveCount\":1001}" << ipv
        << "valid values are from 1 to 1000";
    QTest::newRow("RedrivePolicy without target") << "q" << "RedrivePolicy={\"maxReceiveCount\":5}" << ipv
                                                  << "deadLetterTargetArn";
    QTest::newRow("RedrivePolicy without count") << "q" << "RedrivePolicy={\"deadLetterTargetArn\":\"" + kDlq + "\"}"
                                                 << ipv << "maxReceiveCount";
    QTest::newRow("RedrivePolicy not JSON") << "q" << "RedrivePolicy={deadLetterTargetArn" << ipv
                                            << "for parameter RedrivePolicy is invalid";
    QTest::newRow("RedrivePolicy target not a queue ARN")
        << "q" << "RedrivePolicy={\"deadLetterTargetArn\":\"arn:aws:sns:us-east-1:000000000000:t\",\"maxReceiveCount\":5}"
        << ipv << "deadLetterTargetArn";
    QTest::newRow("RedrivePolicy FIFO source, standard target")
        << "q.fifo" << "FifoQueue=true|RedrivePolicy={\"deadLetterTargetArn\":\"" + kDlq + "\",\"maxReceiveCount\":5}"
        << ipv << "FIFO";
    QTest::newRow("RedrivePolicy standard source, FIFO target")
        << "q" << "RedrivePolicy={\"deadLetterTargetArn\":\"" + kFifoDlq + "\",\"maxReceiveCount\":5}" << ipv
        << "standard";
    QTest::newRow("RedrivePolicy unknown key")
        << "q" << "RedrivePolicy={\"deadLetterTargetArn\":\"" + kDlq + "\",\"maxReceiveCount\":5,\"x\":1}" << ipv
        << "Only following attributes are supported";
    QTest::newRow("RedriveAllowPolicy byQueue without sources") << "q" << "RedriveAllowPolicy={\"redrivePermission\":\"byQueue\"}"
                                                                << ipv << "sourceQueueArns";
    QTest::newRow("RedriveAllowPolicy allowAll with sources")
        << "q" << "RedriveAllowPolicy={\"redrivePermission\":\"allowAll\",\"sourceQueueArns\":[\"" + kDlq + "\"]}" << ipv
        << "sourceQueueArns";
    QTest::newRow("RedriveAllowPolicy unknown permission") << "q" << "RedriveAllowPolicy={\"redrivePermission\":\"some\"}"
                                                           << ipv << "redrivePermission";
    // Relaydesk lifetime attributes (docs/behaviour.md §6).
    QTest::newRow("DefaultMessageTimeToLive 0") << "q" << "DefaultMessageTimeToLive=0" << iav << "DefaultMessageTimeToLive";
    QTest::newRow("AutoDeleteOnIdle 299") << "q" << "AutoDeleteOnIdle=299" << iav << "AutoDeleteOnIdle";
    QTest::newRow("DeadLetteringOnMessageExpiration not a boolean") << "q" << "DeadLetteringOnMessageExpiration=1" << iav
                                                                    << "DeadLetteringOnMessageExpiration";
    // FIFO high-throughput pair.
    QTest::newRow("perMessageGroupId needs messageGroup scope")
        << "q.fifo" << "FifoQueue=true|FifoThroughputLimit=perMessageGroupId" << iav << "FifoThroughputLimit";
    QTest::newRow("DeduplicationScope unknown") << "q.fifo" << "FifoQueue=true|DeduplicationScope=group" << iav
                                                << "DeduplicationScope";
    QTest::newRow("Policy not JSON") << "q" << "Policy=allow all" << iav << "Policy";
}

void QueueAttributesTest::parse_invalid_specErrorCode()
{
    QFETCH(QString, queue);
    QFETCH(QString, given);
    QFETCH(BrokerErrorCode, code);
    QFETCH(QString, messageFragment);

    const Result<QueueAttributes> parsed = parseQueueAttributes(s(queue), attributes(given));
    QVERIFY(!parsed.ok());
    QCOMPARE(parsed.error().code, code);
    QVERIFY2(QString::fromStdString(parsed.error().message).contains(messageFragment), parsed.error().message.c_str());
}

void QueueAttributesTest::parse_fifoQueue_fifoDefaultsWritten()
{
    const Result<QueueAttributes> parsed = parseQueueAttributes("jobs.fifo", {{"FifoQueue", "true"}});
    QVERIFY(parsed.ok());
    QVERIFY(parsed->fifoQueue);
    const AttributeMap written = writeQueueAttributes(parsed.value());
    QCOMPARE(get(written, "FifoQueue"), QStringLiteral("true"));
    QCOMPARE(get(written, "ContentBasedDeduplication"), QStringLiteral("false"));
    QCOMPARE(get(written, "DeduplicationScope"), QStringLiteral("queue"));
    QCOMPARE(get(written, "FifoThroughputLimit"), QStringLiteral("perQueue"));
}

void QueueAttributesTest::apply_changes_keepOthers()
{
    const QueueAttributes current = parseQueueAttributes("q", {{"DelaySeconds", "10"}}).value();
    const Result<QueueAttributes> changed = applyQueueAttributes(current, {{"VisibilityTimeout", "45"}});
    QVERIFY(changed.ok());
    QCOMPARE(changed->visibilityTimeout, 45);
    QCOMPARE(changed->delaySeconds, 10);
    QCOMPARE(current.visibilityTimeout, 30);
}

void QueueAttributesTest::apply_invalid_refusedWhole_data()
{
    QTest::addColumn<QString>("changes");
    QTest::addColumn<BrokerErrorCode>("code");

    QTest::newRow("FifoQueue cannot change") << "FifoQueue=true" << BrokerErrorCode::InvalidAttributeName;
    QTest::newRow("one bad value among good ones") << "DelaySeconds=5|VisibilityTimeout=50000"
                                                   << BrokerErrorCode::InvalidParameterValue;
    QTest::newRow("retention out of range") << "MessageRetentionPeriod=30" << BrokerErrorCode::InvalidAttributeValue;
    QTest::newRow("FIFO-only on standard") << "ContentBasedDeduplication=false" << BrokerErrorCode::InvalidAttributeName;
}

void QueueAttributesTest::apply_invalid_refusedWhole()
{
    QFETCH(QString, changes);
    QFETCH(BrokerErrorCode, code);
    const QueueAttributes current;
    const Result<QueueAttributes> changed = applyQueueAttributes(current, attributes(changes));
    QVERIFY(!changed.ok());
    QCOMPARE(changed.error().code, code);
}

void QueueAttributesTest::apply_emptyRedrivePolicy_removesIt()
{
    const QueueAttributes current =
        parseQueueAttributes("q", {{"RedrivePolicy", s("{\"deadLetterTargetArn\":\"" + kDlq + "\",\"maxReceiveCount\":3}")}})
            .value();
    QVERIFY(current.redrivePolicy.has_value());
    QCOMPARE(current.redrivePolicy->maxReceiveCount, 3);
    QCOMPARE(QString::fromStdString(current.redrivePolicy->deadLetterTargetArn), kDlq);
    const Result<QueueAttributes> changed = applyQueueAttributes(current, {{"RedrivePolicy", ""}});
    QVERIFY(changed.ok());
    QVERIFY(!changed->redrivePolicy.has_value());
}

void QueueAttributesTest::checkSame_existingQueue_data()
{
    QTest::addColumn<QString>("existing");
    QTest::addColumn<QString>("requested");
    QTest::addColumn<bool>("same");

    QTest::newRow("nothing requested") << "VisibilityTimeout=60" << "" << true;
    QTest::newRow("same value") << "VisibilityTimeout=60" << "VisibilityTimeout=60" << true;
    QTest::newRow("same value, other spelling") << "VisibilityTimeout=60" << "VisibilityTimeout=060" << true;
    QTest::newRow("default requested explicitly") << "" << "DelaySeconds=0" << true;
    QTest::newRow("different value") << "VisibilityTimeout=60" << "VisibilityTimeout=30" << false;
    QTest::newRow("redrive differs") << ""
                                     << "RedrivePolicy={\"deadLetterTargetArn\":\"" + kDlq + "\",\"maxReceiveCount\":3}"
                                     << false;
}

void QueueAttributesTest::checkSame_existingQueue()
{
    QFETCH(QString, existing);
    QFETCH(QString, requested);
    QFETCH(bool, same);
    const QueueAttributes current = parseQueueAttributes("q", attributes(existing)).value();
    const Status status = checkSameQueueAttributes("q", current, attributes(requested));
    QCOMPARE(status.ok(), same);
    if (!same)
        QCOMPARE(status.error().code, BrokerErrorCode::QueueAlreadyExists);
}

void QueueAttributesTest::isQueueAttributeName_names_data()
{
    QTest::addColumn<QString>("name");
    QTest::addColumn<bool>("known");
    QTest::newRow("All") << "All" << true;
    QTest::newRow("settable") << "VisibilityTimeout" << true;
    QTest::newRow("FifoQueue") << "FifoQueue" << true;
    QTest::newRow("computed QueueArn") << "QueueArn" << true;
    QTest::newRow("computed delayed count") << "ApproximateNumberOfMessagesDelayed" << true;
    QTest::newRow("Relaydesk") << "AutoDeleteOnIdle" << true;
    QTest::newRow("unknown") << "Color" << false;
    QTest::newRow("wrong case") << "visibilitytimeout" << false;
}

void QueueAttributesTest::isQueueAttributeName_names()
{
    QFETCH(QString, name);
    QFETCH(bool, known);
    QCOMPARE(isQueueAttributeName(s(name)), known);
}

void QueueAttributesTest::timeToLiveCap_smallerOfDefaultTtlAndRetention()
{
    QueueAttributes a;
    QCOMPARE(a.timeToLiveCap(), int64_t(345'600));
    a.defaultMessageTimeToLive = 600;
    QCOMPARE(a.timeToLiveCap(), int64_t(600));
    a.defaultMessageTimeToLive = 10'000'000;
    QCOMPARE(a.timeToLiveCap(), int64_t(345'600));
}

RELAYDESK_TEST_MAIN(QueueAttributesTest)
#include "queue_attributes_test.moc"
