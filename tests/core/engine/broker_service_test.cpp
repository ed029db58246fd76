// SPDX-License-Identifier: MIT
// Tests of BrokerService on a virtual clock: long polling woken by a send, a
// fan-out, a visibility timeout or the deadline; the lifetime timer
// dead-lettering an expired message; the change event of createQueue.
#include "engine/broker_service.h"

#include "broker/id_source.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/waiter_registry.h"
#include "support/engine_test_support.h"
#include "support/queued_call_counter.h"
#include "support/test_main.h"

#include <QCoreApplication>
#include <QSignalSpy>
#include <QTest>

#include <future>
#include <optional>
#include <string>
#include <utility>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {
ReceiveRequest waitingFor(int seconds)
{
    ReceiveRequest request;
    request.waitTimeSeconds = seconds;
    return request;
}

#define START_LONG_POLL(queue, seconds)                                                                          \
    do {                                                                                                           \
        startLongPoll(queue, seconds);                                                                             \
        if (QTest::currentTestFailed())                                                                            \
            return;                                                                                                \
    } while (false)

QList<EntityChange> changesOf(const QSignalSpy &spy, int emission) { return spy.at(emission).at(0).value<QList<EntityChange>>(); }
} // namespace

class BrokerServiceTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    ManualWallTimeSource m_wall;
    int m_databases = 0;
    std::unique_ptr<BrokerEngine> m_engine;
    std::unique_ptr<BrokerService> m_service;
    std::optional<Result<ReceiveResult>> m_received; // the pending long poll's reply

    BrokerEngine &engine() { return *m_engine; }
    BrokerService &service() { return *m_service; }

    bool createQueue(const std::string &name, AttributeMap attributes = {})
    {
        auto url = callAndWait<std::string>(
            [&](auto reply) { service().createQueue(name, attributes, {}, nullptr, reply); });
        if (!url)
            qWarning("%s", url.error().message.c_str());
        return url.ok();
    }

    Result<SendReceipt> send(const std::string &queue, SendRequest request)
    {
        return callAndWait<SendReceipt>([&](auto reply) { service().sendMessage(queue, request, nullptr, reply); });
    }

    Result<ReceiveResult> receiveNow(const std::string &queue, ReceiveRequest request = {})
    {
        return callAndWait<ReceiveResult>(
            [&](auto reply) { service().receiveMessage(queue, request, nullptr, reply); });
    }

    std::size_t waitingReceives()
    {
        std::size_t waiting = 0;
        engine().postAndWait([&] { waiting = engine().waiters().waitingCount(); });
        return waiting;
    }

    // Starts a long poll replying to this object; returns once it waits on
    // the engine (check QTest::currentTestFailed() after).
    void startLongPoll(const std::string &queue, int seconds)
    {
        m_received.reset();
        service().receiveMessage(queue, waitingFor(seconds), this,
                                 [this](Result<ReceiveResult> result) { m_received.emplace(std::move(result)); });
        QTRY_COMPARE_WITH_TIMEOUT(waitingReceives(), std::size_t(1), kWaitMs);
    }

    // True when the long poll has not replied, after a round trip through the
    // broker thread and this thread's event loop.
    bool longPollStillWaiting()
    {
        engine().postAndWait([] {});
        QCoreApplication::processEvents();
        return !m_received.has_value();
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void init()
    {
        const std::string name = "service" + std::to_string(++m_databases) + ".db";
        m_engine = std::make_unique<BrokerEngine>(openDatabase(m_dir, name.c_str()), m_wall, virtualClockOptions());
        m_service = std::make_unique<BrokerService>(*m_engine, BrokerIdentity{}, std::make_unique<SequentialIdSource>());
        m_received.reset();
    }

    void cleanup()
    {
        m_service.reset();
        m_engine.reset();
    }

    void longPoll_wokenBySendBeforeAnyClockAdvance()
    {
        QVERIFY(createQueue("orders"));
        START_LONG_POLL("orders", 20);
        QVERIFY(longPollStillWaiting());
        QVERIFY(send("orders", message("first order")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_received.has_value(), kWaitMs);
        QVERIFY(m_received->ok());
        QCOMPARE((*m_received)->messages.size(), std::size_t(1));
        QCOMPARE((*m_received)->messages.front().body, std::string("first order"));
        QCOMPARE(engine().clock().now(), kBenchStart);
    }

    // docs/architecture.md "Replies and contexts": the replies of one commit
    // reach their thread in one queued call, in the order of the units.
    void sendsOfOneCommit_repliesReachTheirThreadInOneQueuedCall()
    {
        QVERIFY(createQueue("orders"));
        std::promise<void> release;
        std::shared_future<void> held = release.get_future().share();
        engine().post([held] { held.wait(); }); // the sends below wait together: one batch, one commit
        QueuedCallCounter counter;
        QCoreApplication::instance()->installEventFilter(&counter);
        std::vector<std::pair<std::string, int>> replies; // body, the queued call it came in
        for (const char *body : {"a", "b", "c", "d"})
            service().sendMessage("orders", message(body), this, [&replies, &counter, body](Result<SendReceipt> sent) {
                if (sent)
                    replies.emplace_back(body, counter.calls);
            });
        release.set_value();
        QTRY_COMPARE_WITH_TIMEOUT(replies.size(), std::size_t(4), kWaitMs);
        QCoreApplication::instance()->removeEventFilter(&counter);
        const int call = replies.front().second;
        const std::vector<std::pair<std::string, int>> expected{{"a", call}, {"b", call}, {"c", call}, {"d", call}};
        QCOMPARE(replies, expected);
    }

    // a waiting receive whose context (the client's
    // connection) is gone is withdrawn at once (docs/behaviour.md §5.1): it
    // stops waiting before any send or clock step, and the send that would
    // have woken it stays in the queue, never received.
    void longPoll_contextGone_takesNothing()
    {
        QVERIFY(createQueue("orders"));
        auto connection = std::make_unique<QObject>();
        bool answered = false;
        service().receiveMessage("orders", waitingFor(20), connection.get(),
                                 [&answered](Result<ReceiveResult>) { answered = true; });
        QTRY_COMPARE_WITH_TIMEOUT(waitingReceives(), std::size_t(1), kWaitMs);
        connection.reset();
        QTRY_COMPARE_WITH_TIMEOUT(waitingReceives(), std::size_t(0), kWaitMs);
        QCOMPARE(engine().clock().now(), kBenchStart);
        QVERIFY(send("orders", message("kept")).ok());
        auto later = receiveNow("orders");
        QVERIFY(later.ok());
        QCOMPARE(later->messages.size(), std::size_t(1));
        QCOMPARE(later->messages.front().body, std::string("kept"));
        QCOMPARE(later->messages.front().approximateReceiveCount, 1);
        QVERIFY(!answered);
    }

    // waitingReceives: the receives waiting on one queue, as the native API
    // reports them; an unknown queue is QueueDoesNotExist.
    void waitingReceives_countsTheQueuesWaitingPolls()
    {
        QVERIFY(createQueue("orders"));
        QVERIFY(createQueue("other"));
        auto count = [this](const std::string &queue) {
            return callAndWait<std::size_t>([&](auto reply) { service().waitingReceives(queue, nullptr, reply); });
        };
        QCOMPARE(*count("orders"), std::size_t(0));
        START_LONG_POLL("orders", 20);
        QCOMPARE(*count("orders"), std::size_t(1));
        QCOMPARE(*count("other"), std::size_t(0));
        const auto missing = count("missing");
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, BrokerErrorCode::QueueDoesNotExist);
        QVERIFY(send("orders", message("wakes it")).ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_received.has_value(), kWaitMs);
        QCOMPARE(*count("orders"), std::size_t(0));
    }

    void longPoll_emptyAtDeadlineAndNotBefore()
    {
        QVERIFY(createQueue("quiet"));
        START_LONG_POLL("quiet", 5);
        QVERIFY(engine().advanceClockAndWait(4999ms).ok());
        QVERIFY(longPollStillWaiting());
        QVERIFY(engine().advanceClockAndWait(1ms).ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_received.has_value(), kWaitMs);
        QVERIFY(m_received->ok());
        QVERIFY((*m_received)->messages.empty());
        QCOMPARE(engine().clock().now(), kBenchStart + 5s);
    }

    void longPoll_wokenWhenVisibilityTimeoutEnds()
    {
        QVERIFY(createQueue("work"));
        QVERIFY(send("work", message("job")).ok());
        ReceiveRequest lease;
        lease.visibilityTimeout = 10;
        auto first = receiveNow("work", lease);
        QVERIFY(first.ok());
        QCOMPARE(first->messages.size(), std::size_t(1));

        START_LONG_POLL("work", 20);
        QVERIFY(engine().advanceClockAndWait(9s).ok());
        QVERIFY(longPollStillWaiting());
        QVERIFY(engine().advanceClockAndWait(2s).ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_received.has_value(), kWaitMs);
        QVERIFY(m_received->ok());
        QCOMPARE((*m_received)->messages.size(), std::size_t(1));
        QCOMPARE((*m_received)->messages.front().messageId, first->messages.front().messageId);
        QCOMPARE((*m_received)->messages.front().approximateReceiveCount, 2);
    }

    void expiredMessage_deadLetteredByLifetimeTimer()
    {
        QVERIFY(createQueue("dead"));
        const std::string redrive =
            "{\"deadLetterTargetArn\":\"" + BrokerIdentity{}.queueArn("dead") + "\",\"maxReceiveCount\":\"5\"}";
        QVERIFY(createQueue("source", {{"RedrivePolicy", redrive}, {"DeadLetteringOnMessageExpiration", "true"}}));
        SendRequest shortLived = message("stale soon");
        shortLived.timeToLiveSeconds = 10;
        QVERIFY(send("source", shortLived).ok());

        // Nobody touches "source": only the lifetime timer can move the message.
        START_LONG_POLL("dead", 20);
        QVERIFY(engine().advanceClockAndWait(11s).ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_received.has_value(), kWaitMs);
        QVERIFY(m_received->ok());
        QCOMPARE((*m_received)->messages.size(), std::size_t(1));
        const ReceivedMessage &moved = (*m_received)->messages.front();
        QCOMPARE(moved.body, std::string("stale soon"));
        QCOMPARE(moved.deadLetterReason, std::optional<std::string>("TTLExpiredException"));
    }

    void createQueue_oneCreatedEvent()
    {
        QSignalSpy spy(&engine(), &BrokerEngine::changesPublished);
        QVERIFY(createQueue("fresh"));
        QVERIFY(spy.wait(kWaitMs));
        QCOMPARE(spy.count(), 1);
        const EntityChange created{EntityChange::Kind::Created, EntityChange::Entity::Queue, QStringLiteral("fresh")};
        QCOMPARE(changesOf(spy, 0), QList<EntityChange>{created});
    }

    void publish_wakesLongPollOnSubscribedQueue()
    {
        QVERIFY(createQueue("inbox"));
        auto topic = callAndWait<std::string>(
            [&](auto reply) { service().createTopic("news", {}, {}, nullptr, reply); });
        QVERIFY(topic.ok());
        auto subscription = callAndWait<SubscribeReceipt>([&](auto reply) {
            service().subscribe("news", "sqs", BrokerIdentity{}.queueArn("inbox"), {{"RawMessageDelivery", "true"}},
                                false, nullptr, reply);
        });
        QVERIFY(subscription.ok());

        START_LONG_POLL("inbox", 20);
        PublishRequest publication;
        publication.message = "extra extra";
        auto published = callAndWait<PublishReceipt>(
            [&](auto reply) { service().publish("news", publication, nullptr, reply); });
        QVERIFY(published.ok());
        QTRY_VERIFY_WITH_TIMEOUT(m_received.has_value(), kWaitMs);
        QVERIFY(m_received->ok());
        QCOMPARE((*m_received)->messages.size(), std::size_t(1));
        QCOMPARE((*m_received)->messages.front().body, std::string("extra extra"));
        QCOMPARE(engine().clock().now(), kBenchStart);
    }
};

RELAYDESK_TEST_MAIN(BrokerServiceTest)
#include "broker_service_test.moc"
