// SPDX-License-Identifier: MIT
// BrokerService message operations through the engine on a virtual clock:
// ChangeMessageVisibility (waking long polls, the 12-hour cap), browsing in
// pages, scheduled messages, and message move tasks (start, list shapes,
// chunks at the rate under the virtual clock, cancel half-way with nothing
// lost or moved twice, errors; a refused request changes nothing in the store).
#include "engine/broker_service.h"

#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <chrono>
#include <future>
#include <memory>
#include <set>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {
using Kind = EntityChange::Kind;
using Code = BrokerErrorCode;
} // namespace

Q_DECLARE_METATYPE(relaydesk::BrokerErrorCode)

class BrokerServiceMessagesTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"messages"};

    ServiceBench &bench() { return m_benches.bench(); }
    BrokerService &service() { return bench().service(); }

    Status changeVisibility(const std::string &queue, const std::string &handle, int seconds)
    {
        return bench().callStatus(
            [&](auto reply) { service().changeMessageVisibility(queue, handle, seconds, nullptr, reply); });
    }

    // A dead-letter queue "dead" holding `count` messages dead-lettered from "work".
    void prepareDeadLetters(int count)
    {
        QVERIFY(bench().createQueue("dead"));
        QVERIFY(bench().createQueue("work", {{"RedrivePolicy", redriveTo("dead", 1)}}));
        for (int i = 0; i < count; ++i)
            QVERIFY(bench().send("work", message("job " + std::to_string(i))).ok());
        auto first = bench().receive("work", 0); // received once, visible again at once
        QVERIFY(first.ok());
        QCOMPARE(first->messages.size(), std::size_t(count));
        auto second = bench().receive("work"); // the second receive moves them
        QVERIFY(second.ok());
        QVERIFY(second->messages.empty());
    }

    Result<std::string> startMove(const std::string &source, std::optional<std::string> destination = std::nullopt,
                                  std::optional<std::int64_t> perSecond = std::nullopt)
    {
        return bench().call<std::string>([&](auto reply) {
            service().startMessageMoveTask(source, destination, perSecond, nullptr, reply);
        });
    }

    Result<std::vector<MessageMoveTask>> listMoves(const std::string &source, std::optional<int> maxResults)
    {
        return bench().call<std::vector<MessageMoveTask>>(
            [&](auto reply) { service().listMessageMoveTasks(source, maxResults, nullptr, reply); });
    }

private slots:
    void initTestCase() { QVERIFY(m_benches.isValid()); }
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    void changeVisibilityToZero_wakesLongPollAtOnce()
    {
        QVERIFY(bench().createQueue("work"));
        QVERIFY(bench().send("work", message("job")).ok());
        auto leased = bench().receive("work", 600);
        QVERIFY(leased.ok());
        QCOMPARE(leased->messages.size(), std::size_t(1));

        auto polled = bench().startLongPoll("work", 20);
        QTRY_COMPARE_WITH_TIMEOUT(bench().waitingReceives(), std::size_t(1), kWaitMs);
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(changeVisibility("work", leased->messages.front().receiptHandle, 0).ok());
        QCOMPARE(polled.wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
        auto received = polled.get();
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(1));
        QCOMPARE(received->messages.front().approximateReceiveCount, 2);
        QCOMPARE(bench().engine().clock().now(), kBenchStart);
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "work")), kWaitMs);
    }

    void changeVisibilityShorter_longPollWokenAtTheNewTime()
    {
        QVERIFY(bench().createQueue("work"));
        QVERIFY(bench().send("work", message("job")).ok());
        auto leased = bench().receive("work", 600);
        QVERIFY(leased.ok());
        auto polled = bench().startLongPoll("work", 20);
        QTRY_COMPARE_WITH_TIMEOUT(bench().waitingReceives(), std::size_t(1), kWaitMs);
        QVERIFY(changeVisibility("work", leased->messages.front().receiptHandle, 5).ok());
        QVERIFY(bench().engine().advanceClockAndWait(4s).ok());
        QVERIFY(polled.wait_for(0s) != std::future_status::ready);
        QVERIFY(bench().engine().advanceClockAndWait(1s).ok());
        QCOMPARE(polled.wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
        auto received = polled.get();
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(1));
    }

    void changeVisibility_twelveHourCap_data()
    {
        QTest::addColumn<int>("receiveTimeout");
        QTest::addColumn<int>("secondsLater");
        QTest::addColumn<int>("newTimeout");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("full 12 h at once") << 30 << 0 << 43200 << true;
        QTest::newRow("over the range") << 30 << 0 << 43201 << false;
        QTest::newRow("negative") << 30 << 0 << -1 << false;
        QTest::newRow("fits after 1 h") << 7200 << 3600 << 39600 << true;
        QTest::newRow("1 s too long after 1 h") << 7200 << 3600 << 39601 << false;
        QTest::newRow("zero always fine") << 7200 << 3600 << 0 << true;
    }

    void changeVisibility_twelveHourCap()
    {
        QFETCH(int, receiveTimeout);
        QFETCH(int, secondsLater);
        QFETCH(int, newTimeout);
        QFETCH(bool, accepted);
        QVERIFY(bench().createQueue("capped"));
        QVERIFY(bench().send("capped", message("long job")).ok());
        auto leased = bench().receive("capped", receiveTimeout);
        QVERIFY(leased.ok());
        QCOMPARE(leased->messages.size(), std::size_t(1));
        QVERIFY(bench().engine().advanceClockAndWait(std::chrono::seconds(secondsLater)).ok());
        const std::string before = bench().snapshot();
        Status changed = changeVisibility("capped", leased->messages.front().receiptHandle, newTimeout);
        QCOMPARE(changed.ok(), accepted);
        if (!accepted) {
            QCOMPARE(changed.error().code, Code::InvalidParameterValue);
            QCOMPARE(bench().snapshot(), before);
        }
    }

    void changeVisibilityBatch_perEntryOutcome()
    {
        QVERIFY(bench().createQueue("batch"));
        QVERIFY(bench().send("batch", message("a")).ok());
        auto leased = bench().receive("batch", 600);
        QVERIFY(leased.ok());
        std::vector<BatchEntry<VisibilityChange>> entries{
            {"ok", {leased->messages.front().receiptHandle, 0}}, {"bad", {"garbage", 10}}};
        auto changed = bench().call<std::vector<BatchEntryResult<bool>>>(
            [&](auto reply) { service().changeMessageVisibilityBatch("batch", entries, nullptr, reply); });
        QVERIFY(changed.ok());
        QVERIFY(changed->at(0).ok());
        QVERIFY(!changed->at(1).ok());
        QCOMPARE(changed->at(1).error->code, Code::ReceiptHandleIsInvalid);
        auto again = bench().receive("batch");
        QVERIFY(again.ok());
        QCOMPARE(again->messages.size(), std::size_t(1));
    }

    void browseQueue_pagesWithoutReceiving()
    {
        QVERIFY(bench().createQueue("peek"));
        for (int i = 0; i < 3; ++i)
            QVERIFY(bench().send("peek", message("m" + std::to_string(i))).ok());
        auto first = bench().call<BrowsePage>(
            [&](auto reply) { service().browseQueue("peek", std::nullopt, 2, nullptr, reply); });
        QVERIFY(first.ok());
        QCOMPARE(first->messages.size(), std::size_t(2));
        QVERIFY(first->nextPageToken.has_value());
        auto second = bench().call<BrowsePage>(
            [&](auto reply) { service().browseQueue("peek", first->nextPageToken, 2, nullptr, reply); });
        QVERIFY(second.ok());
        QCOMPARE(second->messages.size(), std::size_t(1));
        QCOMPARE(second->messages.front().body, std::string("m2"));
        auto received = bench().receive("peek");
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(3));
        QCOMPARE(received->messages.front().approximateReceiveCount, 1);
    }

    // The window's search box: a message id, body text, or key=value on an
    // attribute narrows the browse; pages still follow one another.
    void browseQueue_search_data()
    {
        QTest::addColumn<QString>("search");
        QTest::addColumn<QStringList>("bodies");
        QTest::newRow("everything") << QString() << QStringList{"red apple", "green apple", "red pear"};
        QTest::newRow("body text") << "apple" << QStringList{"red apple", "green apple"};
        QTest::newRow("body text is case-sensitive") << "Apple" << QStringList{};
        QTest::newRow("message id") << "@id1" << QStringList{"green apple"};
        QTest::newRow("string attribute") << "colour=red" << QStringList{"red apple", "red pear"};
        QTest::newRow("number attribute") << "weight=3" << QStringList{"red pear"};
        QTest::newRow("no such attribute value") << "colour=blue" << QStringList{};
        QTest::newRow("not an attribute name: text") << "red pear=" << QStringList{};
    }
    void browseQueue_search()
    {
        QFETCH(QString, search);
        QFETCH(QStringList, bodies);
        QVERIFY(bench().createQueue("fruit"));
        std::vector<std::string> ids;
        const auto sendFruit = [&](const char *body, const char *colour, const char *weight) {
            SendRequest request = message(body);
            request.attributes["colour"] = MessageAttributeValue{"String", colour, {}};
            request.attributes["weight"] = MessageAttributeValue{"Number", weight, {}};
            auto sent = bench().send("fruit", request);
            QVERIFY(sent.ok());
            ids.push_back(sent->messageId);
        };
        sendFruit("red apple", "red", "1");
        sendFruit("green apple", "green", "2");
        sendFruit("red pear", "red", "3");
        std::string text = search.toStdString();
        if (text == "@id1")
            text = ids.at(1);
        QStringList seen;
        std::optional<std::int64_t> after;
        do {   // one message a page: the search holds across pages
            auto page = bench().call<BrowsePage>(
                [&](auto reply) { service().browseQueue("fruit", after, 1, text, nullptr, reply); });
            QVERIFY(page.ok());
            for (const BrowsedMessage &found : page->messages)
                seen << QString::fromStdString(found.body);
            after = page->nextPageToken;
        } while (after);
        QCOMPARE(seen, bodies);
    }

    // Browse reads through a read-only connection of its own: it is answered
    // while the broker thread (the writer) is busy.
    void browseQueue_answersWhileTheBrokerThreadIsBusy()
    {
        QVERIFY(bench().createQueue("busy"));
        QVERIFY(bench().send("busy", message("seen")).ok());
        auto release = std::make_shared<std::promise<void>>();
        std::shared_future<void> released = release->get_future().share();
        bench().engine().post([released] { released.wait(); });   // holds the broker thread
        std::optional<Result<BrowsePage>> page;
        QObject receiver;
        service().browseQueue("busy", std::nullopt, 10, &receiver, [&](Result<BrowsePage> result) { page = std::move(result); });
        QTRY_VERIFY(page.has_value());
        release->set_value();
        QVERIFY(page->ok());
        QCOMPARE((*page)->messages.size(), std::size_t(1));
        QCOMPARE((*page)->messages.front().body, std::string("seen"));
    }

    void scheduledMessages_listAndCancel()
    {
        QVERIFY(bench().createQueue("later"));
        SendRequest scheduled = message("tomorrow");
        scheduled.scheduledEnqueueTime = kBenchStart + 3600s;
        auto sent = bench().send("later", scheduled);
        QVERIFY(sent.ok());
        auto listed = bench().call<std::vector<ScheduledMessage>>(
            [&](auto reply) { service().listScheduledMessages("later", nullptr, reply); });
        QVERIFY(listed.ok());
        QCOMPARE(listed->size(), std::size_t(1));
        QCOMPARE(listed->front().messageId, sent->messageId);
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench().callStatus([&](auto reply) {
                           service().cancelScheduledMessage("later", sent->messageId, nullptr, reply);
                       })
                    .ok());
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "later")), kWaitMs);
        auto again = bench().callStatus(
            [&](auto reply) { service().cancelScheduledMessage("later", sent->messageId, nullptr, reply); });
        QVERIFY(!again.ok());
        QCOMPARE(again.error().code, Code::ResourceNotFound);
    }

    void receiveOverMaxReceiveCount_wakesDeadLetterLongPoll()
    {
        QVERIFY(bench().createQueue("dead"));
        QVERIFY(bench().createQueue("work", {{"RedrivePolicy", redriveTo("dead", 1)}}));
        QVERIFY(bench().send("work", message("poison")).ok());
        QVERIFY(bench().receive("work", 0).ok());
        auto polled = bench().startLongPoll("dead", 20);
        QTRY_COMPARE_WITH_TIMEOUT(bench().waitingReceives(), std::size_t(1), kWaitMs);
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        auto moving = bench().receive("work");
        QVERIFY(moving.ok());
        QVERIFY(moving->messages.empty());
        QCOMPARE(polled.wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
        auto received = polled.get();
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(1));
        QCOMPARE(received->messages.front().deadLetterReason, std::optional<std::string>("MaxReceiveCountExceeded"));
        QCOMPARE(bench().engine().clock().now(), kBenchStart);
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "dead")), kWaitMs);
        QVERIFY(allChanges(spy).contains(queueChange(Kind::CountsChanged, "work")));
    }

    void moveTask_movesBackWakesAndListsCompleted()
    {
        prepareDeadLetters(2);
        if (QTest::currentTestFailed())
            return;
        auto polled = bench().startLongPoll("work", 20);
        QTRY_COMPARE_WITH_TIMEOUT(bench().waitingReceives(), std::size_t(1), kWaitMs);
        bench().settle();
        QSignalSpy spy(&bench().engine(), &BrokerEngine::changesPublished);
        auto handle = startMove(BrokerIdentity{}.queueArn("dead"), std::nullopt, 50);
        QVERIFY(handle.ok());
        QVERIFY(!handle->empty());
        QCOMPARE(polled.wait_for(std::chrono::milliseconds(kWaitMs)), std::future_status::ready);
        auto received = polled.get();
        QVERIFY(received.ok());
        QVERIFY(!received->messages.empty());
        QCOMPARE(received->messages.front().approximateReceiveCount, 1);
        QTRY_VERIFY_WITH_TIMEOUT(allChanges(spy).contains(queueChange(Kind::CountsChanged, "dead")), kWaitMs);
        QVERIFY(allChanges(spy).contains(queueChange(Kind::CountsChanged, "work")));

        auto tasks = listMoves(BrokerIdentity{}.queueArn("dead"), std::nullopt);
        QVERIFY(tasks.ok());
        QCOMPARE(tasks->size(), std::size_t(1));
        const MessageMoveTask &task = tasks->front();
        QCOMPARE(task.status, std::string("COMPLETED"));
        QVERIFY(!task.taskHandle.has_value()); // only RUNNING tasks show it
        QCOMPARE(task.sourceArn, BrokerIdentity{}.queueArn("dead"));
        QVERIFY(!task.destinationArn.has_value());
        QCOMPARE(task.maxNumberOfMessagesPerSecond, std::optional<std::int64_t>(50));
        QCOMPARE(task.approximateNumberOfMessagesMoved, std::int64_t(2));
        QCOMPARE(task.approximateNumberOfMessagesToMove, std::int64_t(2));
        QVERIFY(!task.failureReason.has_value());
        QCOMPARE(task.startedTimestamp, kBenchStart);
    }

    // The bodies a queue holds now (browsed, so nothing is received).
    std::multiset<std::string> bodiesIn(const std::string &queue)
    {
        std::multiset<std::string> bodies;
        std::optional<std::int64_t> after;
        do {
            auto page = bench().call<BrowsePage>(
                [&](auto reply) { service().browseQueue(queue, after, 1000, nullptr, reply); });
            if (!page.ok())
                break;
            for (const BrowsedMessage &message : page->messages)
                bodies.insert(message.body);
            after = page->nextPageToken;
        } while (after);
        return bodies;
    }

    MessageMoveTask lastMove()
    {
        auto tasks = listMoves(BrokerIdentity{}.queueArn("dead"), std::nullopt);
        return tasks.ok() && !tasks->empty() ? tasks->front() : MessageMoveTask{};
    }

    // Every job is in exactly one of the two queues: nothing lost, nothing twice.
    void verifyEachJobOnce(int count)
    {
        std::multiset<std::string> all = bodiesIn("work");
        all.merge(bodiesIn("dead"));
        std::multiset<std::string> expected;
        for (int i = 0; i < count; ++i)
            expected.insert("job " + std::to_string(i));
        QCOMPARE(all, expected);
    }

    // "dead" holding `count` messages dead-lettered from "work" (any count).
    void prepareManyDeadLetters(int count)
    {
        QVERIFY(bench().createQueue("dead"));
        QVERIFY(bench().createQueue("work", {{"RedrivePolicy", redriveTo("dead", 1)}}));
        for (int i = 0; i < count; ++i)
            QVERIFY(bench().send("work", message("job " + std::to_string(i))).ok());
        for (int round = 0; round < 4 * count && bodiesIn("dead").size() < std::size_t(count); ++round)
            QVERIFY(bench().receive("work", 0).ok());   // a second receive dead-letters
        QCOMPARE(bodiesIn("dead").size(), std::size_t(count));
    }

    void moveTask_rated_movesOneChunkPerClockSecond()
    {
        prepareManyDeadLetters(25);
        if (QTest::currentTestFailed())
            return;
        auto handle = startMove(BrokerIdentity{}.queueArn("dead"), std::nullopt, 10);
        QVERIFY(handle.ok());
        // The first chunk moved with the start; the task runs on.
        MessageMoveTask task = lastMove();
        QCOMPARE(task.status, std::string("RUNNING"));
        QCOMPARE(task.taskHandle, std::optional<std::string>(*handle));
        QCOMPARE(task.approximateNumberOfMessagesMoved, std::int64_t(10));
        QCOMPARE(task.approximateNumberOfMessagesToMove, std::int64_t(25));
        QCOMPARE(bodiesIn("work").size(), std::size_t(10));
        QVERIFY(bench().engine().advanceClockAndWait(1s).ok());
        QCOMPARE(lastMove().approximateNumberOfMessagesMoved, std::int64_t(20));
        QCOMPARE(bodiesIn("dead").size(), std::size_t(5));
        QVERIFY(bench().engine().advanceClockAndWait(1s).ok());
        task = lastMove();
        QCOMPARE(task.status, std::string("COMPLETED"));
        QVERIFY(!task.taskHandle);
        QCOMPARE(task.approximateNumberOfMessagesMoved, std::int64_t(25));
        QVERIFY(bodiesIn("dead").empty());
        verifyEachJobOnce(25);
    }

    void moveTask_cancelHalfWay_keepsWhatMoved()
    {
        prepareManyDeadLetters(25);
        if (QTest::currentTestFailed())
            return;
        auto handle = startMove(BrokerIdentity{}.queueArn("dead"), std::nullopt, 10);
        QVERIFY(handle.ok());
        QVERIFY(bench().engine().advanceClockAndWait(1s).ok());
        auto moved = bench().call<std::int64_t>(
            [&](auto reply) { service().cancelMessageMoveTask(*handle, nullptr, reply); });
        QVERIFY(moved.ok());
        QCOMPARE(*moved, std::int64_t(20));
        QVERIFY(bench().engine().advanceClockAndWait(10s).ok());   // no chunk runs after the cancel
        const MessageMoveTask task = lastMove();
        QCOMPARE(task.status, std::string("CANCELLED"));
        QVERIFY(!task.taskHandle);
        QCOMPARE(task.approximateNumberOfMessagesMoved, std::int64_t(20));
        QCOMPARE(bodiesIn("work").size(), std::size_t(20));
        QCOMPARE(bodiesIn("dead").size(), std::size_t(5));
        verifyEachJobOnce(25);
        // Cancelled is ended: a second cancel is refused, a new move may start and takes the rest.
        auto again = bench().call<std::int64_t>(
            [&](auto reply) { service().cancelMessageMoveTask(*handle, nullptr, reply); });
        QCOMPARE(again.error().code, Code::ResourceNotFound);
        QVERIFY(startMove(BrokerIdentity{}.queueArn("dead")).ok());
        QCOMPARE(lastMove().status, std::string("COMPLETED"));
        QCOMPARE(lastMove().approximateNumberOfMessagesMoved, std::int64_t(5));
        verifyEachJobOnce(25);
    }

    void moveTask_brokerStoppedMidMove_goesOnWhenItStarts()
    {
        prepareManyDeadLetters(12);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(startMove(BrokerIdentity{}.queueArn("dead"), std::nullopt, 5).ok());
        QCOMPARE(lastMove().approximateNumberOfMessagesMoved, std::int64_t(5));
        m_benches.reopen(kBenchStart + 1min);
        QTRY_COMPARE_WITH_TIMEOUT(lastMove().approximateNumberOfMessagesMoved, std::int64_t(10), kWaitMs);
        QCOMPARE(lastMove().status, std::string("RUNNING"));
        QVERIFY(bench().engine().advanceClockAndWait(1s).ok());
        QCOMPARE(lastMove().status, std::string("COMPLETED"));
        verifyEachJobOnce(12);
    }

    void moveTask_secondWhileOneRuns_refused()
    {
        prepareDeadLetters(3);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(startMove(BrokerIdentity{}.queueArn("dead"), std::nullopt, 1).ok());
        auto second = startMove(BrokerIdentity{}.queueArn("dead"));
        QVERIFY(!second.ok());
        QCOMPARE(second.error().code, Code::InvalidParameterValue);
        QCOMPARE(bodiesIn("dead").size(), std::size_t(2));   // the second moved nothing
    }

    void moveTask_unrated_runsChunkAfterChunkWithoutTheClock()
    {
        // Sent straight into the dead-letter queue; moved to a chosen queue (they have no source).
        const int count = int(message_move_tasks::kUnratedChunk) + 5;
        QVERIFY(bench().createQueue("dead"));
        QVERIFY(bench().createQueue("work", {{"RedrivePolicy", redriveTo("dead", 1)}}));
        for (int first = 0; first < count; first += 10) {
            std::vector<BatchEntry<SendRequest>> entries;
            for (int i = first; i < std::min(first + 10, count); ++i)
                entries.push_back({std::to_string(i), message("job " + std::to_string(i))});
            auto sent = bench().call<std::vector<BatchEntryResult<SendReceipt>>>(
                [&](auto reply) { service().sendMessageBatch("dead", entries, nullptr, reply); });
            QVERIFY(sent.ok());
        }
        QCOMPARE(bodiesIn("dead").size(), std::size_t(count));
        QVERIFY(startMove(BrokerIdentity{}.queueArn("dead"), BrokerIdentity{}.queueArn("work")).ok());
        QTRY_COMPARE_WITH_TIMEOUT(lastMove().status, std::string("COMPLETED"), kWaitMs);
        QCOMPARE(lastMove().approximateNumberOfMessagesMoved, std::int64_t(count));
        verifyEachJobOnce(count);
    }

    void moveTask_listMostRecentFirstUpToMaxResults()
    {
        prepareDeadLetters(1);
        if (QTest::currentTestFailed())
            return;
        QVERIFY(bench().createQueue("elsewhere"));
        QVERIFY(startMove(BrokerIdentity{}.queueArn("dead")).ok());
        QVERIFY(bench().engine().advanceClockAndWait(10s).ok());
        QVERIFY(startMove(BrokerIdentity{}.queueArn("dead"), BrokerIdentity{}.queueArn("elsewhere")).ok());
        auto one = listMoves(BrokerIdentity{}.queueArn("dead"), std::nullopt);
        QVERIFY(one.ok());
        QCOMPARE(one->size(), std::size_t(1));
        QCOMPARE(one->front().destinationArn, std::optional<std::string>(BrokerIdentity{}.queueArn("elsewhere")));
        QCOMPARE(one->front().approximateNumberOfMessagesMoved, std::int64_t(0));
        QCOMPARE(one->front().startedTimestamp, kBenchStart + 10s);
        auto both = listMoves(BrokerIdentity{}.queueArn("dead"), 10);
        QVERIFY(both.ok());
        QCOMPARE(both->size(), std::size_t(2));
        QCOMPARE(both->back().startedTimestamp, kBenchStart);
    }

    void moveTask_cancelFinishedOrUnknownIsResourceNotFound()
    {
        prepareDeadLetters(1);
        if (QTest::currentTestFailed())
            return;
        auto handle = startMove(BrokerIdentity{}.queueArn("dead"));
        QVERIFY(handle.ok());
        for (const std::string &which : {*handle, std::string("no-such-task")}) {
            auto cancelled = bench().call<std::int64_t>(
                [&](auto reply) { service().cancelMessageMoveTask(which, nullptr, reply); });
            QVERIFY(!cancelled.ok());
            QCOMPARE(cancelled.error().code, Code::ResourceNotFound);
        }
    }

    void moveTask_refused_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<QString>("destination");
        QTest::addColumn<qint64>("perSecond");
        QTest::addColumn<BrokerErrorCode>("expected");
        const QString dead = QString::fromStdString(BrokerIdentity{}.queueArn("dead"));
        QTest::newRow("source not a dead-letter queue")
            << QString::fromStdString(BrokerIdentity{}.queueArn("work")) << QString() << qint64(0)
            << Code::InvalidParameterValue;
        QTest::newRow("unknown source") << QString::fromStdString(BrokerIdentity{}.queueArn("ghost")) << QString()
                                        << qint64(0) << Code::ResourceNotFound;
        QTest::newRow("malformed source") << QStringLiteral("not-an-arn") << QString() << qint64(0)
                                          << Code::ResourceNotFound;
        QTest::newRow("unknown destination") << dead << QString::fromStdString(BrokerIdentity{}.queueArn("ghost"))
                                             << qint64(0) << Code::ResourceNotFound;
        QTest::newRow("rate 0") << dead << QString() << qint64(-1) << Code::InvalidParameterValue;
        QTest::newRow("rate 501") << dead << QString() << qint64(501) << Code::InvalidParameterValue;
    }

    void moveTask_refused()
    {
        QFETCH(QString, source);
        QFETCH(QString, destination);
        QFETCH(qint64, perSecond);
        QFETCH(BrokerErrorCode, expected);
        prepareDeadLetters(1);
        if (QTest::currentTestFailed())
            return;
        const std::string before = bench().snapshot();
        auto started = startMove(source.toStdString(),
                                 destination.isEmpty() ? std::nullopt : std::optional(destination.toStdString()),
                                 perSecond == 0 ? std::nullopt : std::optional<std::int64_t>(perSecond < 0 ? 0 : perSecond));
        QVERIFY(!started.ok());
        QCOMPARE(started.error().code, expected);
        QCOMPARE(bench().snapshot(), before);
    }

    void moveTask_listMaxResultsRange_data()
    {
        QTest::addColumn<int>("maxResults");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("0") << 0 << false;
        QTest::newRow("1") << 1 << true;
        QTest::newRow("10") << 10 << true;
        QTest::newRow("11") << 11 << false;
    }

    void moveTask_listMaxResultsRange()
    {
        QFETCH(int, maxResults);
        QFETCH(bool, accepted);
        QVERIFY(bench().createQueue("dead"));
        auto tasks = listMoves(BrokerIdentity{}.queueArn("dead"), maxResults);
        QCOMPARE(tasks.ok(), accepted);
        if (!accepted)
            QCOMPARE(tasks.error().code, Code::InvalidParameterValue);
    }
};

RELAYDESK_TEST_MAIN(BrokerServiceMessagesTest)
#include "broker_service_messages_test.moc"
