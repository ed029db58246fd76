// SPDX-License-Identifier: MIT
// The window's actions on chosen messages, on a real database: redrive of
// chosen dead letters by MessageId (only those, back to their source; the
// rest counted and left) and delete by MessageId in any state (an unknown id
// is not counted; the consumer's later delete of a removed message succeeds).
#include "broker/queues/dead_letter_queue.h"
#include "broker/queues/message_removal.h"
#include "queue_test_support.h"
#include "support/test_main.h"

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

AttributeMap redrive(const std::string &target, int maxReceiveCount)
{
    return {{"RedrivePolicy", R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:)" + target
                                  + R"(","maxReceiveCount":)" + std::to_string(maxReceiveCount) + "}"}};
}

} // namespace

class MessageAdminTest final : public QObject {
    Q_OBJECT

private slots:
    void redriveById_movesOnlyTheChosen_andCountsTheRest()
    {
        QueueTestBroker broker;
        QVERIFY(broker.create("dlq").ok());
        QVERIFY(broker.create("q", redrive("dlq", 1)).ok());
        QVERIFY(broker.create("gone", redrive("dlq", 1)).ok());
        std::map<std::string, std::string> ids;
        for (const char *body : {"a", "b", "c"})
            ids[body] = broker.send("q", body, at(0))->messageId;
        ids["orphan"] = broker.send("gone", "orphan", at(0))->messageId;
        for (const char *queue : {"q", "gone"}) {
            QVERIFY(!broker.receiveBodies(queue, 10, at(0), 0).isEmpty());
            QCOMPARE(broker.receiveBodies(queue, 10, at(1)), QStringList{});   // dead-lettered
        }
        QVERIFY(broker.unit([&] { return QueueCatalog(broker.db(), broker.identity()).deleteQueue("gone"); }).ok());

        Result<DeadLetterRedrive> moved = broker.unit([&] {
            return moveDeadLettersBackById(broker.db(), "dlq", {ids["b"], ids["orphan"], "not-there"}, at(2));
        });
        QVERIFY(moved.ok());
        QCOMPARE(moved->moved, 1);
        QCOMPARE(moved->failed, 2);
        QCOMPARE(moved->destinations, std::vector<std::string>{"q"});
        Result<ReceiveResult> back = broker.receive("q", {}, at(3));
        QCOMPARE(back->messages.size(), std::size_t(1));
        QCOMPARE(back->messages[0].messageId, ids["b"]);
        QCOMPARE(back->messages[0].approximateReceiveCount, 1);
        QVERIFY(!back->messages[0].deadLetterReason);
        QCOMPARE(broker.receiveBodies("dlq", 10, at(3)).size(), 3);   // a, c and the orphan stay
    }

    void redriveById_unknownQueue_changesNothing()
    {
        QueueTestBroker broker;
        QCOMPARE(moveDeadLettersBackById(broker.db(), "nope", {"x"}, at(0)).error().code,
                 BrokerErrorCode::QueueDoesNotExist);
    }

    void deleteById_anyState_countsWhatWent()
    {
        QueueTestBroker broker;
        QVERIFY(broker.create("q").ok());
        const std::string locked = broker.send("q", "locked", at(0))->messageId;
        SendRequest later;
        later.body = "delayed";
        later.delaySeconds = 60;
        const std::string delayed = broker.send("q", later, at(0))->messageId;
        QVERIFY(broker.send("q", "stays", at(0)).ok());
        QCOMPARE(broker.receiveBodies("q", 1, at(0), 300), QStringList{"locked"});

        Result<std::int64_t> removed =
            broker.unit([&] { return deleteMessagesById(broker.db(), "q", {locked, delayed, "not-there"}); });
        QVERIFY(removed.ok());
        QCOMPARE(*removed, std::int64_t(2));
        QCOMPARE(broker.receiveBodies("q", 10, at(120)), QStringList{"stays"});
        // The consumer that held the lock deletes it as a message already deleted.
        QVERIFY(broker.remove("q", broker.handleOf("locked"), at(121)).ok());
    }

    void deleteById_unknownQueue()
    {
        QueueTestBroker broker;
        QCOMPARE(deleteMessagesById(broker.db(), "nope", {"x"}).error().code, BrokerErrorCode::QueueDoesNotExist);
    }
};

RELAYDESK_TEST_MAIN(MessageAdminTest)
#include "message_admin_test.moc"
