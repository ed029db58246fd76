// SPDX-License-Identifier: MIT
// Bulk removals through the engine on a virtual clock (docs/reliability.md
// "Bulk removals"): expiry, expiry into the dead-letter sub-queue, purge,
// deletion of a queue and of Service Bus entities, and auto-delete on idle,
// each of 3 000 and 20 000 messages. Each answers its client, leaves no row
// behind and leaves the broker answering; counts follow. Before the bound on
// the savepoint journal's memory came down below 128 KiB, these failed with
// "database or disk is full" (a unit of thousands of removals). A purge
// that a stopped broker left half done is finished when it starts again.
#include "broker/queues/message_receiver.h"
#include "broker/queues/message_sender.h"
#include "broker/queues/servicebus_queue.h"
#include "engine/broker_service.h"
#include "engine/servicebus_admin_calls.h"
#include "engine/unit_context.h"

#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <any>
#include <chrono>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

class BulkRemovalTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"bulk"};

    ServiceBench &bench() { return m_benches.bench(); }
    BrokerService &service() { return bench().service(); }

    // `count` messages into `queue` in one unit (quicker than `count` sends;
    // each is an ordinary send).
    bool fill(const std::string &queue, int count, std::optional<std::int64_t> ttl = std::nullopt)
    {
        auto filled = bench().call<std::any>([&](auto reply) {
            service().runUnit(
                [&](UnitContext &unit, const BrokerIdentity &, IdSource &ids, std::vector<std::string> &) -> Result<std::any> {
                    for (int i = 0; i < count; ++i) {
                        SendRequest request = message("message " + std::to_string(i));
                        request.timeToLiveSeconds = ttl;
                        if (auto sent = MessageSender(unit.database(), ids).send(queue, request, unit.now()); !sent)
                            return sent.error();
                    }
                    return std::any{};
                },
                false, nullptr, reply);
        });
        if (!filled)
            qWarning("fill: %s", filled.error().message.c_str());
        return filled.ok();
    }

    std::int64_t rows(const std::string &queue)
    {
        auto counted = bench().call<std::int64_t>([&](auto reply) {
            service().runUnit(
                [&](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &) -> Result<std::any> {
                    auto count = unit.database().queryInt64(
                        "SELECT count(*) FROM messages m JOIN queues q ON q.id = m.queue_id WHERE q.name = '" + queue + "'");
                    return std::any(count.ok() ? *count : std::int64_t(-1));
                },
                false, nullptr, [reply](Result<std::any> any) {
                    reply(any ? Result<std::int64_t>(std::any_cast<std::int64_t>(*any)) : Result<std::int64_t>(any.error()));
                });
        });
        return counted ? *counted : -1;
    }

    std::string attribute(const std::string &queue, const std::string &name)
    {
        auto attributes = bench().call<AttributeMap>(
            [&](auto reply) { service().getQueueAttributes(queue, {name}, nullptr, reply); });
        return attributes ? attributes->at(name) : attributes.error().message;
    }

    bool queueExists(const std::string &queue)
    {
        return bench().call<std::string>([&](auto reply) { service().getQueueUrl(queue, nullptr, reply); }).ok();
    }

    bool createServiceBusQueue(ServiceBusQueueProperties properties)
    {
        return bench().call<bool>([&](auto reply) { service().createServiceBusQueue(properties, nullptr, reply); }).ok();
    }

    static void sizes()
    {
        QTest::addColumn<int>("count");
        QTest::newRow("3 000 messages") << 3000;
        QTest::newRow("20 000 messages") << 20000;
    }

private slots:
    void initTestCase() { QVERIFY(m_benches.isValid()); }
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    void expiry_ofThousands_receiveStillAnswers_data() { sizes(); }
    void expiry_ofThousands_receiveStillAnswers()
    {
        QFETCH(int, count);
        QVERIFY(bench().createQueue("short", {{"MessageRetentionPeriod", "60"}}));
        QVERIFY(fill("short", count));
        QCOMPARE(attribute("short", "ApproximateNumberOfMessages"), std::to_string(count));
        QVERIFY(bench().engine().advanceClockAndWait(61s).ok());
        auto received = bench().receive("short");
        QVERIFY2(received.ok(), received ? "" : received.error().message.c_str());
        QVERIFY(received->messages.empty());
        QCOMPARE(rows("short"), std::int64_t(0));
        QCOMPARE(attribute("short", "ApproximateNumberOfMessages"), std::string("0"));
        QVERIFY(bench().send("short", message("after")).ok());
        received = bench().receive("short");
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(1));
        QCOMPARE(received->messages.front().body, std::string("after"));
    }

    void expiry_intoDeadLetterSubQueue_movesThemAll_data() { sizes(); }
    void expiry_intoDeadLetterSubQueue_movesThemAll()
    {
        QFETCH(int, count);
        ServiceBusQueueProperties properties;
        properties.name = "sb-short";
        properties.defaultMessageTimeToLive = 60;
        properties.deadLetteringOnMessageExpiration = true;
        QVERIFY(createServiceBusQueue(properties));
        QVERIFY(fill("sb-short", count, 60));
        QVERIFY(bench().engine().advanceClockAndWait(61s).ok());
        QVERIFY(bench().receive("sb-short").ok());
        QCOMPARE(rows("sb-short"), std::int64_t(0));
        QCOMPARE(rows("sb-short/$DeadLetterQueue"), std::int64_t(count));
    }

    void purge_ofThousands_removesAll_data() { sizes(); }
    void purge_ofThousands_removesAll()
    {
        QFETCH(int, count);
        QVERIFY(bench().createQueue("full"));
        QVERIFY(fill("full", count));
        QVERIFY(bench().callStatus([&](auto reply) { service().purgeQueue("full", nullptr, reply); }).ok());
        QCOMPARE(rows("full"), std::int64_t(0));
        QCOMPARE(attribute("full", "ApproximateNumberOfMessages"), std::string("0"));
        QVERIFY(bench().send("full", message("after the purge")).ok());
        QCOMPARE(rows("full"), std::int64_t(1));
    }

    // A broker stopped after a purge's first unit (its first chunk and the
    // purge's note committed together) finishes the purge when it starts
    // again, and a message sent after the purge began survives it. Before the
    // purge was noted in the store, the 3 000 older messages stayed.
    void purge_stoppedAfterItsFirstChunk_finishesWhenTheBrokerStarts()
    {
        QVERIFY(bench().createQueue("full"));
        QVERIFY(fill("full", 5000));
        auto begun = bench().call<std::any>([&](auto reply) {
            service().runUnit(
                [](UnitContext &unit, const BrokerIdentity &, IdSource &ids, std::vector<std::string> &) -> Result<std::any> {
                    auto progress = MessageReceiver(unit.database(), ids).purge("full", unit.now());
                    if (!progress)
                        return progress.error();
                    return std::any{};
                },
                false, nullptr, reply);
        });
        QVERIFY(begun.ok());
        QCOMPARE(rows("full"), std::int64_t(3000));
        QVERIFY(bench().send("full", message("sent while the purge ran")).ok());
        m_benches.reopen();
        QVERIFY(bench().engine().advanceClockAndWait(0s).ok()); // answers once the broker's chunks have run
        QCOMPARE(rows("full"), std::int64_t(1));
        QCOMPARE(attribute("full", "ApproximateNumberOfMessages"), std::string("1"));
        auto received = bench().receive("full");
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(1));
        QCOMPARE(received->messages.front().body, std::string("sent while the purge ran"));
    }

    void deleteQueue_ofThousands_goesWithItsMessages_data() { sizes(); }
    void deleteQueue_ofThousands_goesWithItsMessages()
    {
        QFETCH(int, count);
        QVERIFY(bench().createQueue("doomed"));
        QVERIFY(fill("doomed", count));
        QVERIFY(bench().callStatus([&](auto reply) { service().deleteQueue("doomed", nullptr, reply); }).ok());
        QVERIFY(!queueExists("doomed"));
        QVERIFY(bench().createQueue("doomed"));
        QCOMPARE(rows("doomed"), std::int64_t(0));
    }

    void deleteServiceBusQueue_ofThousands_goesWithItsMessages_data() { sizes(); }
    void deleteServiceBusQueue_ofThousands_goesWithItsMessages()
    {
        QFETCH(int, count);
        ServiceBusQueueProperties properties;
        properties.name = "sb-doomed";
        QVERIFY(createServiceBusQueue(properties));
        QVERIFY(fill("sb-doomed", count));
        QVERIFY(fill("sb-doomed/$DeadLetterQueue", count / 2));
        QVERIFY(bench().callStatus([&](auto reply) {
            servicebus_admin_calls::deleteQueue(service(), "sb-doomed", nullptr, reply);
        }).ok());
        QVERIFY(!queueExists("sb-doomed"));
        QVERIFY(!queueExists("sb-doomed/$DeadLetterQueue"));
    }

    void autoDeleteOnIdle_ofThousands_goesWithItsMessages_data() { sizes(); }
    void autoDeleteOnIdle_ofThousands_goesWithItsMessages()
    {
        QFETCH(int, count);
        QVERIFY(bench().createQueue("idle", {{"AutoDeleteOnIdle", "300"}}));
        QVERIFY(fill("idle", count));
        QVERIFY(bench().engine().advanceClockAndWait(301s).ok());
        QVERIFY(!queueExists("idle"));
        QVERIFY(bench().createQueue("idle"));
        QCOMPARE(rows("idle"), std::int64_t(0));
    }
};

RELAYDESK_TEST_MAIN(BulkRemovalTest)
#include "bulk_removal_test.moc"
