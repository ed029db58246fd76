// SPDX-License-Identifier: MIT
// The kept queue depths (broker/queues/queue_depths.h): after every kind of
// operation that stores, removes, locks, moves or re-times a message, the
// counters read the same as a full count of the queue's messages — at every
// clock time that matters (each message's visibility time and a millisecond
// either side, long before and long after), with the mark where the queue was
// created, between the due times, or ahead of them all. The refresh moves the
// mark (forward and back) and the counts stay; a restart reads the same; a
// database from before the counters (schema 8) gets counters that match; the
// check at start repairs counters that were wrong and says which, moves a
// mark far behind, and writes nothing otherwise.

#include "broker/queues/dead_letter_queue.h"
#include "broker/queues/message_browser.h"
#include "broker/queues/message_lifetime.h"
#include "broker/queues/message_move_task.h"
#include "broker/queues/purge_progress.h"
#include "broker/queues/queue_depths.h"
#include "broker/deliveries/topic_publisher.h"
#include "broker/store_calls.h"
#include "broker/topics/subscription_catalog.h"
#include "broker/topics/topic_catalog.h"
#include "queue_test_support.h"
#include "store/relaydesk_schema.h"
#include "store/schema_migrations.h"
#include "support/test_main.h"

#include <cmath>
#include <functional>
#include <set>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

using Step = std::function<void(QueueTestBroker &)>;

// An operation: what is there before it, and the operation itself.
struct Operation {
    Step setUp;
    Step act;
};

AttributeMap redrive(const std::string &target, int maxReceiveCount, AttributeMap more = {})
{
    more["RedrivePolicy"] = R"({"deadLetterTargetArn":"arn:aws:sqs:us-east-1:000000000000:)" + target
                            + R"(","maxReceiveCount":)" + std::to_string(maxReceiveCount) + "}";
    return more;
}

// A send of `body`, with `change` applied.
template <class Change>
SendRequest sendOf(const std::string &body, Change change)
{
    SendRequest request;
    request.body = body;
    change(request);
    return request;
}

SendRequest delayedBy(const std::string &body, int seconds)
{
    return sendOf(body, [&](SendRequest &request) { request.delaySeconds = seconds; });
}

SendRequest scheduledAt(const std::string &body, double seconds)
{
    return sendOf(body, [&](SendRequest &request) { request.scheduledEnqueueTime = at(seconds); });
}

SendRequest livingFor(const std::string &body, int seconds)
{
    return sendOf(body, [&](SendRequest &request) { request.timeToLiveSeconds = seconds; });
}

template <class T>
void require(const Result<T> &result, const char *what)
{
    if (!result)
        qFatal("%s: %s", what, result.error().message.c_str());
}

void require(const Status &status, const char *what)
{
    if (!status)
        qFatal("%s: %s", what, status.error().message.c_str());
}

void created(QueueTestBroker &broker, const std::string &name, const AttributeMap &attributes = {})
{
    require(broker.create(name, attributes), "create");
}

void sent(QueueTestBroker &broker, const std::string &queue, const SendRequest &request, double seconds)
{
    require(broker.send(queue, request, at(seconds)), "send");
}

void sent(QueueTestBroker &broker, const std::string &queue, const std::string &body, double seconds)
{
    require(broker.send(queue, body, at(seconds)), "send");
}

void received(QueueTestBroker &broker, const std::string &queue, int max, double seconds, int visibilityTimeout)
{
    broker.receiveBodies(queue, max, at(seconds), visibilityTimeout);
}

// Three messages of "q": one available, one in flight until 32 s, one delayed until 60 s.
void mixed(QueueTestBroker &broker)
{
    created(broker, "q");
    sent(broker, "q", "locked", 0);
    received(broker, "q", 1, 2, 30);
    sent(broker, "q", "waiting", 3);
    sent(broker, "q", delayedBy("later", 57), 3);
}

// "poison" of "q" moved into "dlq" by its second receive (maxReceiveCount 1); "other" empty.
void deadLettered(QueueTestBroker &broker)
{
    created(broker, "dlq");
    created(broker, "other");
    created(broker, "q", redrive("dlq", 1));
    sent(broker, "q", "poison", 0);
    received(broker, "q", 1, 1, 0);
    received(broker, "q", 1, 2, 30);
}

std::map<QString, Operation> operations()
{
    std::map<QString, Operation> list;
    list["send"] = {[](QueueTestBroker &b) { created(b, "q"); }, [](QueueTestBroker &b) { sent(b, "q", "a", 1); }};
    list["send batch"] = {[](QueueTestBroker &b) { created(b, "q"); },
                          [](QueueTestBroker &b) {
                              std::vector<BatchEntry<SendRequest>> entries{
                                  {"plain", delayedBy("a", 0)},
                                  {"delayed", delayedBy("b", 20)},
                                  {"refused", delayedBy("", 0)},
                                  {"scheduled", scheduledAt("c", 40)}};
                              require(b.unit([&] { return MessageSender(b.db(), b.ids()).sendBatch("q", entries, at(1)); }),
                                      "send batch");
                          }};
    list["delayed send"] = {[](QueueTestBroker &b) { created(b, "q"); },
                            [](QueueTestBroker &b) { sent(b, "q", delayedBy("a", 30), 1); }};
    list["queue delay"] = {[](QueueTestBroker &b) { created(b, "q", {{"DelaySeconds", "45"}}); },
                           [](QueueTestBroker &b) { sent(b, "q", "a", 1); }};
    list["scheduled send"] = {[](QueueTestBroker &b) { created(b, "q"); },
                              [](QueueTestBroker &b) { sent(b, "q", scheduledAt("a", 100), 1); }};
    list["cancel scheduled"] = {[](QueueTestBroker &b) {
                                    created(b, "q");
                                    sent(b, "q", scheduledAt("a", 100), 1);
                                },
                                [](QueueTestBroker &b) {
                                    const auto listed = message_lifetime::scheduledMessages(b.db(), "q", at(2));
                                    require(listed, "list scheduled");
                                    require(b.unit([&] {
                                        return message_lifetime::cancelScheduledMessage(b.db(), "q", listed->at(0).messageId,
                                                                                        at(2));
                                    }),
                                            "cancel");
                                }};
    list["receive"] = {[](QueueTestBroker &b) {
                           created(b, "q");
                           for (const char *body : {"a", "b", "c"})
                               sent(b, "q", body, 0);
                       },
                       [](QueueTestBroker &b) { received(b, "q", 2, 2, 30); }};
    list["delete"] = {[](QueueTestBroker &b) {
                          mixed(b);
                          received(b, "q", 1, 4, 40);
                      },
                      [](QueueTestBroker &b) { require(b.remove("q", b.handleOf("waiting"), at(5)), "delete"); }};
    list["delete batch"] = {[](QueueTestBroker &b) {
                                created(b, "q");
                                for (const char *body : {"a", "b", "c"})
                                    sent(b, "q", body, 0);
                                received(b, "q", 3, 1, 30);
                            },
                            [](QueueTestBroker &b) {
                                std::vector<BatchEntry<std::string>> entries{
                                    {"a", b.handleOf("a")}, {"b", b.handleOf("b")}, {"again", b.handleOf("a")}};
                                require(b.unit([&] {
                                    return MessageReceiver(b.db(), b.ids()).deleteMessageBatch("q", entries, at(2));
                                }),
                                        "delete batch");
                            }};
    list["change visibility"] = {mixed, [](QueueTestBroker &b) {
                                     require(b.unit([&] {
                                         return MessageReceiver(b.db(), b.ids()).changeVisibility("q", b.handleOf("locked"),
                                                                                                  90, at(10));
                                     }),
                                             "change visibility");
                                 }};
    list["change visibility to 0"] = {mixed, [](QueueTestBroker &b) {
                                          require(b.unit([&] {
                                              return MessageReceiver(b.db(), b.ids()).changeVisibility(
                                                  "q", b.handleOf("locked"), 0, at(10));
                                          }),
                                                  "change visibility");
                                      }};
    list["change visibility batch"] = {[](QueueTestBroker &b) {
                                           created(b, "q");
                                           for (const char *body : {"a", "b"})
                                               sent(b, "q", body, 0);
                                           received(b, "q", 2, 1, 30);
                                       },
                                       [](QueueTestBroker &b) {
                                           std::vector<BatchEntry<VisibilityChange>> entries{
                                               {"a", {b.handleOf("a"), 5}}, {"b", {b.handleOf("b"), 300}}};
                                           require(b.unit([&] {
                                               return MessageReceiver(b.db(), b.ids()).changeVisibilityBatch("q", entries,
                                                                                                            at(2));
                                           }),
                                                   "change visibility batch");
                                       }};
    list["visibility expiry, received again"] = {mixed, [](QueueTestBroker &b) { received(b, "q", 10, 40, 20); }};
    list["delay expiry, received"] = {mixed, [](QueueTestBroker &b) { received(b, "q", 10, 61, 20); }};
    list["schedule reached, received"] = {[](QueueTestBroker &b) {
                                              created(b, "q");
                                              sent(b, "q", scheduledAt("a", 50), 1);
                                          },
                                          [](QueueTestBroker &b) { received(b, "q", 10, 60, 20); }};
    list["retention expiry"] = {[](QueueTestBroker &b) {
                                    created(b, "q", {{"MessageRetentionPeriod", "60"}});
                                    sent(b, "q", "a", 0);
                                    sent(b, "q", "b", 30);
                                },
                                [](QueueTestBroker &b) {
                                    require(b.unit([&] { return message_lifetime::applyExpiryEverywhere(b.db(), at(61)); }),
                                            "expire");
                                }};
    list["expiry into the dead-letter queue"] = {[](QueueTestBroker &b) {
                                                     created(b, "dlq");
                                                     created(b, "q", redrive("dlq", 10, {{"DeadLetteringOnMessageExpiration", "true"}}));
                                                     sent(b, "q", livingFor("a", 5), 0);
                                                     sent(b, "q", livingFor("b", 500), 0);
                                                 },
                                                 [](QueueTestBroker &b) {
                                                     require(b.unit([&] {
                                                         return message_lifetime::expireEverywhere(b.db(), at(10));
                                                     }),
                                                             "expire");
                                                 }};
    list["purge"] = {mixed, [](QueueTestBroker &b) {
                         require(b.unit([&] { return MessageReceiver(b.db(), b.ids()).purge("q", at(10)); }), "purge");
                     }};
    // A purge of more than a chunk, with sends between its chunks, finished
    // from its note as a broker that started again does (purge_progress.h).
    list["purge in chunks, sends between them"] = {
        [](QueueTestBroker &b) {
            mixed(b);
            require(b.unit([&] {
                        for (int i = 0; i < 2500; ++i)
                            if (auto sentOne = MessageSender(b.db(), b.ids()).send("q", delayedBy("more", i % 3 * 20), at(4));
                                !sentOne)
                                return Status(sentOne.error());
                        return Status();
                    }),
                    "fill");
        },
        [](QueueTestBroker &b) {
            require(b.unit([&] { return MessageReceiver(b.db(), b.ids()).purge("q", at(10)); }), "purge");
            sent(b, "q", "during", 11);
            sent(b, "q", delayedBy("during, delayed", 30), 11);
            for (;;) {
                const auto pending = b.unit([&] { return purge_progress::pending(b.db()); });
                require(pending, "pending purges");
                if (pending->empty())
                    break;
                require(b.unit([&] { return purge_progress::removeChunk(b.db(), pending->front()); }), "chunk");
            }
            if (b.count("SELECT count(*) FROM messages") != 2)
                qFatal("the purge removed a message sent after it began, or left one from before");
        }};
    list["maxReceiveCount into the dead-letter queue"] = {[](QueueTestBroker &b) {
                                                              created(b, "dlq");
                                                              created(b, "q", redrive("dlq", 1));
                                                              sent(b, "q", "poison", 0);
                                                              sent(b, "q", "fine", 0);
                                                              received(b, "q", 2, 1, 0);
                                                          },
                                                          [](QueueTestBroker &b) { received(b, "q", 1, 2, 30); }};
    list["move task back to the source"] = {deadLettered, [](QueueTestBroker &b) {
                                                require(b.unit([&] {
                                                    return message_move_tasks::start(b.db(), b.identity(), b.ids(),
                                                                                     b.identity().queueArn("dlq"),
                                                                                     std::nullopt, std::nullopt, at(5));
                                                }),
                                                        "move task");
                                            }};
    list["dead letters moved to a chosen queue"] = {deadLettered, [](QueueTestBroker &b) {
                                                        require(b.unit([&] {
                                                            return moveDeadLettersBack(b.db(), "dlq", std::string("other"),
                                                                                       std::nullopt, at(5));
                                                        }),
                                                                "move");
                                                    }};
    list["FIFO send, receive, delete"] = {[](QueueTestBroker &b) { created(b, "q.fifo", {{"FifoQueue", "true"}}); },
                                          [](QueueTestBroker &b) {
                                              require(b.sendFifo("q.fifo", "g1-a", "g1", at(0)), "send");
                                              require(b.sendFifo("q.fifo", "g1-b", "g1", at(0)), "send");
                                              require(b.sendFifo("q.fifo", "g1-a", "g1", at(1)), "duplicate");
                                              require(b.sendFifo("q.fifo", "g2-a", "g2", at(1)), "send");
                                              b.receiveBodies("q.fifo", 10, at(2), 30);
                                              require(b.remove("q.fifo", b.handleOf("g1-a"), at(3)), "delete");
                                          }};
    list["delete queue"] = {[](QueueTestBroker &b) {
                                mixed(b);
                                created(b, "stays");
                                sent(b, "stays", "kept", 0);
                            },
                            [](QueueTestBroker &b) {
                                require(b.unit([&] { return QueueCatalog(b.db(), b.identity()).deleteQueue("q"); }),
                                        "delete queue");
                            }};
    list["queue deleted and created again"] = {mixed, [](QueueTestBroker &b) {
                                                   require(b.unit([&] {
                                                       return QueueCatalog(b.db(), b.identity()).deleteQueue("q");
                                                   }),
                                                           "delete queue");
                                                   created(b, "q");
                                                   sent(b, "q", delayedBy("new", 10), 20);
                                               }};
    list["topic fan-out"] = {[](QueueTestBroker &b) {
                                 created(b, "q");
                                 require(b.unit([&] { return TopicCatalog(b.db(), b.identity()).createTopic("t", {}, {}, at(0)); }),
                                         "topic");
                                 require(b.unit([&] {
                                     return SubscriptionCatalog(b.db(), b.identity(), b.ids())
                                         .subscribe("t", "sqs", b.identity().queueArn("q"), {}, false, at(0));
                                 }),
                                         "subscribe");
                             },
                             [](QueueTestBroker &b) {
                                 PublishRequest request;
                                 request.message = "news";
                                 require(b.unit([&] { return TopicPublisher(b.db(), b.identity(), b.ids()).publish("t", request, at(1)); }),
                                         "publish");
                             }};
    return list;
}

QString describe(const QueueDepths &depths)
{
    const QueueCounts &c = depths.counts;
    return QStringLiteral("available %1, in flight %2, delayed %3, scheduled %4, dead-lettered %5, next %6")
        .arg(c.available)
        .arg(c.inFlight)
        .arg(c.delayed)
        .arg(c.scheduled)
        .arg(c.deadLettered)
        .arg(depths.nextVisible ? QString::number(toEpochMilliseconds(*depths.nextVisible)) : QStringLiteral("-"));
}

std::vector<std::pair<std::int64_t, std::string>> queuesOf(Database &db)
{
    std::vector<std::pair<std::int64_t, std::string>> queues;
    auto statement = db.prepare("SELECT id, name FROM queues ORDER BY name");
    while (*statement->step() == relaydesk::Step::Row)
        queues.emplace_back(statement->columnInt64(0), statement->columnText(1));
    return queues;
}

// The clock times at which a count can change (each message's visibility
// time, a millisecond either side), each queue's mark, long before and after.
std::set<std::int64_t> timesThatMatter(Database &db)
{
    std::set<std::int64_t> times{toEpochMilliseconds(at(-100000)), toEpochMilliseconds(at(0)),
                                 toEpochMilliseconds(at(1000000))};
    for (const char *sql : {"SELECT DISTINCT visible_at_ms FROM messages", "SELECT depth_mark_ms FROM queues"}) {
        auto statement = db.prepare(sql);
        while (*statement->step() == relaydesk::Step::Row)
            for (std::int64_t delta : {-1, 0, 1})
                times.insert(statement->columnInt64(0) + delta);
    }
    return times;
}

// Every queue, at every time that matters: the counters read what a full
// count reads; the stored counter is the number of rows.
void compareEverywhere(QueueTestBroker &broker)
{
    Database &db = broker.db();
    const std::set<std::int64_t> times = timesThatMatter(db);
    for (const auto &[id, name] : queuesOf(db)) {
        for (const std::int64_t ms : times) {
            const ClockTime now = fromEpochMilliseconds(ms);
            Result<QueueDepths> kept = queue_depths::read(db, id, now);
            Result<QueueDepths> counted = queue_depths::countEveryMessage(db, id, now);
            QVERIFY(kept.ok() && counted.ok());
            QVERIFY2(*kept == *counted, qPrintable(QStringLiteral("queue %1 at %2: kept %3; counted %4")
                                                       .arg(QString::fromStdString(name))
                                                       .arg(ms)
                                                       .arg(describe(*kept), describe(*counted))));
        }
        QCOMPARE(*queue_depths::storedMessages(db, id),
                 broker.count("SELECT count(*) FROM messages WHERE queue_id = " + std::to_string(id)));
    }
}

// Moves every queue's mark to `seconds`, its counters from a full count.
void markAt(QueueTestBroker &broker, double seconds)
{
    for (const auto &queue : queuesOf(broker.db()))
        QVERIFY(broker.unit([&] { return queue_depths::recount(broker.db(), queue.first, at(seconds)); }).ok());
}

// The start check finds every queue right.
void checkFindsNothing(QueueTestBroker &broker, double seconds)
{
    Result<std::vector<QueueDepthRepair>> repairs =
        broker.unit([&] { return queue_depths::recountEveryQueue(broker.db(), at(seconds)); });
    QVERIFY(repairs.ok());
    QVERIFY2(repairs->empty(), repairs->empty() ? "" : repairs->front().queue.c_str());
}

std::int64_t markOf(QueueTestBroker &broker, const std::string &queue)
{
    return broker.count("SELECT depth_mark_ms FROM queues WHERE name = '" + queue + "'");
}

} // namespace

class QueueDepthsTest final : public QObject {
    Q_OBJECT

private slots:
    void afterOperation_countersMatchFullCount_data();
    void afterOperation_countersMatchFullCount();
    void refresh_movesMarkEitherWay_countsStay();
    void refresh_fewChanges_markStays();
    void restart_sameCounts();
    void startCheck_wrongCounters_repairedAndNamed();
    void startCheck_markFarBehind_moved_nearMark_untouched();
    void migrationFromSchema8_countersMatch();
    void queueAttributesAndBrowse_fromCounters();
};

void QueueDepthsTest::afterOperation_countersMatchFullCount_data()
{
    QTest::addColumn<QString>("operation");
    QTest::addColumn<double>("mark"); // seconds; NaN: where each queue was created
    for (const auto &[name, operation] : operations()) {
        QTest::addRow("%s, mark at creation", qPrintable(name)) << name << std::nan("");
        QTest::addRow("%s, mark between due times", qPrintable(name)) << name << 31.5;
        QTest::addRow("%s, mark on a due time", qPrintable(name)) << name << 32.0; // mixed()'s lock ends then
        QTest::addRow("%s, mark ahead of them", qPrintable(name)) << name << 100000.0;
    }
}

void QueueDepthsTest::afterOperation_countersMatchFullCount()
{
    QFETCH(QString, operation);
    QFETCH(double, mark);
    const Operation steps = operations().at(operation);
    QueueTestBroker broker;
    steps.setUp(broker);
    if (!std::isnan(mark))
        markAt(broker, mark);
    compareEverywhere(broker);
    if (QTest::currentTestFailed())
        return;
    steps.act(broker);
    compareEverywhere(broker);
    checkFindsNothing(broker, 1000);
}

void QueueDepthsTest::refresh_movesMarkEitherWay_countsStay()
{
    QueueTestBroker broker;
    created(broker, "q");
    // 300 messages delayed 1 s … 300 s, 20 in flight until 12 s: more than kMarkStep become available by 400 s.
    for (int batch = 0; batch < 30; ++batch) {
        std::vector<BatchEntry<SendRequest>> entries;
        for (int i = 0; i < 10; ++i)
            entries.push_back({"e" + std::to_string(i), delayedBy("m" + std::to_string(batch * 10 + i), 1 + (batch * 10 + i) % 300)});
        QVERIFY(broker.unit([&] { return MessageSender(broker.db(), broker.ids()).sendBatch("q", entries, at(0)); }).ok());
    }
    received(broker, "q", 10, 2, 10);
    received(broker, "q", 10, 2, 10);
    QCOMPARE(markOf(broker, "q"), std::int64_t(0)); // a new queue's mark: the epoch
    const std::int64_t queueId = broker.count("SELECT id FROM queues WHERE name = 'q'");

    const auto refreshAt = [&](double seconds) {
        Result<QueueDepths> refreshed =
            broker.unit([&] { return queue_depths::refresh(broker.db(), queueId, at(seconds)); });
        QVERIFY(refreshed.ok());
        QCOMPARE(*refreshed, *queue_depths::countEveryMessage(broker.db(), queueId, at(seconds)));
    };
    refreshAt(400);
    QCOMPARE(markOf(broker, "q"), toEpochMilliseconds(at(400)));
    compareEverywhere(broker);
    // Operations after the move count against the new mark.
    received(broker, "q", 10, 401, 60);
    QVERIFY(broker.remove("q", broker.handleOf("m0"), at(402)).ok());
    compareEverywhere(broker);
    // A clock set back (e.g. from virtual to real time): the mark follows.
    refreshAt(1);
    QCOMPARE(markOf(broker, "q"), toEpochMilliseconds(at(1)));
    compareEverywhere(broker);
}

void QueueDepthsTest::refresh_fewChanges_markStays()
{
    QueueTestBroker broker;
    mixed(broker);
    const std::int64_t queueId = broker.count("SELECT id FROM queues WHERE name = 'q'");
    QVERIFY(broker.unit([&] { return queue_depths::refresh(broker.db(), queueId, at(100)); }).ok());
    QCOMPARE(markOf(broker, "q"), std::int64_t(0)); // 3 rows between: below kMarkStep, nothing written
    compareEverywhere(broker);
}

void QueueDepthsTest::restart_sameCounts()
{
    QueueTestBroker broker;
    mixed(broker);
    markAt(broker, 31.5);
    const std::int64_t queueId = broker.count("SELECT id FROM queues WHERE name = 'q'");
    std::vector<QueueDepths> before;
    for (double seconds : {0.0, 10.0, 40.0, 70.0})
        before.push_back(*queue_depths::read(broker.db(), queueId, at(seconds)));
    broker.reopen();
    std::vector<QueueDepths> after;
    for (double seconds : {0.0, 10.0, 40.0, 70.0})
        after.push_back(*queue_depths::read(broker.db(), queueId, at(seconds)));
    QCOMPARE(after, before);
    QCOMPARE(before[1].counts, (QueueCounts{1, 1, 1, 0, 0}));
    compareEverywhere(broker);
}

void QueueDepthsTest::startCheck_wrongCounters_repairedAndNamed()
{
    QueueTestBroker broker;
    mixed(broker);
    created(broker, "right");
    sent(broker, "right", "r", 0);
    created(broker, "zeroed");
    sent(broker, "zeroed", delayedBy("z", 100), 0);
    QVERIFY(broker.db().execute("UPDATE queues SET depth_stored = depth_stored + 5, depth_delayed = 0 WHERE name = 'q';"
                                "UPDATE queues SET depth_stored = 0, depth_delayed = 0 WHERE name = 'zeroed'")
                .ok());
    Result<std::vector<QueueDepthRepair>> repairs =
        broker.unit([&] { return queue_depths::recountEveryQueue(broker.db(), at(10)); });
    QVERIFY(repairs.ok());
    QCOMPARE(repairs->size(), std::size_t(2));
    QCOMPARE(repairs->at(0).queue, std::string("q"));
    // Kept at the mark (the epoch): "waiting" (visible at 3 s) counted delayed there; the tampering took it off.
    QCOMPARE(repairs->at(0).kept, (QueueCounts{8, 1, -1, 0, 0}));
    QCOMPARE(repairs->at(0).counted, (QueueCounts{1, 1, 1, 0, 0}));
    QCOMPARE(repairs->at(1).queue, std::string("zeroed"));
    QCOMPARE(repairs->at(1).counted, (QueueCounts{0, 0, 1, 0, 0}));
    QCOMPARE(markOf(broker, "q"), toEpochMilliseconds(at(10)));
    compareEverywhere(broker);
    // Repaired for good: the next check finds nothing.
    checkFindsNothing(broker, 20);
}

void QueueDepthsTest::startCheck_markFarBehind_moved_nearMark_untouched()
{
    QueueTestBroker broker;
    mixed(broker);
    created(broker, "busy");
    for (int batch = 0; batch < 30; ++batch) {
        std::vector<BatchEntry<SendRequest>> entries;
        for (int i = 0; i < 10; ++i)
            entries.push_back({"e" + std::to_string(i), delayedBy("m", 0)});
        QVERIFY(broker.unit([&] { return MessageSender(broker.db(), broker.ids()).sendBatch("busy", entries, at(1)); }).ok());
    }
    checkFindsNothing(broker, 10);
    QCOMPARE(markOf(broker, "busy"), toEpochMilliseconds(at(10))); // 300 rows behind: moved
    QCOMPARE(markOf(broker, "q"), std::int64_t(0));                 // 3 rows behind: nothing written
    compareEverywhere(broker);
}

void QueueDepthsTest::migrationFromSchema8_countersMatch()
{
    QTemporaryDir dir;
    const std::string file = dir.filePath(QStringLiteral("v8.db")).toStdString();
    {
        DatabaseOptions v8;
        v8.migrations = relaydeskMigrations().first(8);
        auto db = Database::open(file, v8);
        QVERIFY2(db.ok(), db.status().toString().c_str());
        const std::int64_t t = toEpochMilliseconds(at(0));
        const std::string sql =
            "INSERT INTO queues (id, name, created_ms, last_used_ms) VALUES (1, 'a', 0, 0), (2, 'b', 0, 0), (3, 'empty', 0, 0);"
            "INSERT INTO messages (message_id, queue_id, body, sent_ms, enqueued_ms, visible_at_ms, state,"
            " dead_letter_reason) VALUES"
            " ('1', 1, 'x', 0, 0, " + std::to_string(t) + ", 'queued', NULL),"
            " ('2', 1, 'x', 0, 0, " + std::to_string(t + 30000) + ", 'queued', NULL),"
            " ('3', 1, 'x', 0, 0, " + std::to_string(t + 60000) + ", 'inflight', 'MaxReceiveCountExceeded'),"
            " ('4', 1, 'x', 0, 0, " + std::to_string(t + 90000) + ", 'scheduled', NULL),"
            " ('5', 2, 'x', 0, 0, " + std::to_string(t - 5000) + ", 'inflight', NULL)";
        QVERIFY((*db)->execute(sql).ok());
    }
    auto current = Database::open(file);
    QVERIFY2(current.ok(), current.status().toString().c_str());
    QCOMPARE((*current)->schemaVersion(), latestSchemaVersion(relaydeskMigrations()));
    for (std::int64_t id : {1, 2, 3})
        for (double seconds : {-10.0, 0.0, 29.999, 30.0, 45.0, 60.0, 89.0, 90.0, 1000.0}) {
            Result<QueueDepths> kept = queue_depths::read(**current, id, at(seconds));
            QVERIFY(kept.ok());
            QCOMPARE(describe(*kept), describe(*queue_depths::countEveryMessage(**current, id, at(seconds))));
        }
    QCOMPARE(queue_depths::read(**current, 1, at(45))->counts, (QueueCounts{2, 1, 0, 1, 1}));
    // The start check at any clock time finds them right.
    Result<std::vector<QueueDepthRepair>> repairs = queue_depths::recountEveryQueue(**current, at(45));
    QVERIFY(repairs.ok());
    QVERIFY(repairs->empty());
}

void QueueDepthsTest::queueAttributesAndBrowse_fromCounters()
{
    QueueTestBroker broker;
    mixed(broker);
    sent(broker, "q", scheduledAt("planned", 200), 3);
    Result<AttributeMap> attributes = broker.unit([&] {
        return QueueCatalog(broker.db(), broker.identity()).queueAttributes("q", {"All"}, at(10));
    });
    QVERIFY(attributes.ok());
    QCOMPARE(attributes->at("ApproximateNumberOfMessages"), std::string("1"));
    QCOMPARE(attributes->at("ApproximateNumberOfMessagesNotVisible"), std::string("1"));
    QCOMPARE(attributes->at("ApproximateNumberOfMessagesDelayed"), std::string("2")); // delayed and scheduled
    attributes = broker.unit([&] {
        return QueueCatalog(broker.db(), broker.identity()).queueAttributes("q", {"All"}, at(40));
    });
    QCOMPARE(attributes->at("ApproximateNumberOfMessages"), std::string("2")); // the lock ended at 32 s
    QCOMPARE(attributes->at("ApproximateNumberOfMessagesNotVisible"), std::string("0"));
    BrowseRequest search;
    search.search = "waiting";
    Result<BrowsePage> page = browseQueue(broker.db(), "q", at(10), search);
    QVERIFY(page.ok());
    QCOMPARE(page->total, std::optional<std::int64_t>(4));
}

RELAYDESK_TEST_MAIN(QueueDepthsTest)
#include "queue_depths_test.moc"
