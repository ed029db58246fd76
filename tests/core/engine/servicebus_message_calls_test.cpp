// SPDX-License-Identifier: MIT
// The window's Resubmit of Service Bus messages through the engine
// (servicebus_message_calls; docs/window.md "Service Bus"): a dead letter goes
// back to its entity as a copy and leaves the sub-queue in the same unit; one
// already gone is not resent; a copy the entity refuses changes nothing.
// The window's session receive (acceptSession/releaseSession): the next
// available session or a named one is locked for a new token, its messages
// received and settled under it, and let go.
#include "broker/queues/servicebus_queue.h"
#include "engine/servicebus_message_calls.h"

#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace calls = relaydesk::servicebus_message_calls;

class ServiceBusMessageCallsTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"sbcalls"};
    ServiceBench &bench() { return m_benches.bench(); }
    BrokerService &service() { return bench().service(); }

    static constexpr const char *kDeadLetters = "orders/$DeadLetterQueue";

    // "orders" with one message dead-lettered by its receiver; returns the dead letter's broker id.
    std::string deadLetterOne()
    {
        ServiceBusQueueProperties properties;
        properties.name = "orders";
        if (!bench().call<bool>([&](auto reply) { service().createServiceBusQueue(properties, nullptr, reply); }))
            return {};
        if (!bench().callStatus([&](auto reply) { service().sendServiceBusMessages("orders", {message("hello")}, nullptr, reply); }))
            return {};
        Result<ReceiveResult> received = bench().receive("orders");
        if (!received || received->messages.size() != 1)
            return {};
        ServiceBusSettlement dead{ServiceBusSettlement::Kind::DeadLetter, "Bad", "not an order", {}};
        if (!bench().call<ClockTime>([&](auto reply) {
                service().settleServiceBusMessage("orders", received->messages[0].receiptHandle, dead, nullptr, reply);
            }))
            return {};
        const std::vector<BrowsedMessage> dlq = browse(kDeadLetters);
        return dlq.size() == 1 ? dlq[0].messageId : std::string();
    }

    std::vector<BrowsedMessage> browse(const std::string &queue)
    {
        auto page = bench().call<BrowsePage>([&](auto reply) { service().browseQueue(queue, BrowseRequest{}, nullptr, reply); });
        return page ? page->messages : std::vector<BrowsedMessage>{};
    }

    Result<calls::Resubmitted> resubmit(const std::string &from, std::vector<calls::Resubmission> messages)
    {
        return bench().call<calls::Resubmitted>([&](auto reply) {
            calls::resubmit(service(), from, "orders", messages, nullptr, reply);
        });
    }

    // "carts", RequiresSession, with `bodies` sent in session `session`.
    bool sessionQueueWith(const std::string &session, const std::vector<std::string> &bodies)
    {
        ServiceBusQueueProperties properties;
        properties.name = "carts";
        properties.requiresSession = true;
        if (!bench().call<bool>([&](auto reply) { service().createServiceBusQueue(properties, nullptr, reply); }))
            return false;
        std::vector<SendRequest> messages;
        for (const std::string &body : bodies) {
            messages.push_back(message(body));
            messages.back().groupId = session;
        }
        return bench().callStatus([&](auto reply) { service().sendServiceBusMessages("carts", messages, nullptr, reply); }).ok();
    }

    Result<calls::SessionLock> accept(const std::string &queue, std::optional<std::string> session = std::nullopt)
    {
        return bench().call<calls::SessionLock>([&](auto reply) { calls::acceptSession(service(), queue, session, nullptr, reply); });
    }

    Result<ReceiveResult> receiveIn(const ServiceBusSessionHold &hold)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = 10;
        request.session = hold;
        return bench().call<ReceiveResult>([&](auto reply) { service().receiveMessage("carts", request, nullptr, reply); });
    }

private slots:
    void initTestCase() { QVERIFY(m_benches.isValid()); }
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    void resubmit_deadLetter_copyInEntity_deadLetterGone()
    {
        const std::string id = deadLetterOne();
        QVERIFY(!id.empty());
        const BrowsedMessage dead = browse(kDeadLetters).at(0);
        Result<calls::Resubmitted> done = resubmit(kDeadLetters, {{id, message(dead.body)}});
        QVERIFY2(done.ok(), done ? "" : done.error().message.c_str());
        QCOMPARE(done->sent, 1);
        QCOMPARE(done->gone, 0);
        QVERIFY(browse(kDeadLetters).empty());
        const std::vector<BrowsedMessage> active = browse("orders");
        QCOMPARE(active.size(), std::size_t(1));
        QCOMPARE(active[0].body, std::string("hello"));
        QCOMPARE(active[0].receiveCount, 0);
        QVERIFY(!active[0].deadLetterReason);
    }

    void resubmit_deadLetterAlreadyGone_sendsNothing()
    {
        const std::string id = deadLetterOne();
        QVERIFY(!id.empty());
        QVERIFY(resubmit(kDeadLetters, {{id, message("hello")}}).ok());
        Result<calls::Resubmitted> again = resubmit(kDeadLetters, {{id, message("hello")}});
        QVERIFY(again.ok());
        QCOMPARE(again->sent, 0);
        QCOMPARE(again->gone, 1);
        QCOMPARE(browse("orders").size(), std::size_t(1));
    }

    void resubmit_activeMessage_sendsCopy_keepsOriginal()
    {
        const std::string id = deadLetterOne();
        QVERIFY(!id.empty());
        QVERIFY(resubmit(kDeadLetters, {{id, message("hello")}}).ok());
        const BrowsedMessage original = browse("orders").at(0);
        Result<calls::Resubmitted> done = resubmit("orders", {{original.messageId, message(original.body)}});
        QVERIFY(done.ok());
        QCOMPARE(done->sent, 1);
        QCOMPARE(browse("orders").size(), std::size_t(2));
    }

    void resubmit_refusedCopy_changesNothing()
    {
        const std::string id = deadLetterOne();
        QVERIFY(!id.empty());
        // A copy to a queue that is not there is refused; the dead letter stays.
        Result<calls::Resubmitted> done = bench().call<calls::Resubmitted>([&](auto reply) {
            calls::resubmit(service(), kDeadLetters, "nowhere", {{id, message("hello")}}, nullptr, reply);
        });
        QVERIFY(!done.ok());
        QCOMPARE(browse(kDeadLetters).size(), std::size_t(1));
    }

    void acceptSession_next_receivesAndSettlesInIt_releaseLetsGo()
    {
        QVERIFY(sessionQueueWith("cart-1", {"a", "b"}));
        Result<calls::SessionLock> lock = accept("carts");
        QVERIFY2(lock.ok(), lock ? "" : lock.error().message.c_str());
        QCOMPARE(lock->acceptance.outcome, servicebus_sessions::Acceptance::Outcome::Locked);
        QCOMPARE(lock->hold.sessionId, std::string("cart-1"));
        QVERIFY(!lock->hold.lockToken.empty());
        Result<ReceiveResult> received = receiveIn(lock->hold);
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(2));
        QCOMPARE(received->messages[0].body, std::string("a"));
        ServiceBusSettlement complete{ServiceBusSettlement::Kind::Complete, {}, {}, lock->hold};
        QVERIFY(bench().call<ClockTime>([&](auto reply) {
            service().settleServiceBusMessage("carts", received->messages[0].receiptHandle, complete, nullptr, reply);
        }).ok());
        // Another receiver finds no session to take while this one holds it.
        QCOMPARE(accept("carts")->acceptance.outcome, servicebus_sessions::Acceptance::Outcome::NoneAvailable);
        QCOMPARE(accept("carts", "cart-1")->acceptance.outcome, servicebus_sessions::Acceptance::Outcome::HeldByAnother);
        QVERIFY(bench().callStatus([&](auto reply) { calls::releaseSession(service(), "carts", lock->hold, nullptr, reply); }).ok());
        // Released: "b" is available again at once, to the next holder; the old token settles nothing.
        QVERIFY(!receiveIn(lock->hold).ok());
        Result<calls::SessionLock> next = accept("carts", "cart-1");
        QCOMPARE(next->acceptance.outcome, servicebus_sessions::Acceptance::Outcome::Locked);
        QVERIFY(next->hold.lockToken != lock->hold.lockToken);
        Result<ReceiveResult> again = receiveIn(next->hold);
        QCOMPARE(again->messages.size(), std::size_t(1));
        QCOMPARE(again->messages[0].body, std::string("b"));
    }

    void acceptSession_named_withoutMessages_isLocked()
    {
        QVERIFY(sessionQueueWith("cart-1", {"a"}));
        Result<calls::SessionLock> lock = accept("carts", "cart-9");
        QVERIFY(lock.ok());
        QCOMPARE(lock->acceptance.outcome, servicebus_sessions::Acceptance::Outcome::Locked);
        QCOMPARE(lock->hold.sessionId, std::string("cart-9"));
        QVERIFY(receiveIn(lock->hold)->messages.empty());
    }

    void acceptSession_entityWithoutSessions_isRefused()
    {
        QVERIFY(!deadLetterOne().empty()); // "orders": no sessions
        Result<calls::SessionLock> lock = accept("orders");
        QVERIFY(!lock.ok());
        QCOMPARE(lock.error().code, BrokerErrorCode::InvalidParameterValue);
        QVERIFY(!accept(kDeadLetters).ok());
        QVERIFY(sessionQueueWith("cart-1", {"a"}));
        QCOMPARE(accept("carts", std::string(129, 'x')).error().code, BrokerErrorCode::InvalidParameterValue);
        QCOMPARE(accept("nowhere").error().code, BrokerErrorCode::QueueDoesNotExist);
    }
};

RELAYDESK_TEST_MAIN(ServiceBusMessageCallsTest)
#include "servicebus_message_calls_test.moc"
