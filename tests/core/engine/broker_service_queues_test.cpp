// SPDX-License-Identifier: MIT
// BrokerService queue operations through the engine on a virtual clock: URL,
// listing with pages, attributes and tags with their change events,
// dead-letter sources, batches waking long polls, and PurgeQueue's 60-second
// rule (a refused purge changes nothing in the store).
#include "engine/broker_service.h"

#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <chrono>
#include <future>
#include <memory>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {
using Kind = EntityChange::Kind;
} // namespace

class BrokerServiceQueuesTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"queues"};

    ServiceBench &bench() { return m_benches.bench(); }
    BrokerService &service() { return bench().service(); }

    std::int64_t visibleCount(const std::string &queue)
    {
        auto attributes = bench().call<AttributeMap>([&](auto reply) {
            service().getQueueAttributes(queue, {"ApproximateNumberOfMessages"}, nullptr, reply);
        });
        return attributes ? std::stoll(attributes->at("ApproximateNumberOfMessages")) : -1;
    }

    Status purge(const std::string &queue)
    {
        return bench().callStatus([&](auto reply) { service().purgeQueue(queue, nullptr, reply); });
    }

private slots:
    void initTestCase() { QVERIFY(m_benches.isValid()); }
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    void getQueueUrl_existingAndMissing()
    {
        QVERIFY(bench().createQueue("orders"));
        auto url = bench().call<std::string>([&](auto reply) { service().getQueueUrl("orders", nullptr, reply); });
        QVERIFY(url.ok());
        QCOMPARE(*url, BrokerIdentity{}.queueUrl("orders"));
        auto missing = bench().call<std::string>([&](auto reply) { service().getQueueUrl("nope", nullptr, reply); });
        QVERIFY(!missing.ok());
        QCOMPARE(missing.error().code, BrokerErrorCode::QueueDoesNotExist);
    }

    void listQueues_pagesWithMaxResultsOnly()
    {
        for (const char *name : {"a-one", "a-two", "a-three", "b-other"})
            QVERIFY(bench().createQueue(name));
        auto first = bench().call<QueuePage>([&](auto reply) { service().listQueues("a-", 2, "", nullptr, reply); });
        QVERIFY(first.ok());
        QCOMPARE(first->queueUrls, (std::vector<std::string>{BrokerIdentity{}.queueUrl("a-one"),
                                                               BrokerIdentity{}.queueUrl("a-three")}));
        QVERIFY(!first->nextToken.empty());
        auto second = bench().call<QueuePage>(
            [&](auto reply) { service().listQueues("a-", 2, first->nextToken, nullptr, reply); });
        QVERIFY(second.ok());
        QCOMPARE(second->queueUrls, std::vector<std::string>{BrokerIdentity{}.queueUrl("a-two")});
        QVERIFY(second->nextToken.empty());
        auto all = bench().call<QueuePage>(
            [&](auto reply) { service().listQueues("", std::nullopt, "", nullptr, reply); });
        QVERIFY(all.ok());
        QCOMPARE(all->queueUrls.size(), std::size_t(4));
        QVERIFY(all->nextToken.empty());
    }

    void setQueueAttributes_changedEventAndNewValue()
    {
        QVERIFY(bench().createQueue("tuned"));
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench().callStatus([&](auto reply) {
                           service().setQueueAttributes("tuned", {{"VisibilityTimeout", "45"}}, nullptr, reply);
                       })
                    .ok());
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::Changed, "tuned")), kWaitMs);
        auto attributes = bench().call<AttributeMap>(
            [&](auto reply) { service().getQueueAttributes("tuned", {"VisibilityTimeout"}, nullptr, reply); });
        QVERIFY(attributes.ok());
        QCOMPARE(attributes->at("VisibilityTimeout"), std::string("45"));
    }

    void getQueueAttributes_unknownNameRefused()
    {
        QVERIFY(bench().createQueue("plain"));
        auto attributes = bench().call<AttributeMap>(
            [&](auto reply) { service().getQueueAttributes("plain", {"NoSuchThing"}, nullptr, reply); });
        QVERIFY(!attributes.ok());
        QCOMPARE(attributes.error().code, BrokerErrorCode::InvalidAttributeName);
    }

    void tags_tagUntagListWithChangedEvents()
    {
        QVERIFY(bench().createQueue("tagged"));
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench().callStatus([&](auto reply) {
                           service().tagQueue("tagged", {{"team", "blue"}, {"env", "test"}}, nullptr, reply);
                       })
                    .ok());
        QVERIFY(bench().callStatus([&](auto reply) { service().untagQueue("tagged", {"env"}, nullptr, reply); }).ok());
        auto tags = bench().call<QueueTags>([&](auto reply) { service().listQueueTags("tagged", nullptr, reply); });
        QVERIFY(tags.ok());
        QCOMPARE(*tags, (QueueTags{{"team", "blue"}}));
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::Changed, "tagged")), kWaitMs);
    }

    void listDeadLetterSourceQueues_namesTheSources()
    {
        QVERIFY(bench().createQueue("dead"));
        const std::string redrive = redriveTo("dead", 3);
        QVERIFY(bench().createQueue("source-b", {{"RedrivePolicy", redrive}}));
        QVERIFY(bench().createQueue("source-a", {{"RedrivePolicy", redrive}}));
        auto sources = bench().call<std::vector<std::string>>(
            [&](auto reply) { service().listDeadLetterSourceQueues("dead", nullptr, reply); });
        QVERIFY(sources.ok());
        QCOMPARE(*sources, (std::vector<std::string>{BrokerIdentity{}.queueUrl("source-a"),
                                                      BrokerIdentity{}.queueUrl("source-b")}));
    }

    void sendMessageBatch_wakesLongPollAndReportsCounts()
    {
        QVERIFY(bench().createQueue("batched"));
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        auto polled = bench().startLongPoll("batched", 20, 10);
        QTRY_COMPARE_WITH_TIMEOUT(bench().waitingReceives(), std::size_t(1), kWaitMs);

        std::vector<BatchEntry<SendRequest>> entries{{"one", message("first")}, {"two", message("second")}};
        auto sent = bench().call<std::vector<BatchEntryResult<SendReceipt>>>(
            [&](auto reply) { service().sendMessageBatch("batched", entries, nullptr, reply); });
        QVERIFY(sent.ok());
        QCOMPARE(sent->size(), std::size_t(2));
        QVERIFY(sent->at(0).ok() && sent->at(1).ok());
        QCOMPARE(polled.wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
        auto received = polled.get();
        QVERIFY(received.ok());
        QVERIFY(!received->messages.empty());
        QCOMPARE(bench().engine().clock().now(), kBenchStart);
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "batched")), kWaitMs);
    }

    void sendMessageBatch_refusedWholeChangesNothing()
    {
        QVERIFY(bench().createQueue("strict"));
        const std::string before = bench().snapshot();
        std::vector<BatchEntry<SendRequest>> entries{{"same", message("a")}, {"same", message("b")}};
        auto sent = bench().call<std::vector<BatchEntryResult<SendReceipt>>>(
            [&](auto reply) { service().sendMessageBatch("strict", entries, nullptr, reply); });
        QVERIFY(!sent.ok());
        QCOMPARE(sent.error().code, BrokerErrorCode::BatchEntryIdsNotDistinct);
        QCOMPARE(bench().snapshot(), before);
    }

    void deleteMessageBatch_deletesAndReportsPerEntry()
    {
        QVERIFY(bench().createQueue("cleanup"));
        QVERIFY(bench().send("cleanup", message("x")).ok());
        QVERIFY(bench().send("cleanup", message("y")).ok());
        auto received = bench().receive("cleanup");
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(2));
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        std::vector<BatchEntry<std::string>> entries{{"a", received->messages[0].receiptHandle},
                                                     {"b", received->messages[1].receiptHandle},
                                                     {"c", "not-a-handle"}};
        auto deleted = bench().call<std::vector<BatchEntryResult<bool>>>(
            [&](auto reply) { service().deleteMessageBatch("cleanup", entries, nullptr, reply); });
        QVERIFY(deleted.ok());
        QVERIFY(deleted->at(0).ok() && deleted->at(1).ok());
        QVERIFY(!deleted->at(2).ok());
        QCOMPARE(deleted->at(2).error->code, BrokerErrorCode::ReceiptHandleIsInvalid);
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "cleanup")), kWaitMs);
        QVERIFY(bench().engine().advanceClockAndWait(60s).ok());
        QCOMPARE(visibleCount("cleanup"), std::int64_t(0));
    }

    void purgeQueue_secondWithinSixtySeconds_data()
    {
        QTest::addColumn<int>("secondsLater");
        QTest::addColumn<bool>("refused");
        QTest::newRow("at once") << 0 << true;
        QTest::newRow("59 s later") << 59 << true;
        QTest::newRow("60 s later") << 60 << false;
        QTest::newRow("5 min later") << 300 << false;
    }

    void purgeQueue_secondWithinSixtySeconds()
    {
        QFETCH(int, secondsLater);
        QFETCH(bool, refused);
        QVERIFY(bench().createQueue("purged"));
        QVERIFY(bench().send("purged", message("old")).ok());
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(purge("purged").ok());
        QCOMPARE(visibleCount("purged"), std::int64_t(0));
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "purged")), kWaitMs);

        QVERIFY(bench().engine().advanceClockAndWait(std::chrono::seconds(secondsLater)).ok());
        QVERIFY(bench().send("purged", message("new")).ok());
        const std::string before = bench().snapshot();
        Status second = purge("purged");
        QCOMPARE(!second.ok(), refused);
        if (refused) {
            QCOMPARE(second.error().code, BrokerErrorCode::PurgeQueueInProgress);
            QCOMPARE(bench().snapshot(), before); // the new message is still there
            QCOMPARE(visibleCount("purged"), std::int64_t(1));
        } else {
            QCOMPARE(visibleCount("purged"), std::int64_t(0));
        }
    }

    void purgeQueue_recreatedQueueMayPurgeAtOnce()
    {
        QVERIFY(bench().createQueue("again"));
        QVERIFY(purge("again").ok());
        QVERIFY(bench().callStatus([&](auto reply) { service().deleteQueue("again", nullptr, reply); }).ok());
        QVERIFY(bench().engine().advanceClockAndWait(1s).ok());
        QVERIFY(bench().createQueue("again"));
        QVERIFY(purge("again").ok());
    }

    // docs/behaviour.md §6: a queue with AutoDeleteOnIdle is deleted that long
    // after its last use — a send, a receive or an attribute change — by the
    // broker's lifetime timer on the virtual clock.
    void autoDeleteOnIdle_useRestartsTheIdleTime_data()
    {
        QTest::addColumn<QString>("use");        // at 200 s, of a queue idle after 300 s
        QTest::addColumn<int>("deletedAt");      // seconds
        QTest::newRow("unused: deleted at 300 s") << "" << 300;
        QTest::newRow("a send at 200 s: deleted at 500 s") << "send" << 500;
        QTest::newRow("a receive at 200 s: deleted at 500 s") << "receive" << 500;
        QTest::newRow("an attribute change at 200 s: deleted at 500 s") << "attribute" << 500;
        QTest::newRow("a tag is no use: deleted at 300 s") << "tag" << 300;
    }
    void autoDeleteOnIdle_useRestartsTheIdleTime()
    {
        QFETCH(QString, use);
        QFETCH(int, deletedAt);
        QVERIFY(bench().createQueue("idle", {{"AutoDeleteOnIdle", "300"}}));
        auto exists = [&] {
            return bench().call<std::string>([&](auto reply) { service().getQueueUrl("idle", nullptr, reply); }).ok();
        };
        QVERIFY(bench().engine().advanceClockAndWait(200s).ok());
        if (use == QLatin1String("send")) {
            QVERIFY(bench().send("idle", message("m")).ok());
        } else if (use == QLatin1String("receive")) {
            QVERIFY(bench().receive("idle").ok());
        } else if (use == QLatin1String("attribute")) {
            QVERIFY(bench().callStatus([&](auto reply) {
                service().setQueueAttributes("idle", {{"VisibilityTimeout", "45"}}, nullptr, reply);
            }).ok());
        } else if (use == QLatin1String("tag")) {
            QVERIFY(bench().callStatus([&](auto reply) { service().tagQueue("idle", {{"team", "a"}}, nullptr, reply); })
                        .ok());
        }
        QVERIFY(bench().engine().advanceClockAndWait(std::chrono::milliseconds(deletedAt * 1000 - 200'000 - 1)).ok());
        QVERIFY2(exists(), "deleted before its idle time ran out");
        QVERIFY(bench().engine().advanceClockAndWait(1ms).ok());
        QVERIFY2(!exists(), "still there after its idle time");
    }

    void purgeQueue_leavesLongPollWaitingForNewMessages()
    {
        QVERIFY(bench().createQueue("drained"));
        auto polled = bench().startLongPoll("drained", 20);
        QTRY_COMPARE_WITH_TIMEOUT(bench().waitingReceives(), std::size_t(1), kWaitMs);
        QVERIFY(purge("drained").ok());
        // A retry the purge's wake-up started is queued before this unit, and
        // its reply (null context: on the broker thread) comes before this one's.
        QVERIFY(bench().engine().executeAndWait([](Database &, ClockTime) { return Result<int>(0); }).ok());
        QCOMPARE(bench().waitingReceives(), std::size_t(1));
        QVERIFY(polled.wait_for(0s) != std::future_status::ready);
        QVERIFY(bench().send("drained", message("after purge")).ok());
        QCOMPARE(polled.wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
        auto received = polled.get();
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(1));
        QCOMPARE(received->messages.front().body, std::string("after purge"));
    }
};

RELAYDESK_TEST_MAIN(BrokerServiceQueuesTest)
#include "broker_service_queues_test.moc"
