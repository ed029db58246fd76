// SPDX-License-Identifier: MIT
// The attempt log and the worker's bookkeeping (docs/behaviour.md §4.4, 4.1, 6): queries by
// subscription, topic, every subscription, kind, message, time range and
// limit; each attempt's kind; a confirmation ended by the subscription's
// confirmation reads final "confirmed"; retention pruning; a pending
// delivery that would be retried after its expiry ends; a backlog larger than
// the in-memory window is delivered whole; change events for the window;
// the best-effort UnsubscribeConfirmation.
#include "support/delivery_fixture.h"

#include "broker/topics/subscription_records.h"

#include "support/script_endpoint.h"
#include "support/test_main.h"

#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

AttemptRecord entry(const std::string &message, const std::string &subscription, std::int64_t attempt, int second,
                    const std::string &kind = "notification")
{
    AttemptRecord record;
    record.messageId = message;
    record.subscriptionArn = subscription;
    record.kind = kind;
    record.attempt = attempt;
    record.phase = attempt == 0 ? "initial" : "immediate";
    record.plannedAt = atSeconds(second);
    record.startedAt = atSeconds(second);
    record.httpStatus = 503;
    record.outcome = "retryable";
    return record;
}

} // namespace

class DeliveryLogTest : public QObject {
    Q_OBJECT

private slots:
    // Rows of sub-a: second i = 0..5, message m2 for even i, m1 for odd i;
    // sub-b: m1 at second 0. -1 = no bound; "" = any message.
    void query_filtersBySubscriptionMessageTimeRangeAndLimit_data()
    {
        QTest::addColumn<QString>("subscription");
        QTest::addColumn<QString>("message");
        QTest::addColumn<int>("since");
        QTest::addColumn<int>("until");
        QTest::addColumn<int>("limit");
        QTest::addColumn<QList<int>>("seconds");   // startedAt of the rows found, in order
        QTest::newRow("subscription only") << "sub-a" << "" << -1 << -1 << 1000 << QList<int>{0, 1, 2, 3, 4, 5};
        QTest::newRow("other subscription") << "sub-b" << "" << -1 << -1 << 1000 << QList<int>{0};
        QTest::newRow("unknown subscription") << "sub-x" << "" << -1 << -1 << 1000 << QList<int>{};
        QTest::newRow("message") << "sub-a" << "m1" << -1 << -1 << 1000 << QList<int>{1, 3, 5};
        QTest::newRow("since, inclusive") << "sub-a" << "" << 2 << -1 << 1000 << QList<int>{2, 3, 4, 5};
        QTest::newRow("until, exclusive") << "sub-a" << "" << -1 << 3 << 1000 << QList<int>{0, 1, 2};
        QTest::newRow("range") << "sub-a" << "" << 1 << 4 << 1000 << QList<int>{1, 2, 3};
        QTest::newRow("empty range") << "sub-a" << "" << 4 << 4 << 1000 << QList<int>{};
        QTest::newRow("message in range") << "sub-a" << "m2" << 1 << 5 << 1000 << QList<int>{2, 4};
        QTest::newRow("limit, oldest first") << "sub-a" << "" << -1 << -1 << 2 << QList<int>{0, 1};
        QTest::newRow("everything") << "sub-a" << "m1" << 2 << 6 << 1 << QList<int>{3};
    }
    void query_filtersBySubscriptionMessageTimeRangeAndLimit()
    {
        QFETCH(QString, subscription);
        QFETCH(QString, message);
        QFETCH(int, since);
        QFETCH(int, until);
        QFETCH(int, limit);
        QFETCH(QList<int>, seconds);
        DeliveryBench bench;
        QVERIFY(bench.open());
        AttemptQuery query;
        query.subscriptionArn = subscription.toStdString();
        if (!message.isEmpty())
            query.messageId = message.toStdString();
        if (since >= 0)
            query.since = atSeconds(since);
        if (until >= 0)
            query.until = atSeconds(until);
        query.limit = static_cast<std::size_t>(limit);
        Result<std::vector<AttemptRecord>> found = bench.engine().executeAndWait(
            [query](Database &db, ClockTime) -> Result<std::vector<AttemptRecord>> {
                for (int i = 0; i < 6; ++i) {
                    if (Result<std::int64_t> added = attempt_log::append(db, entry(i % 2 ? "m1" : "m2", "sub-a", i / 2, i)); !added)
                        return added.error();
                }
                if (Result<std::int64_t> other = attempt_log::append(db, entry("m1", "sub-b", 0, 0)); !other)
                    return other.error();
                return attempt_log::query(db, query);
            });
        QVERIFY(found);
        QList<int> foundSeconds;
        for (const AttemptRecord &record : *found) {
            QCOMPARE(record.subscriptionArn, query.subscriptionArn);
            foundSeconds.append(static_cast<int>((record.startedAt - atSeconds(0)) / 1s));
        }
        QCOMPARE(foundSeconds, seconds);
    }

    // One row each, at second i: 0 orders:a notification, 1 orders:b
    // subscriptionConfirmation, 2 orders-eu:c notification (a topic whose
    // name starts like another), 3 orders:a unsubscribeConfirmation,
    // 4 orders.fifo:d notification.
    void query_byTopicEverySubscriptionAndKind_data()
    {
        QTest::addColumn<QString>("subscription");   // a resource after "arn:aws:sns:us-east-1:000000000000:", or ""
        QTest::addColumn<QString>("topic");
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QList<int>>("seconds");
        QTest::newRow("topic") << "" << "orders" << "" << QList<int>{0, 1, 3};
        QTest::newRow("other topic, same prefix") << "" << "orders-eu" << "" << QList<int>{2};
        QTest::newRow("fifo topic") << "" << "orders.fifo" << "" << QList<int>{4};
        QTest::newRow("topic without rows") << "" << "order" << "" << QList<int>{};
        QTest::newRow("every subscription") << "" << "" << "" << QList<int>{0, 1, 2, 3, 4};
        QTest::newRow("every notification") << "" << "" << "notification" << QList<int>{0, 2, 4};
        QTest::newRow("topic's confirmations") << "" << "orders" << "subscriptionConfirmation" << QList<int>{1};
        QTest::newRow("subscription and kind") << "orders:a" << "" << "unsubscribeConfirmation" << QList<int>{3};
        QTest::newRow("subscription, every kind") << "orders:a" << "" << "" << QList<int>{0, 3};
    }
    void query_byTopicEverySubscriptionAndKind()
    {
        QFETCH(QString, subscription);
        QFETCH(QString, topic);
        QFETCH(QString, kind);
        QFETCH(QList<int>, seconds);
        const std::string base = "arn:aws:sns:us-east-1:000000000000:";
        DeliveryBench bench;
        QVERIFY(bench.open());
        AttemptQuery query;
        if (!subscription.isEmpty())
            query.subscriptionArn = base + subscription.toStdString();
        if (!topic.isEmpty())
            query.topicArn = base + topic.toStdString();
        if (!kind.isEmpty())
            query.kind = kind.toStdString();
        Result<std::vector<AttemptRecord>> found = bench.engine().executeAndWait(
            [query, base](Database &db, ClockTime) -> Result<std::vector<AttemptRecord>> {
                const AttemptRecord rows[] = {entry("m0", base + "orders:a", 0, 0),
                                              entry("m1", base + "orders:b", 0, 1, "subscriptionConfirmation"),
                                              entry("m2", base + "orders-eu:c", 0, 2),
                                              entry("m3", base + "orders:a", 0, 3, "unsubscribeConfirmation"),
                                              entry("m4", base + "orders.fifo:d", 0, 4)};
                for (const AttemptRecord &row : rows) {
                    if (Result<std::int64_t> added = attempt_log::append(db, row); !added)
                        return added.error();
                }
                return attempt_log::query(db, query);
            });
        QVERIFY(found);
        QList<int> foundSeconds;
        for (const AttemptRecord &record : *found) {
            if (query.kind)
                QCOMPARE(record.kind, *query.kind);
            foundSeconds.append(static_cast<int>((record.startedAt - atSeconds(0)) / 1s));
        }
        QCOMPARE(foundSeconds, seconds);
    }

    void kindOfDelivery_namesEachDeliveryKind_data()
    {
        QTest::addColumn<QString>("delivery");
        QTest::addColumn<QString>("attempt");
        QTest::newRow("notification") << "Notification" << "notification";
        QTest::newRow("subscription confirmation") << "SubscriptionConfirmation" << "subscriptionConfirmation";
        QTest::newRow("unsubscribe confirmation") << "UnsubscribeConfirmation" << "unsubscribeConfirmation";
        QTest::newRow("unknown") << "Other" << "";
    }
    void kindOfDelivery_namesEachDeliveryKind()
    {
        QFETCH(QString, delivery);
        QFETCH(QString, attempt);
        QCOMPARE(QString::fromStdString(attempt_log::kindOfDelivery(delivery.toStdString())), attempt);
        QCOMPARE(attempt_log::isAttemptKind(attempt.toStdString()), !attempt.isEmpty());
    }

    // The confirmation request fails; the subscription is confirmed before
    // its retry (the token reached the subscriber another way): the retry is
    // not sent and the log's last row reads "confirmed", not "discarded".
    // Then a notification: its rows read kind "notification".
    void confirmationConfirmedMeanwhile_finalConfirmed_notificationsKindNotification()
    {
        DeliveryBench bench;
        QVERIFY(bench.open());
        ScriptEndpoint endpoint(&bench.engine().clock());
        endpoint.setScript({respond(500), respond(200)});
        QVERIFY(bench.createTopic("orders"));
        Result<SubscribeReceipt> subscription = bench.subscribe("orders", endpoint.url(), {}, false);
        QVERIFY(subscription);
        QVERIFY(bench.queueConfirmation(subscription->subscriptionArn, "SubscriptionConfirmation"));
        QVERIFY(bench.advance(1s));
        QCOMPARE(endpoint.count(), std::size_t(1));
        const std::string arn = subscription->subscriptionArn;
        Result<bool> confirmed = bench.engine().executeAndWait([arn](Database &db, ClockTime) -> Result<bool> {
            auto found = subscription_records::findByUuid(db, arn.substr(arn.rfind(':') + 1));
            if (!found)
                return found.error();
            if (!*found)
                return false;
            if (Status done = subscription_records::confirm(db, (*found)->id); !done)
                return done.error();
            return true;
        });
        QVERIFY(confirmed && *confirmed);
        QVERIFY(bench.advance(60s));   // sns-default would retry at 20 s
        QCOMPARE(endpoint.count(), std::size_t(1));
        std::vector<AttemptRecord> log = bench.attempts(arn);
        QCOMPARE(log.size(), std::size_t(1));
        QCOMPARE(log[0].kind, std::string("subscriptionConfirmation"));
        QCOMPARE(log[0].httpStatus.value_or(0), 500);
        QCOMPARE(log[0].final.value_or(""), std::string("confirmed"));
        QCOMPARE(bench.pendingCount(), std::int64_t(0));

        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(1s));
        log = bench.attempts(arn);
        QCOMPARE(log.size(), std::size_t(2));
        QCOMPARE(log[1].kind, std::string("notification"));
        QCOMPARE(log[1].final.value_or(""), std::string("delivered"));
    }

    void prune_keepsNewestRows()
    {
        DeliveryBench bench;
        QVERIFY(bench.open());
        Result<std::int64_t> pruned = bench.engine().executeAndWait([](Database &db, ClockTime) -> Result<std::int64_t> {
            for (int i = 0; i < 10; ++i) {
                if (Result<std::int64_t> added = attempt_log::append(db, entry("m", "sub", i, i)); !added)
                    return added.error();
            }
            return attempt_log::prune(db, 4);
        });
        QVERIFY(pruned);
        QCOMPARE(*pruned, std::int64_t(6));
        const std::vector<AttemptRecord> kept = bench.attempts("sub");
        QCOMPARE(kept.size(), std::size_t(4));
        QCOMPARE(kept.front().attempt, std::int64_t(6));
        QCOMPARE(kept.back().attempt, std::int64_t(9));
    }

    void retryAfterExpiry_endsDelivery()
    {
        DeliveryBench bench;
        QVERIFY(bench.open());
        ScriptEndpoint endpoint(&bench.engine().clock());
        endpoint.setScript({respond(503)});
        QVERIFY(bench.createTopic("orders"));
        Result<SubscribeReceipt> subscription =
            bench.subscribe("orders", endpoint.url(), {{"DefaultMessageTimeToLive", "30"}});
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());
        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(120s));
        // sns-default retries at 20, 40 and 60 s; the message expires at 30 s.
        QCOMPARE(endpoint.count(), std::size_t(2));
        const std::vector<AttemptRecord> log = bench.attempts(subscription->subscriptionArn);
        QCOMPARE(log.size(), std::size_t(2));
        QCOMPARE(log.back().final.value_or(""), std::string("discarded"));
        QCOMPARE(bench.pendingCount(), std::int64_t(0));
    }

    void backlogLargerThanWindow_allDelivered()
    {
        DeliveryBench bench;
        bench.options().window = 16;
        QVERIFY(bench.open());
        ScriptEndpoint endpoint(&bench.engine().clock());
        endpoint.setScript({respond(200)});
        QVERIFY(bench.createTopic("orders"));
        QVERIFY(bench.subscribe("orders", endpoint.url()));
        QVERIFY(bench.publish("orders", "many", 100));
        QVERIFY(bench.advance(1s));
        QCOMPARE(endpoint.count(), std::size_t(100));
        QCOMPARE(bench.pendingCount(), std::int64_t(0));
    }

    void recordedAttempt_reportsSubscriptionCountsChanged()
    {
        DeliveryBench bench;
        QVERIFY(bench.open());
        ScriptEndpoint endpoint(&bench.engine().clock());
        endpoint.setScript({respond(200)});
        QVERIFY(bench.createTopic("orders"));
        Result<SubscribeReceipt> subscription = bench.subscribe("orders", endpoint.url());
        QVERIFY(subscription);
        QSignalSpy spy(&bench.engine(), &BrokerEngine::changesPublished);
        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(1s));
        const EntityChange expected{EntityChange::Kind::CountsChanged, EntityChange::Entity::Subscription,
                                    QString::fromStdString(subscription->subscriptionArn)};
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QList<QVariant> &signal : spy) {
                    const auto changes = signal.at(0).value<QList<EntityChange>>();
                    if (changes.contains(expected))
                        return true;
                }
                return false;
            }(),
            30000);
    }

    void unsubscribe_sendsOneUnsubscribeConfirmation()
    {
        DeliveryBench bench;
        QVERIFY(bench.open());
        ScriptEndpoint endpoint(&bench.engine().clock());
        endpoint.setScript({respond(200)});
        const std::string topicArn = bench.identity().topicArn("orders");
        const std::string subscriptionArn = topicArn + ":00000000-0000-4000-8000-00000000abcd";
        bench.worker().sendUnsubscribeConfirmation({endpoint.url(), topicArn, subscriptionArn, "token-1"});
        QVERIFY(bench.advance(0s));
        const auto received = endpoint.received();
        QCOMPARE(received.size(), std::size_t(1));
        QCOMPARE(received[0].headers.at("x-amz-sns-message-type"), std::string("UnsubscribeConfirmation"));
        const nlohmann::json envelope = nlohmann::json::parse(received[0].body);
        QCOMPARE(envelope.at("Type").get<std::string>(), std::string("UnsubscribeConfirmation"));
        QCOMPARE(envelope.at("Token").get<std::string>(), std::string("token-1"));
        QVERIFY(envelope.at("Message").get<std::string>().find(subscriptionArn) != std::string::npos);
        // Logged like any attempt, with its kind; not retried.
        const std::vector<AttemptRecord> log = bench.attempts(subscriptionArn);
        QCOMPARE(log.size(), std::size_t(1));
        QCOMPARE(log[0].kind, std::string("unsubscribeConfirmation"));
        QCOMPARE(log[0].messageId, envelope.at("MessageId").get<std::string>());
        QCOMPARE(log[0].httpStatus.value_or(0), 200);
        QCOMPARE(log[0].final.value_or(""), std::string("delivered"));
        QCOMPARE(log[0].plannedAt, log[0].startedAt);
    }
};

RELAYDESK_TEST_MAIN(DeliveryLogTest)
#include "delivery_log_test.moc"
