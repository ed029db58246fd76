// SPDX-License-Identifier: MIT
// Unit tests of Service Bus sessions and duplicate detection over the broker
// (docs/behaviour.md §8.6): accepting a named or the next session, one holder
// at a time, the session's lock on the broker clock (its messages locked with
// it), renewal, release, state, the session list; the send rules of a queue
// with sessions and with duplicate detection; forwarding (ForwardTo,
// ForwardDeadLetteredMessagesTo).

#include "broker/queues/servicebus_queue.h"
#include "broker/queues/servicebus_send_rules.h"
#include "broker/queues/servicebus_session.h"
#include "broker/queues/servicebus_settlement.h"
#include "queue_test_support.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

using Outcome = servicebus_sessions::Acceptance::Outcome;

class SessionBroker final {
public:
    SessionBroker(bool sessions = true, bool duplicates = false)
    {
        properties.name = "queue.1";
        properties.lockDuration = 30;
        properties.requiresSession = sessions;
        properties.requiresDuplicateDetection = duplicates;
        properties.duplicateDetectionWindow = 60;
        created = broker.unit([&] { return servicebus_queues::create(broker.db(), properties, broker.identity(), at(0)); });
    }
    // Sends as the Service Bus endpoint does: the queue's rules, then the store.
    Result<bool> send(const std::string &body, std::optional<std::string> session, double seconds,
                      std::optional<std::string> messageId = std::nullopt)
    {
        SendRequest request;
        request.body = body;
        request.groupId = std::move(session);
        request.serviceBusMessageId = std::move(messageId);
        return broker.unit([&]() -> Result<bool> {
            Result<bool> admitted = admitServiceBusMessage(broker.db(), properties, request, at(seconds));
            if (!admitted || !*admitted)
                return admitted;
            if (auto sent = MessageSender(broker.db(), broker.ids()).send("queue.1", request, at(seconds)); !sent)
                return sent.error();
            return true;
        });
    }
    Result<servicebus_sessions::Acceptance> accept(std::optional<std::string> session, const std::string &token,
                                                   double seconds)
    {
        return broker.unit([&] { return servicebus_sessions::accept(broker.db(), "queue.1", session, token, at(seconds)); });
    }
    // Bodies one session receive of up to `max` returns ("error: …" on failure).
    QStringList receive(const ServiceBusSessionHold &hold, int max, double seconds)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = max;
        request.session = hold;
        Result<ReceiveResult> received = broker.receive("queue.1", request, at(seconds));
        if (!received)
            return {QStringLiteral("error: ") + QString::fromStdString(received.error().message)};
        QStringList bodies;
        for (const ReceivedMessage &message : received->messages) {
            bodies << QString::fromStdString(message.body);
            handles[message.body] = message.receiptHandle;
            lockedUntil[message.body] = message.lockedUntil;
        }
        return bodies;
    }
    Result<ClockTime> complete(const std::string &body, const ServiceBusSessionHold &hold, double seconds)
    {
        ServiceBusSettlement settlement;
        settlement.session = hold;
        return broker.unit(
            [&] { return settleServiceBusMessage(broker.db(), "queue.1", handles.at(body), settlement, at(seconds)); });
    }
    std::int64_t stored() { return *broker.db().queryInt64("SELECT count(*) FROM messages"); }

    QueueTestBroker broker;
    ServiceBusQueueProperties properties;
    Result<bool> created = false;
    std::map<std::string, std::string> handles;
    std::map<std::string, ClockTime> lockedUntil;
};

const ServiceBusSessionHold kA{"a", "token-1"};

} // namespace

class ServiceBusSessionTest final : public QObject {
    Q_OBJECT

private slots:
    void sendRules_data()
    {
        QTest::addColumn<bool>("sessions");
        QTest::addColumn<bool>("duplicates");
        QTest::addColumn<QString>("session");   // "-": none
        QTest::addColumn<QString>("result");    // stored, dropped, or the error's start
        QTest::newRow("session queue, session") << true << false << "a" << "stored";
        QTest::newRow("session queue, none") << true << false << "-" << "The SessionId was not set";
        QTest::newRow("session queue, empty") << true << false << "" << "The SessionId was not set";
        QTest::newRow("session queue, 129 chars") << true << false << QString(129, 's') << "The SessionId was not set";
        QTest::newRow("plain queue, session kept") << false << false << "a" << "stored";
        QTest::newRow("plain queue, none") << false << false << "-" << "stored";
        QTest::newRow("duplicate within the window") << false << true << "-" << "dropped";
    }
    void sendRules()
    {
        QFETCH(bool, sessions);
        QFETCH(bool, duplicates);
        QFETCH(QString, session);
        QFETCH(QString, result);
        SessionBroker sb(sessions, duplicates);
        const std::optional<std::string> id =
            session == "-" ? std::nullopt : std::optional<std::string>(session.toStdString());
        if (duplicates)
            QVERIFY(sb.send("first", id, 0, "m-1").value());
        Result<bool> sent = sb.send("m", id, 10, "m-1");
        const QString got = !sent ? QString::fromStdString(sent.error().message) : *sent ? "stored" : "dropped";
        QVERIFY2(got.startsWith(result), qPrintable(got));
        if (!sent)
            QCOMPARE(sent.error().code, BrokerErrorCode::InvalidParameterValue);
    }

    void duplicates_forgottenAfterTheWindow_onTheBrokerClock()
    {
        SessionBroker sb(false, true);
        QCOMPARE(sb.send("1", std::nullopt, 0, "id").value(), true);
        QCOMPARE(sb.send("2", std::nullopt, 59.9, "id").value(), false);
        QCOMPARE(sb.send("3", std::nullopt, 59.9, "other").value(), true);
        QCOMPARE(sb.send("4", std::nullopt, 60, "id").value(), true);   // the window of the first ended
        QCOMPARE(sb.send("5", std::nullopt, 61, std::nullopt).value(), true);   // no MessageId: never a duplicate
        QCOMPARE(sb.stored(), 4);
    }

    void acceptNext_oldestUnlockedSession_thenNamedHeldByAnother()
    {
        SessionBroker sb;
        QVERIFY(sb.send("b1", "b", 0).value());
        QVERIFY(sb.send("a1", "a", 1).value());
        QVERIFY(sb.send("b2", "b", 2).value());
        auto first = sb.accept(std::nullopt, "t1", 5);
        QCOMPARE(first->outcome, Outcome::Locked);
        QCOMPARE(first->sessionId, std::string("b"));
        QCOMPARE(first->lockedUntil, at(35));   // LockDuration from now
        auto second = sb.accept(std::nullopt, "t2", 5);
        QCOMPARE(second->sessionId, std::string("a"));
        QCOMPARE(sb.accept(std::nullopt, "t3", 5)->outcome, Outcome::NoneAvailable);
        QCOMPARE(sb.accept(std::string("b"), "t3", 5)->outcome, Outcome::HeldByAnother);
        QCOMPARE(sb.accept(std::string("b"), "t1", 6)->lockedUntil, at(36));   // the holder again: renewed
        auto empty = sb.accept(std::string("never-sent"), "t3", 5);   // a named session needs no messages
        QCOMPARE(empty->outcome, Outcome::Locked);
        QCOMPARE(sb.accept(std::string("b"), "t3", 36)->outcome, Outcome::Locked);   // the lock of t1 ended
    }

    void receive_inSequenceWithinTheSession_lockedWithTheSession()
    {
        SessionBroker sb;
        for (const char *message : {"a1", "b1", "a2", "b2", "a3"})
            QVERIFY(sb.send(message, std::string(1, message[0]), 0).value());
        QCOMPARE(sb.accept(std::string("a"), kA.lockToken, 1)->outcome, Outcome::Locked);
        QCOMPARE(sb.receive(kA, 2, 2), QStringList({"a1", "a2"}));
        QCOMPARE(sb.lockedUntil.at("a1"), at(31));   // the session's lock, not one of its own
        QCOMPARE(sb.receive(kA, 10, 3), QStringList({"a3"}));
        QVERIFY(sb.complete("a2", kA, 4).ok());
        QCOMPARE(sb.receive({"a", "token-2"}, 1, 4).join(""), QString("error: The session lock has expired on the "
                                                                        "session with id 'a', or another receiver holds it."));
    }

    void sessionLock_endsOnTheClock_messagesFreeWithIt_settlingIsLockLost()
    {
        SessionBroker sb;
        QVERIFY(sb.send("a1", "a", 0).value());
        QVERIFY(sb.accept(std::string("a"), kA.lockToken, 0).ok());
        QCOMPARE(sb.receive(kA, 1, 1), QStringList({"a1"}));
        const std::string before = sb.broker.snapshot();
        Result<ClockTime> late = sb.complete("a1", kA, 30);   // the lock ended at 30
        QCOMPARE(late.error().code, BrokerErrorCode::MessageNotInflight);
        QCOMPARE(sb.broker.snapshot(), before);
        auto next = sb.accept(std::nullopt, "t2", 30);
        QCOMPARE(next->sessionId, std::string("a"));
        QCOMPARE(sb.receive({"a", "t2"}, 1, 30), QStringList({"a1"}));
    }

    void renew_extendsTheSessionAndItsMessages()
    {
        SessionBroker sb;
        QVERIFY(sb.send("a1", "a", 0).value());
        QVERIFY(sb.accept(std::string("a"), kA.lockToken, 0).ok());
        QCOMPARE(sb.receive(kA, 1, 1), QStringList({"a1"}));
        Result<ClockTime> renewed = sb.broker.unit([&] { return servicebus_sessions::renew(sb.broker.db(), "queue.1", kA, at(20)); });
        QCOMPARE(renewed.value(), at(50));
        QVERIFY(sb.complete("a1", kA, 45).ok());
        Result<ClockTime> stranger =
            sb.broker.unit([&] { return servicebus_sessions::renew(sb.broker.db(), "queue.1", {"a", "t2"}, at(20)); });
        QCOMPARE(stranger.error().code, BrokerErrorCode::MessageNotInflight);
    }

    void release_makesItsMessagesAvailableAtOnce()
    {
        SessionBroker sb;
        QVERIFY(sb.send("a1", "a", 0).value());
        QVERIFY(sb.accept(std::string("a"), kA.lockToken, 0).ok());
        QCOMPARE(sb.receive(kA, 1, 1), QStringList({"a1"}));
        QVERIFY(sb.broker.unit([&] { return servicebus_sessions::release(sb.broker.db(), "queue.1", kA, at(2)); }).ok());
        QCOMPARE(sb.accept(std::nullopt, "t2", 2)->sessionId, std::string("a"));
        QCOMPARE(sb.receive({"a", "t2"}, 1, 2), QStringList({"a1"}));
        QCOMPARE(*sb.broker.db().queryInt64("SELECT receive_count FROM messages"), 2);
    }

    void state_keptWithTheSession_needsTheLock()
    {
        SessionBroker sb;
        QVERIFY(sb.accept(std::string("a"), kA.lockToken, 0).ok());
        auto read = [&](const ServiceBusSessionHold &hold, double seconds) {
            return sb.broker.unit([&] { return servicebus_sessions::state(sb.broker.db(), "queue.1", hold, at(seconds)); });
        };
        QCOMPARE(read(kA, 1).value(), std::optional<std::string>());
        const std::string bytes("step\0two", 8);
        QVERIFY(sb.broker.unit([&] { return servicebus_sessions::setState(sb.broker.db(), "queue.1", kA, bytes, at(2)); }).ok());
        QCOMPARE(read(kA, 3).value(), std::optional<std::string>(bytes));
        QCOMPARE(read({"a", "t2"}, 3).error().code, BrokerErrorCode::MessageNotInflight);
        QCOMPARE(read(kA, 30).error().code, BrokerErrorCode::MessageNotInflight);
        QCOMPARE(sb.accept(std::string("a"), "t2", 30)->outcome, Outcome::Locked);
        QCOMPARE(read({"a", "t2"}, 31).value(), std::optional<std::string>(bytes));   // the state outlives the lock
    }

    void list_sessionsWithMessagesOrState_byId_pagedAndByUpdate()
    {
        SessionBroker sb;
        QVERIFY(sb.send("c1", "c", 10).value());
        QVERIFY(sb.send("a1", "a", 20).value());
        QVERIFY(sb.accept(std::string("b"), "t", 30).ok());   // no messages, no state: not listed
        auto list = [&](double after, std::int64_t skip, std::int64_t top) {
            auto ids = sb.broker.unit(
                [&] { return servicebus_sessions::list(sb.broker.db(), "queue.1", at(after), skip, top); });
            QStringList names;
            for (const std::string &id : ids.value())
                names << QString::fromStdString(id);
            return names;
        };
        QCOMPARE(list(0, 0, 10), QStringList({"a", "c"}));
        QCOMPARE(list(0, 1, 10), QStringList({"c"}));
        QCOMPARE(list(0, 0, 1), QStringList({"a"}));
        QCOMPARE(list(15, 0, 10), QStringList({"a"}));
        QVERIFY(sb.broker.unit([&] { return servicebus_sessions::setState(sb.broker.db(), "queue.1", {"b", "t"}, "s", at(40)); }).ok());
        QCOMPARE(list(0, 0, 10), QStringList({"a", "b", "c"}));
    }

    void route_followsForwardTo_atMostFourHops()
    {
        QueueTestBroker broker;
        auto create = [&](const std::string &name, const std::string &forward) {
            ServiceBusQueueProperties properties;
            properties.name = name;
            properties.forwardTo = forward;
            return broker.unit([&] { return servicebus_queues::create(broker.db(), properties, broker.identity(), at(0)); });
        };
        for (int hop = 5; hop >= 0; --hop)   // q0 -> q1 -> … -> q5
            QVERIFY(create("q" + std::to_string(hop), hop < 5 ? "q" + std::to_string(hop + 1) : "").ok());
        QVERIFY(create("lost", "nowhere").ok());
        auto route = [&](const std::string &queue) {
            SendRequest request;
            request.body = "m";
            return broker.unit([&] { return routeServiceBusMessage(broker.db(), queue, request, at(1)); });
        };
        QCOMPARE(route("q5").value(), std::optional<std::string>("q5"));
        QCOMPARE(route("q1").value(), std::optional<std::string>("q5"));   // four forwards
        QCOMPARE(route("q0").error().code, BrokerErrorCode::InvalidParameterValue);   // five
        QCOMPARE(route("lost").error().code, BrokerErrorCode::QueueDoesNotExist);
    }

    void forwardDeadLetters_deadLettersGoToTheOtherQueue()
    {
        QueueTestBroker broker;
        ServiceBusQueueProperties target;
        target.name = "dead.letters";
        ServiceBusQueueProperties source;
        source.name = "work";
        source.maxDeliveryCount = 1;
        source.forwardDeadLetteredMessagesTo = "dead.letters";
        for (const ServiceBusQueueProperties &properties : {target, source})
            QVERIFY(broker.unit([&] { return servicebus_queues::create(broker.db(), properties, broker.identity(), at(0)); }).ok());
        Result<SendReceipt> sent = broker.send("work", "explicit", at(0));
        QVERIFY2(sent.ok(), sent ? "" : sent.error().message.c_str());
        QVERIFY(broker.send("work", "abandoned", at(0)).ok());
        QCOMPARE(broker.receiveBodies("work", 2, at(1)), QStringList({"explicit", "abandoned"}));
        ServiceBusSettlement settlement;
        for (const auto &[body, kind] : {std::pair{"explicit", ServiceBusSettlement::Kind::DeadLetter},
                                         std::pair{"abandoned", ServiceBusSettlement::Kind::Abandon}}) {
            settlement.kind = kind;
            QVERIFY(broker.unit([&] {
                return settleServiceBusMessage(broker.db(), "work", broker.handleOf(body), settlement, at(2));
            }).ok());
        }
        QCOMPARE(QString::fromStdString(*broker.db().queryText(
                     "SELECT group_concat(q.name || ' ' || m.dead_letter_reason, ', ') FROM messages m JOIN queues q "
                     "ON q.id = m.queue_id")),
                 QString("dead.letters , dead.letters MaxDeliveryCountExceeded"));
    }
};

RELAYDESK_TEST_MAIN(ServiceBusSessionTest)
#include "servicebus_session_test.moc"
