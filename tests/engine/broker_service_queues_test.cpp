// SPDX-License-Identifier: MIT
// BrokerService queue operations through the engine on a virtual clock: URL,
// listing with pages, attributes and tags with their change events,
// dead-letter sources, batches waking long polls, and PurgeQueue's 60-second
// rule (a refused purge changes nothing in the store).
#include "engine/broker_service.h"

#include "engine_test_support.h"

#include <QTest>

#include <chrono>
#include <future>
#include <memory>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {
const ClockTime kStart = fromEpochMilliseconds(1'800'000'000'000);
constexpr int kWaitMs = 30000; // upper bound for things that must come; never a pass/fail timing
using Kind = EntityChange::Kind;

SendRequest message(std::string body)
{
    SendRequest request;
    request.body = std::move(body);
    return request;
}
} // namespace

class BrokerServiceQueuesTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_files = 0;
    std::unique_ptr<ServiceBench> m_bench;

    ServiceBench &bench() { return *m_bench; }
    BrokerService &service() { return m_bench->service(); }

    bool createQueue(const std::string &name, AttributeMap attributes = {})
    {
        auto url = bench().call<std::string>(
            [&](auto reply) { service().createQueue(name, attributes, {}, nullptr, reply); });
        return url.ok();
    }

    Result<SendReceipt> send(const std::string &queue, const std::string &body)
    {
        return bench().call<SendReceipt>(
            [&](auto reply) { service().sendMessage(queue, message(body), nullptr, reply); });
    }

    Result<ReceiveResult> receive(const std::string &queue, int maxMessages = 10)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = maxMessages;
        return bench().call<ReceiveResult>([&](auto reply) { service().receiveMessage(queue, request, nullptr, reply); });
    }

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
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void init()
    {
        const std::string file = "queues" + std::to_string(++m_files) + ".db";
        m_bench = std::make_unique<ServiceBench>(m_dir, file.c_str(), kStart);
    }

    void cleanup() { m_bench.reset(); }

    void getQueueUrl_existingAndMissing()
    {
        QVERIFY(createQueue("orders"));
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
            QVERIFY(createQueue(name));
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
        QVERIFY(createQueue("tuned"));
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
        QVERIFY(createQueue("plain"));
        auto attributes = bench().call<AttributeMap>(
            [&](auto reply) { service().getQueueAttributes("plain", {"NoSuchThing"}, nullptr, reply); });
        QVERIFY(!attributes.ok());
        QCOMPARE(attributes.error().code, BrokerErrorCode::InvalidAttributeName);
    }

    void tags_tagUntagListWithChangedEvents()
    {
        QVERIFY(createQueue("tagged"));
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
        QVERIFY(createQueue("dead"));
        const std::string redrive =
            "{\"deadLetterTargetArn\":\"" + BrokerIdentity{}.queueArn("dead") + "\",\"maxReceiveCount\":\"3\"}";
        QVERIFY(createQueue("source-b", {{"RedrivePolicy", redrive}}));
        QVERIFY(createQueue("source-a", {{"RedrivePolicy", redrive}}));
        auto sources = bench().call<std::vector<std::string>>(
            [&](auto reply) { service().listDeadLetterSourceQueues("dead", nullptr, reply); });
        QVERIFY(sources.ok());
        QCOMPARE(*sources, (std::vector<std::string>{BrokerIdentity{}.queueUrl("source-a"),
                                                      BrokerIdentity{}.queueUrl("source-b")}));
    }

    void sendMessageBatch_wakesLongPollAndReportsCounts()
    {
        QVERIFY(createQueue("batched"));
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        auto promise = std::make_shared<std::promise<Result<ReceiveResult>>>();
        auto polled = promise->get_future();
        ReceiveRequest waiting;
        waiting.waitTimeSeconds = 20;
        waiting.maxNumberOfMessages = 10;
        service().receiveMessage("batched", waiting, nullptr,
                                 [promise](Result<ReceiveResult> result) { promise->set_value(std::move(result)); });
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
        QCOMPARE(bench().engine().clock().now(), kStart);
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "batched")), kWaitMs);
    }

    void sendMessageBatch_refusedWholeChangesNothing()
    {
        QVERIFY(createQueue("strict"));
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
        QVERIFY(createQueue("cleanup"));
        QVERIFY(send("cleanup", "x").ok());
        QVERIFY(send("cleanup", "y").ok());
        auto received = receive("cleanup");
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
        QVERIFY(createQueue("purged"));
        QVERIFY(send("purged", "old").ok());
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(purge("purged").ok());
        QCOMPARE(visibleCount("purged"), std::int64_t(0));
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "purged")), kWaitMs);

        QVERIFY(bench().engine().advanceClockAndWait(std::chrono::seconds(secondsLater)).ok());
        QVERIFY(send("purged", "new").ok());
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
        QVERIFY(createQueue("again"));
        QVERIFY(purge("again").ok());
        QVERIFY(bench().callStatus([&](auto reply) { service().deleteQueue("again", nullptr, reply); }).ok());
        QVERIFY(bench().engine().advanceClockAndWait(1s).ok());
        QVERIFY(createQueue("again"));
        QVERIFY(purge("again").ok());
    }

    void purgeQueue_leavesLongPollWaitingForNewMessages()
    {
        QVERIFY(createQueue("drained"));
        auto promise = std::make_shared<std::promise<Result<ReceiveResult>>>();
        auto polled = promise->get_future();
        ReceiveRequest waiting;
        waiting.waitTimeSeconds = 20;
        service().receiveMessage("drained", waiting, nullptr,
                                 [promise](Result<ReceiveResult> result) { promise->set_value(std::move(result)); });
        QTRY_COMPARE_WITH_TIMEOUT(bench().waitingReceives(), std::size_t(1), kWaitMs);
        QVERIFY(purge("drained").ok());
        QCOMPARE(bench().waitingReceives(), std::size_t(1));
        QVERIFY(polled.wait_for(0s) != std::future_status::ready);
        QVERIFY(send("drained", "after purge").ok());
        QCOMPARE(polled.wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
        auto received = polled.get();
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(1));
        QCOMPARE(received->messages.front().body, std::string("after purge"));
    }
};

QTEST_GUILESS_MAIN(BrokerServiceQueuesTest)
#include "broker_service_queues_test.moc"
