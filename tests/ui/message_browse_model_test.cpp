// SPDX-License-Identifier: MIT
// MessageBrowseModel against a real engine on a real database file and a
// virtual clock: lazy pages, every state with its countdown, live updates in
// place (rowsInserted / dataChanged / rowsRemoved, never a reset), search
// with a bounded scan per page, sorting the whole queue by Sent.
#include "models/message_browse_model.h"

#include "message_test_broker.h"
#include "support/test_main.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

QString cell(const MessageBrowseModel &model, int row, int column)
{
    return model.index(row, column).data().toString();
}

// The row whose body is `body`, or -1.
int rowOfBody(const MessageBrowseModel &model, const std::string &body)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.messageAt(row)->body == body)
            return row;
    return -1;
}

SendRequest bodyOnly(const std::string &body)
{
    SendRequest request;
    request.body = body;
    return request;
}

} // namespace

class MessageBrowseModelTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_files = 0;
    std::string nextFile() { return "model" + std::to_string(++m_files) + ".db"; }

    // Waits until the model's first page (or re-read) came back.
    static void waitLoaded(MessageBrowseModel &model)
    {
        QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kWaitMs);
    }

private slots:
    void pages_fetchLazily()
    {
        const std::string file = nextFile();
        MessageTestBroker broker(m_dir, file.c_str());
        QVERIFY(broker.createQueue("big"));
        std::vector<BatchEntry<SendRequest>> batch;
        for (int i = 0; i < 450; ++i) {
            batch.push_back({std::to_string(i % 10), bodyOnly("m" + std::to_string(i))});
            if (batch.size() == 10) {
                QVERIFY(callAndWait<std::vector<BatchEntryResult<SendReceipt>>>([&](auto reply) {
                            broker.service().sendMessageBatch("big", batch, nullptr, reply);
                        }).ok());
                batch.clear();
            }
        }
        MessageBrowseModel model(broker.service(), broker.engine(), QStringLiteral("big"));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        if (model.rowCount() == 0 && !model.isLoading()) {   // the tester may have fetched already
            QVERIFY(model.canFetchMore({}));
            model.fetchMore({});
        }
        waitLoaded(model);
        QCOMPARE(model.rowCount(), MessageBrowseModel::kPageSize);
        QCOMPARE(cell(model, 0, MessageBrowseModel::BodyColumn), QStringLiteral("m0"));
        QVERIFY(model.canFetchMore({}));
        model.fetchMore({});
        waitLoaded(model);
        model.fetchMore({});
        waitLoaded(model);
        QCOMPARE(model.rowCount(), 450);
        QVERIFY(!model.canFetchMore({}));
        QVERIFY(model.atEnd());
        QCOMPARE(inserted.count(), 3);   // one insert per page, never a reset
        QCOMPARE(cell(model, 449, MessageBrowseModel::BodyColumn), QStringLiteral("m449"));
        // Browsing received nothing.
        QCOMPARE(model.messageAt(0)->receiveCount, 0);
        QCOMPARE(model.messageAt(0)->state, MessageState::Available);
    }

    // Available, in flight, delayed and scheduled in one queue; dead-lettered
    // for both reasons in its dead-letter queue; each with its countdown.
    void everyState_withItsCountdown()
    {
        const std::string file = nextFile();
        MessageTestBroker broker(m_dir, file.c_str());
        QVERIFY(broker.createQueue("dead"));
        QVERIFY(broker.createQueue("work", {{"RedrivePolicy", redriveTo("dead", 5)},
                                            {"DeadLetteringOnMessageExpiration", "true"}}));
        QVERIFY(broker.createQueue("poison", {{"RedrivePolicy", redriveTo("dead", 1)}}));
        QVERIFY(broker.send("poison", bodyOnly("poisoned")).ok());
        QVERIFY(broker.receive("poison", 0).ok());
        QVERIFY(broker.receive("poison", 0).ok());   // the second receive dead-letters it
        SendRequest shortLived = bodyOnly("short-lived");
        shortLived.timeToLiveSeconds = 5;
        QVERIFY(broker.send("work", shortLived).ok());
        QVERIFY(broker.advance(6));                  // expiry dead-letters it
        QVERIFY(broker.send("work", bodyOnly("locked")).ok());
        QVERIFY(broker.receive("work", 30).ok());
        QVERIFY(broker.send("work", bodyOnly("ready")).ok());
        SendRequest delayed = bodyOnly("later");
        delayed.delaySeconds = 60;
        QVERIFY(broker.send("work", delayed).ok());
        SendRequest scheduled = bodyOnly("planned");
        scheduled.scheduledEnqueueTime = broker.engine().clock().now() + 1h;
        QVERIFY(broker.send("work", scheduled).ok());

        MessageBrowseModel work(broker.service(), broker.engine(), QStringLiteral("work"));
        QAbstractItemModelTester workTester(&work, QAbstractItemModelTester::FailureReportingMode::QtTest);
        work.fetchMore({});
        waitLoaded(work);
        MessageBrowseModel dead(broker.service(), broker.engine(), QStringLiteral("dead"));
        QAbstractItemModelTester deadTester(&dead, QAbstractItemModelTester::FailureReportingMode::QtTest);
        dead.fetchMore({});
        waitLoaded(dead);
        QCOMPARE(work.rowCount(), 4);
        QCOMPARE(dead.rowCount(), 2);

        struct Expected {
            MessageBrowseModel *model;
            std::string body;
            QString state;
            QString countdown;
        };
        const Expected expected[] = {
            {&work, "ready", "Available", "expires in "},   // the queue's retention (4 days) bounds it
            {&work, "locked", "In flight", "lock ends in 30 s"},
            {&work, "later", "Delayed", "visible in 1 min 00 s"},
            {&work, "planned", "Scheduled", "enqueued in 1 h 00 min"},
            {&dead, "poisoned", "Dead-lettered (max receives)", "expires in "},
            {&dead, "short-lived", "Dead-lettered (TTL expired)", "expires in "},
        };
        for (const Expected &want : expected) {
            const int row = rowOfBody(*want.model, want.body);
            QVERIFY2(row >= 0, want.body.c_str());
            QCOMPARE(cell(*want.model, row, MessageBrowseModel::StateColumn), want.state);
            const QString countdown = cell(*want.model, row, MessageBrowseModel::CountdownColumn);
            if (want.countdown.endsWith(QLatin1Char(' ')))
                QVERIFY2(countdown.startsWith(want.countdown), qPrintable(countdown));
            else
                QCOMPARE(countdown, want.countdown);
        }
        QCOMPARE(dead.messageAt(rowOfBody(dead, "poisoned"))->sourceQueue, std::optional<std::string>("poison"));
        QCOMPARE(dead.index(rowOfBody(dead, "short-lived"), MessageBrowseModel::StateColumn).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("TTLExpiredException from work"));

        // The clock moves: the countdowns tick, and a due lock ends in place.
        QVERIFY(broker.advance(10));
        QSignalSpy changed(&work, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&work, &QAbstractItemModel::modelReset);
        work.tick(0, work.rowCount() - 1);
        QCOMPARE(cell(work, rowOfBody(work, "locked"), MessageBrowseModel::CountdownColumn),
                 QStringLiteral("lock ends in 20 s"));
        QVERIFY(changed.count() >= 1);
        QVERIFY(broker.advance(20));
        work.tick(0, work.rowCount() - 1);   // the lock is due: the rows are re-read
        QTRY_COMPARE_WITH_TIMEOUT(cell(work, rowOfBody(work, "locked"), MessageBrowseModel::StateColumn),
                                  QStringLiteral("Available"), kWaitMs);
        QCOMPARE(work.rowCount(), 4);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(cell(work, rowOfBody(work, "later"), MessageBrowseModel::CountdownColumn),
                 QStringLiteral("visible in 30 s"));
    }

    // The seventh state: a message past its expiry that the broker has not
    // removed yet (it expired while the broker was closed; expiry is applied
    // lazily, docs/behaviour.md §6) is browsed as Expired; when a receive applies the
    // expiry, its row goes and the other one changes in place.
    void expired_shownUntilTheBrokerRemovesIt()
    {
        const std::string file = nextFile();
        {
            MessageTestBroker before(m_dir, file.c_str());
            QVERIFY(before.createQueue("short"));
            SendRequest request = bodyOnly("fading");
            request.timeToLiveSeconds = 10;
            QVERIFY(before.send("short", request).ok());
            QVERIFY(before.send("short", bodyOnly("staying")).ok());
        }
        MessageTestBroker later(m_dir, file.c_str(), kBenchStart + 1min, /*holdBrokerThread=*/true);
        MessageBrowseModel model(later.service(), later.engine(), QStringLiteral("short"));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.fetchMore({});
        waitLoaded(model);
        QCOMPARE(model.rowCount(), 2);
        QCOMPARE(cell(model, 0, MessageBrowseModel::StateColumn), QStringLiteral("Expired"));
        QCOMPARE(cell(model, 0, MessageBrowseModel::CountdownColumn), QStringLiteral("expired 50 s ago"));
        QSignalSpy removed(&model, &QAbstractItemModel::rowsRemoved);
        later.release();
        auto received = later.receive("short", 30);   // applies the expiry; takes "staying"
        QVERIFY(received.ok());
        QCOMPARE(received->messages.size(), std::size_t(1));
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1, kWaitMs);
        QCOMPARE(removed.count(), 1);
        QCOMPARE(model.messageAt(0)->body, std::string("staying"));
        QCOMPARE(cell(model, 0, MessageBrowseModel::StateColumn), QStringLiteral("In flight"));
    }

    // Sends and receives through the service reach the model as change
    // events: new rows are inserted, received ones change in place.
    void liveChanges_applyInPlace()
    {
        const std::string file = nextFile();
        MessageTestBroker broker(m_dir, file.c_str());
        QVERIFY(broker.createQueue("live"));
        QVERIFY(broker.send("live", bodyOnly("first")).ok());
        MessageBrowseModel model(broker.service(), broker.engine(), QStringLiteral("live"));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.fetchMore({});
        waitLoaded(model);
        QCOMPARE(model.rowCount(), 1);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);
        QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        QVERIFY(broker.send("live", bodyOnly("second")).ok());
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 2, kWaitMs);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(inserted.at(0).at(1).toInt(), 1);
        QVERIFY(broker.receive("live", 30).ok());
        QTRY_COMPARE_WITH_TIMEOUT(cell(model, 0, MessageBrowseModel::StateColumn), QStringLiteral("In flight"), kWaitMs);
        QCOMPARE(cell(model, 1, MessageBrowseModel::StateColumn), QStringLiteral("In flight"));
        QVERIFY(changed.count() >= 1);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.rowCount(), 2);
    }

    void search_narrowsTheList_data()
    {
        QTest::addColumn<QString>("search");
        QTest::addColumn<QStringList>("bodies");
        QTest::newRow("everything") << QString() << QStringList{"{\"order\": 1}", "plain text", "{\"order\": 2}"};
        QTest::newRow("body text") << "order" << QStringList{"{\"order\": 1}", "{\"order\": 2}"};
        QTest::newRow("message id") << "2" << QStringList{"plain text"};
        QTest::newRow("attribute") << "kind=note" << QStringList{"plain text"};
    }
    void search_narrowsTheList()
    {
        QFETCH(QString, search);
        QFETCH(QStringList, bodies);
        const std::string file = nextFile();
        MessageTestBroker broker(m_dir, file.c_str());
        QVERIFY(broker.createQueue("find"));
        QVERIFY(broker.send("find", bodyOnly("{\"order\": 1}")).ok());
        SendRequest note = bodyOnly("plain text");
        note.attributes["kind"] = MessageAttributeValue{"String", "note", {}};
        auto sent = broker.send("find", note);
        QVERIFY(sent.ok());
        QVERIFY(broker.send("find", bodyOnly("{\"order\": 2}")).ok());
        if (search == QLatin1String("2"))   // the sequential id source numbers messages
            search = QString::fromStdString(sent->messageId);
        MessageBrowseModel model(broker.service(), broker.engine(), QStringLiteral("find"));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSearch(search);
        waitLoaded(model);
        QStringList seen;
        for (int row = 0; row < model.rowCount(); ++row)
            seen << QString::fromStdString(model.messageAt(row)->body);
        QCOMPARE(seen, bodies);
    }

    // `count` messages "m0".. in "big", sent in batches of ten.
    static void sendMany(MessageTestBroker &broker, int count, const std::string &last = {})
    {
        QVERIFY(broker.createQueue("big"));
        std::vector<BatchEntry<SendRequest>> batch;
        for (int i = 0; i < count; ++i) {
            batch.push_back({std::to_string(i % 10), bodyOnly(i == count - 1 && !last.empty() ? last : "m" + std::to_string(i))});
            if (batch.size() == 10 || i == count - 1) {
                QVERIFY(callAndWait<std::vector<BatchEntryResult<SendReceipt>>>([&](auto reply) {
                            broker.service().sendMessageBatch("big", batch, nullptr, reply);
                        }).ok());
                batch.clear();
            }
        }
    }

    void sortBySent_ordersTheWholeQueue_otherColumnsDoNot()
    {
        const std::string file = nextFile();
        MessageTestBroker broker(m_dir, file.c_str());
        sendMany(broker, 450);
        MessageBrowseModel model(broker.service(), broker.engine(), QStringLiteral("big"));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.fetchMore({});
        waitLoaded(model);
        QCOMPARE(model.messageAt(0)->body, std::string("m0"));
        // Newest first: the first page is the queue's last 200 messages, none of which was loaded.
        model.sort(MessageBrowseModel::SentColumn, Qt::DescendingOrder);
        waitLoaded(model);
        QCOMPARE(model.rowCount(), MessageBrowseModel::kPageSize);
        QCOMPARE(model.messageAt(0)->body, std::string("m449"));
        QCOMPARE(model.messageAt(199)->body, std::string("m250"));
        QCOMPARE(model.sortOrder(), Qt::DescendingOrder);
        // Paging goes on backwards to the oldest.
        while (model.canFetchMore({})) {
            model.fetchMore({});
            waitLoaded(model);
        }
        QCOMPARE(model.rowCount(), 450);
        QCOMPARE(model.messageAt(449)->body, std::string("m0"));
        // A new message arrives at the top when newest first.
        QVERIFY(broker.send("big", bodyOnly("newest")).ok());
        QTRY_COMPARE_WITH_TIMEOUT(cell(model, 0, MessageBrowseModel::BodyColumn), QStringLiteral("newest"), kWaitMs);
        waitLoaded(model);
        while (model.canFetchMore({})) {   // the re-read kept as many rows; the oldest comes with the next page
            model.fetchMore({});
            waitLoaded(model);
        }
        QCOMPARE(model.rowCount(), 451);
        QCOMPARE(model.messageAt(450)->body, std::string("m0"));
        // Other columns do not sort (the list stays), and their header says why.
        QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
        model.sort(MessageBrowseModel::BodyColumn, Qt::AscendingOrder);
        model.sort(MessageBrowseModel::ReceivesColumn, Qt::DescendingOrder);
        QCOMPARE(reset.count(), 0);
        QCOMPARE(model.messageAt(0)->body, std::string("newest"));
        for (int column = 0; column < MessageBrowseModel::ColumnCount; ++column) {
            const QString tip = model.headerData(column, Qt::Horizontal, Qt::ToolTipRole).toString();
            QCOMPARE(tip.startsWith(QStringLiteral("Not sortable")), column != MessageBrowseModel::SentColumn);
        }
    }

    void search_examinesABoundedNumberPerPage_thenGoesOnWhenAsked()
    {
        const std::string file = nextFile();
        MessageTestBroker broker(m_dir, file.c_str());
        sendMany(broker, 450, "needle");
        MessageBrowseModel model(broker.service(), broker.engine(), QStringLiteral("big"));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.setSearchScanLimit(100);
        model.setSearch(QStringLiteral("needle"));
        waitLoaded(model);
        QCOMPARE(model.rowCount(), 0);
        QVERIFY(model.isSearchPaused());
        QVERIFY(!model.canFetchMore({}));   // a view scrolling to the end does not read on by itself
        QCOMPARE(model.searchedCount(), 100);
        QCOMPARE(model.queueTotal(), 450);
        for (int expected : {200, 300, 400}) {
            model.continueSearch();
            waitLoaded(model);
            QCOMPARE(model.searchedCount(), expected);
            QVERIFY(model.isSearchPaused());
            QCOMPARE(model.rowCount(), 0);
        }
        model.continueSearch();
        waitLoaded(model);
        QCOMPARE(model.rowCount(), 1);
        QCOMPARE(model.messageAt(0)->body, std::string("needle"));
        QVERIFY(!model.isSearchPaused());
        QVERIFY(model.atEnd());
        QCOMPARE(model.searchedCount(), 450);
    }

    // A search whose scan limit ends exactly at the queue's end has searched
    // everything: it does not offer to search further.
    void search_endingAtTheLimit_isNotPaused()
    {
        const std::string file = nextFile();
        MessageTestBroker broker(m_dir, file.c_str());
        sendMany(broker, 200);
        MessageBrowseModel model(broker.service(), broker.engine(), QStringLiteral("big"));
        model.setSearchScanLimit(100);
        model.setSearch(QStringLiteral("nowhere"));
        waitLoaded(model);
        QVERIFY(model.isSearchPaused());
        model.continueSearch();
        waitLoaded(model);
        QCOMPARE(model.searchedCount(), 200);
        QVERIFY(!model.isSearchPaused());
        QVERIFY(model.atEnd());
        QCOMPARE(model.rowCount(), 0);
    }

    void deletedQueue_emptiesTheList()
    {
        const std::string file = nextFile();
        MessageTestBroker broker(m_dir, file.c_str());
        QVERIFY(broker.createQueue("gone"));
        QVERIFY(broker.send("gone", bodyOnly("m")).ok());
        MessageBrowseModel model(broker.service(), broker.engine(), QStringLiteral("gone"));
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        model.fetchMore({});
        waitLoaded(model);
        QSignalSpy failed(&model, &MessageBrowseModel::loadFailed);
        QVERIFY(callAndWaitStatus([&](auto reply) { broker.service().deleteQueue("gone", nullptr, reply); }).ok());
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 0, kWaitMs);
        QCOMPARE(failed.count(), 1);
        QVERIFY(!model.canFetchMore({}));
    }
};

RELAYDESK_TEST_MAIN(MessageBrowseModelTest)
#include "message_browse_model_test.moc"
