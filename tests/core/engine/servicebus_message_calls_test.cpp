// SPDX-License-Identifier: MIT
// The window's Resubmit of Service Bus messages through the engine
// (servicebus_message_calls; docs/window.md "Service Bus"): a dead letter goes
// back to its entity as a copy and leaves the sub-queue in the same unit; one
// already gone is not resent; a copy the entity refuses changes nothing.
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
};

RELAYDESK_TEST_MAIN(ServiceBusMessageCallsTest)
#include "servicebus_message_calls_test.moc"
