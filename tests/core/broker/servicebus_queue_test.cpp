// SPDX-License-Identifier: MIT
// Unit tests of Service Bus queues over the broker (docs/behaviour.md §8.6, §6): the
// emulator's Config.json properties (durations, ranges, what is not built),
// their mapping onto a broker queue and its dead-letter sub-queue, and the
// settlements of a locked message on the broker clock.

#include "broker/queues/servicebus_queue.h"
#include "broker/queues/message_receiver.h"
#include "broker/queues/servicebus_settlement.h"
#include "queue_test_support.h"
#include "support/test_main.h"

#include <nlohmann/json.hpp>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

using Json = nlohmann::json;
using Kind = ServiceBusSettlement::Kind;

Json queueJson(const std::string &properties)
{
    return Json{{"Name", "queue.1"}, {"Properties", Json::parse(properties)}};
}

class ServiceBusBroker final {
public:
    ServiceBusBroker(int maxDeliveryCount = 3)
    {
        ServiceBusQueueProperties properties;
        properties.name = "queue.1";
        properties.lockDuration = 30;
        properties.maxDeliveryCount = maxDeliveryCount;
        created = broker.unit([&] { return servicebus_queues::create(broker.db(), properties, broker.identity(), at(0)); });
    }
    // Receives one message of `queue` at `seconds`; its receipt handle ("" when none).
    std::string lock(double seconds, const std::string &queue = "queue.1")
    {
        ReceiveRequest request;
        request.visibilityTimeout = 30;
        Result<ReceiveResult> received = broker.receive(queue, request, at(seconds));
        return received && !received->messages.empty() ? received->messages.front().receiptHandle : std::string();
    }
    Result<ClockTime> settle(const std::string &handle, Kind kind, double seconds)
    {
        ServiceBusSettlement settlement;
        settlement.kind = kind;
        settlement.deadLetterReason = "Invalid";
        settlement.deadLetterDescription = "no amount";
        return broker.unit([&] { return settleServiceBusMessage(broker.db(), "queue.1", handle, settlement, at(seconds)); });
    }
    std::int64_t count(const std::string &where)
    {
        return *broker.db().queryInt64("SELECT count(*) FROM messages m JOIN queues q ON q.id = m.queue_id WHERE " + where);
    }

    QueueTestBroker broker;
    Result<bool> created = false;
};

} // namespace

class ServiceBusQueueTest final : public QObject {
    Q_OBJECT

private slots:
    void durations_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("seconds");   // -1: malformed
        QTest::newRow("minute") << "PT1M" << qint64(60);
        QTest::newRow("hour") << "PT1H" << qint64(3600);
        QTest::newRow("days") << "P14D" << qint64(14 * 86400);
        QTest::newRow("mixed") << "P1DT1H1M1S" << qint64(90061);
        QTest::newRow("fraction rounds up") << "PT0.5S" << qint64(1);
        QTest::newRow("TimeSpan.MaxValue") << "P10675199DT2H48M5.4775807S" << qint64(kServiceBusNever + 10086);
        QTest::newRow("no P") << "T1M" << qint64(-1);
        QTest::newRow("minutes without T") << "P1M" << qint64(-1);
        QTest::newRow("empty") << "P" << qint64(-1);
        QTest::newRow("no unit") << "PT5" << qint64(-1);
        QTest::newRow("two dots") << "PT1.2.3S" << qint64(-1);
    }
    void durations()
    {
        QFETCH(QString, text);
        QFETCH(qint64, seconds);
        const std::optional<std::int64_t> parsed = parseServiceBusDuration(text.toStdString());
        QCOMPARE(parsed.value_or(-1), seconds);
    }

    void properties_data()
    {
        QTest::addColumn<QString>("properties");
        QTest::addColumn<QString>("problem");   // empty: accepted
        QTest::newRow("emulator sample")
            << R"({"DeadLetteringOnMessageExpiration": false, "DefaultMessageTimeToLive": "PT1H",
                  "DuplicateDetectionHistoryTimeWindow": "PT20S", "ForwardDeadLetteredMessagesTo": "",
                  "ForwardTo": "", "LockDuration": "PT1M", "MaxDeliveryCount": 3,
                  "RequiresDuplicateDetection": false, "RequiresSession": false})"
            << "";
        QTest::newRow("never expires") << R"({"DefaultMessageTimeToLive": "P10675199DT2H48M5.4775807S"})" << "";
        QTest::newRow("lock too short") << R"({"LockDuration": "PT4S"})" << "LockDuration";
        QTest::newRow("lock too long") << R"({"LockDuration": "PT6M"})" << "LockDuration";
        QTest::newRow("lock not a duration") << R"({"LockDuration": 60})" << "LockDuration";
        QTest::newRow("delivery count 0") << R"({"MaxDeliveryCount": 0})" << "MaxDeliveryCount";
        QTest::newRow("delivery count text") << R"({"MaxDeliveryCount": "3"})" << "MaxDeliveryCount";
        QTest::newRow("idle under 5 min") << R"({"AutoDeleteOnIdle": "PT4M"})" << "AutoDeleteOnIdle";
        QTest::newRow("sessions") << R"({"RequiresSession": true})" << "";
        QTest::newRow("sessions not a flag") << R"({"RequiresSession": "true"})" << "RequiresSession";
        QTest::newRow("duplicates") << R"({"RequiresDuplicateDetection": true, "DuplicateDetectionHistoryTimeWindow": "P7D"})"
                                    << "";
        QTest::newRow("duplicates not a flag") << R"({"RequiresDuplicateDetection": 1})" << "RequiresDuplicateDetection";
        QTest::newRow("window 20 s") << R"({"DuplicateDetectionHistoryTimeWindow": "PT20S"})" << "";
        QTest::newRow("window under 20 s") << R"({"DuplicateDetectionHistoryTimeWindow": "PT19S"})"
                                           << "DuplicateDetectionHistoryTimeWindow";
        QTest::newRow("window over 7 days") << R"({"DuplicateDetectionHistoryTimeWindow": "P7DT1S"})"
                                            << "DuplicateDetectionHistoryTimeWindow";
        QTest::newRow("forward") << R"({"ForwardTo": "other", "ForwardDeadLetteredMessagesTo": "dead.letters"})" << "";
        QTest::newRow("forward to itself") << R"({"ForwardTo": "queue.1"})" << "ForwardTo";
        QTest::newRow("forward to no name") << R"({"ForwardDeadLetteredMessagesTo": "bad name"})"
                                            << "ForwardDeadLetteredMessagesTo";
        QTest::newRow("partitions not built") << R"({"EnablePartitioning": true})" << "EnablePartitioning";
        QTest::newRow("unknown property") << R"({"Colour": "red"})" << "Colour";
        QTest::newRow("expiry not a flag") << R"({"DeadLetteringOnMessageExpiration": "yes"})"
                                           << "DeadLetteringOnMessageExpiration";
    }
    void properties()
    {
        QFETCH(QString, properties);
        QFETCH(QString, problem);
        const Result<ServiceBusQueueProperties> parsed = parseServiceBusQueue(queueJson(properties.toStdString()));
        if (problem.isEmpty()) {
            QVERIFY2(parsed.ok(), parsed ? "" : parsed.error().message.c_str());
            QCOMPARE(parseServiceBusQueue(serviceBusQueueJson(*parsed)).value(), *parsed);   // written back the same
            return;
        }
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error().code, BrokerErrorCode::InvalidParameterValue);
        QVERIFY2(QString::fromStdString(parsed.error().message).contains(problem), parsed.error().message.c_str());
    }

    void names_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("valid");
        QTest::newRow("emulator") << "queue.1" << true;
        QTest::newRow("path") << "orders/eu-west_1" << true;
        QTest::newRow("260") << QString(260, 'a') << true;
        QTest::newRow("261") << QString(261, 'a') << false;
        QTest::newRow("empty") << "" << false;
        QTest::newRow("starts with dot") << ".q" << false;
        QTest::newRow("ends with slash") << "q/" << false;
        QTest::newRow("sub-queue suffix") << "q/$DeadLetterQueue" << false;
        QTest::newRow("space") << "my queue" << false;
    }
    void names()
    {
        QFETCH(QString, name);
        QFETCH(bool, valid);
        QCOMPARE(validateServiceBusQueueName(name.toStdString()).ok(), valid);
    }

    void mapping_lockIsVisibility_deliveriesAreRedrive()
    {
        ServiceBusQueueProperties properties;
        properties.name = "queue.1";
        properties.lockDuration = 45;
        properties.maxDeliveryCount = 7;
        properties.defaultMessageTimeToLive = 3600;
        properties.deadLetteringOnMessageExpiration = true;
        const QueueAttributes attributes = serviceBusQueueAttributes(properties, BrokerIdentity{});
        QCOMPARE(attributes.visibilityTimeout, 45);
        QCOMPARE(attributes.redrivePolicy->maxReceiveCount, 7);
        QVERIFY(attributes.redrivePolicy->deadLetterTargetArn.ends_with(":queue.1/$DeadLetterQueue"));
        QCOMPARE(attributes.defaultMessageTimeToLive, std::optional<std::int64_t>(3600));
        QVERIFY(attributes.deadLetteringOnMessageExpiration);
    }

    void create_queueAndSubQueue_findable_sameAgainKept()
    {
        ServiceBusBroker sb;
        QCOMPARE(sb.created.value(), true);
        Result<ServiceBusEntity> queue = sb.broker.unit([&] { return servicebus_queues::find(sb.broker.db(), "queue.1"); });
        QCOMPARE(queue->queueName, std::string("queue.1"));
        QVERIFY(!queue->deadLetterQueue);
        Result<ServiceBusEntity> dead =
            sb.broker.unit([&] { return servicebus_queues::find(sb.broker.db(), "queue.1/$DeadLetterQueue"); });
        QCOMPARE(dead->queueName, std::string("queue.1/$DeadLetterQueue"));
        QVERIFY(dead->deadLetterQueue);
        QCOMPARE(dead->properties.maxDeliveryCount, 3);
        Result<ServiceBusEntity> missing = sb.broker.unit([&] { return servicebus_queues::find(sb.broker.db(), "nope"); });
        QCOMPARE(missing.error().code, BrokerErrorCode::QueueDoesNotExist);

        ServiceBusQueueProperties same = queue->properties;
        const std::string before = sb.broker.snapshot();
        QCOMPARE(sb.broker.unit([&] { return servicebus_queues::create(sb.broker.db(), same, sb.broker.identity(), at(5)); })
                     .value(),
                 false);
        same.maxDeliveryCount = 4;
        QCOMPARE(sb.broker.unit([&] { return servicebus_queues::create(sb.broker.db(), same, sb.broker.identity(), at(5)); })
                     .error()
                     .code,
                 BrokerErrorCode::QueueAlreadyExists);
        QCOMPARE(sb.broker.snapshot(), before);
    }

    void sqsQueue_isNoServiceBusEntity()
    {
        QueueTestBroker broker;
        QVERIFY(broker.create("plain").ok());
        Result<ServiceBusEntity> found = broker.unit([&] { return servicebus_queues::find(broker.db(), "plain"); });
        QCOMPARE(found.error().code, BrokerErrorCode::QueueDoesNotExist);
    }

    void settle_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("left");        // where the message is afterwards
        QTest::newRow("complete") << int(Kind::Complete) << "";
        QTest::newRow("abandon") << int(Kind::Abandon) << "queue.1 queued 1";
        QTest::newRow("release") << int(Kind::Release) << "queue.1 queued 0";
        QTest::newRow("dead-letter") << int(Kind::DeadLetter) << "queue.1/$DeadLetterQueue queued 0 Invalid no amount";
        QTest::newRow("renew") << int(Kind::RenewLock) << "queue.1 inflight 1";
    }
    void settle()
    {
        QFETCH(int, kind);
        QFETCH(QString, left);
        ServiceBusBroker sb;
        QVERIFY(sb.broker.send("queue.1", "m", at(0)).ok());
        const std::string handle = sb.lock(10);
        QVERIFY(!handle.empty());
        Result<ClockTime> settled = sb.settle(handle, Kind(kind), 20);
        QVERIFY2(settled.ok(), settled ? "" : settled.error().message.c_str());
        QCOMPARE(*settled, at(Kind(kind) == Kind::RenewLock ? 50 : 20));   // a renewed lock: LockDuration from now
        const std::string row = *sb.broker.db().queryText(
            "SELECT coalesce(group_concat(q.name || ' ' || m.state || ' ' || m.receive_count || "
            "coalesce(' ' || m.dead_letter_reason || ' ' || m.dead_letter_description, '')), '') "
            "FROM messages m JOIN queues q ON q.id = m.queue_id");
        QCOMPARE(QString::fromStdString(row), left);
        QCOMPARE(sb.settle(handle, Kind::Complete, 21).ok(), Kind(kind) == Kind::RenewLock);   // the lock is used up
    }

    void lockEnded_onTheClock_lockLostChangesNothing()
    {
        ServiceBusBroker sb;
        QVERIFY(sb.broker.send("queue.1", "m", at(0)).ok());
        const std::string handle = sb.lock(10);
        const std::string before = sb.broker.snapshot();
        for (const Kind kind : {Kind::Complete, Kind::Abandon, Kind::DeadLetter, Kind::RenewLock}) {
            Result<ClockTime> late = sb.settle(handle, kind, 40);   // the lock ended at 40
            QCOMPARE(late.error().code, BrokerErrorCode::MessageNotInflight);
        }
        QCOMPARE(sb.broker.snapshot(), before);
        QCOMPARE(sb.settle("not a handle", Kind::Complete, 11).error().code, BrokerErrorCode::MessageNotInflight);
    }

    void lastAbandon_deadLettersWithMaxDeliveryCountExceeded()
    {
        ServiceBusBroker sb(2);
        QVERIFY(sb.broker.send("queue.1", "m", at(0)).ok());
        QVERIFY(sb.settle(sb.lock(1), Kind::Abandon, 2).ok());
        QCOMPARE(sb.count("q.name = 'queue.1'"), 1);
        QVERIFY(sb.settle(sb.lock(3), Kind::Abandon, 4).ok());
        QCOMPARE(sb.count("q.name = 'queue.1/$DeadLetterQueue' AND m.dead_letter_reason = 'MaxDeliveryCountExceeded'"), 1);
    }

    // A deferred message: passed over by receives, taken by its sequence
    // number only while not locked, deferred still after an abandon, and an
    // ordinary message once dead-lettered.
    void defer_keepsTheMessageForItsSequenceNumber()
    {
        ServiceBusBroker sb(5);
        QVERIFY(sb.broker.send("queue.1", "deferred", at(0)).ok());
        QVERIFY(sb.broker.send("queue.1", "other", at(0)).ok());
        const std::int64_t number = *sb.broker.db().queryInt64("SELECT id FROM messages WHERE body = 'deferred'");
        QVERIFY(sb.settle(sb.lock(1), Kind::Defer, 2).ok());
        const std::string other = sb.lock(3);
        QVERIFY(!other.empty());
        QVERIFY(sb.lock(3).empty());   // only the deferred one is left, and no receive takes it
        auto byNumber = [&](double seconds) {
            return sb.broker.unit([&] {
                return MessageReceiver(sb.broker.db(), sb.broker.ids()).receiveDeferred("queue.1", {number}, 30, at(seconds));
            });
        };
        QCOMPARE(sb.broker.unit([&] {
                         return MessageReceiver(sb.broker.db(), sb.broker.ids()).receiveDeferred("queue.1", {number + 1}, 30, at(4));
                     }).error().code,
                 BrokerErrorCode::MessageNotInflight);   // not deferred
        const auto received = byNumber(4);
        QVERIFY2(received.ok(), received ? "" : received.error().message.c_str());
        QCOMPARE(received->size(), std::size_t(1));
        QCOMPARE(received->front().body, std::string("deferred"));
        QCOMPARE(byNumber(5).error().code, BrokerErrorCode::MessageNotInflight);   // locked now
        QVERIFY(sb.settle(received->front().receiptHandle, Kind::Abandon, 6).ok());
        QVERIFY(sb.lock(7).empty());   // deferred still
        const auto again = byNumber(8);
        QVERIFY(again.ok());
        QVERIFY(sb.settle(again->front().receiptHandle, Kind::DeadLetter, 9).ok());
        QCOMPARE(sb.lock(10, "queue.1/$DeadLetterQueue").empty(), false);   // an ordinary message there
    }
};

RELAYDESK_TEST_MAIN(ServiceBusQueueTest)
#include "servicebus_queue_test.moc"
