// SPDX-License-Identifier: MIT
// BrokerService's attempt-log calls (the window's Deliveries page) on a real
// engine under the virtual clock over a database file (so reads run on a
// pool thread through their own connection): a known policy against an
// endpoint scripted "503 x 3, then 200" logs exactly the planned attempts
// and a timeline that matches them; each filter; keyset paging in both
// orders returns every row once; counts; export to CSV parses back to the
// same rows; redeliver logs a new delivery and refuses the bad cases; the
// AttemptsLogged change arrives.
#include "engine/broker_service.h"

#include "broker/deliveries/attempt_export.h"
#include "support/call_and_wait.h"
#include "support/delivery_service_bench.h"
#include "support/test_main.h"

#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

Q_DECLARE_METATYPE(relaydesk::AttemptQuery)

namespace {

// Attempt 0 (initial) at 0 s, 1 immediate retry at 0 s, 1 pre-backoff retry
// 5 s later, no backoff retries, 1 post-backoff retry 20 s after that.
constexpr const char *kPolicy =
    R"({"http":{"defaultHealthyRetryPolicy":{"numRetries":3,"numNoDelayRetries":1,"numMinDelayRetries":1,)"
    R"("numMaxDelayRetries":1,"minDelayTarget":5,"maxDelayTarget":20,"backoffFunction":"linear"}}})";

// DeliveryServiceBench with the calls these tests make.
class AttemptServiceBench final {
public:
    AttemptServiceBench(const QTemporaryDir &dir, const char *file) : m_bench(dir, file, true) {}

    BrokerEngine &engine() { return m_bench.engine(); }
    BrokerService &service() { return m_bench.service(); }
    ScriptEndpoint &endpoint() { return m_bench.endpoint(); }

    // Topic "orders" with kPolicy and one confirmed http subscription to the endpoint.
    std::string subscribe()
    {
        const Result<std::string> topic = callAndWait<std::string>([&](auto reply) {
            service().createTopic("orders", {{"DeliveryPolicy", kPolicy}}, {}, nullptr, reply);
        });
        if (!topic) {
            qWarning("createTopic: %s", topic.error().message.c_str());
            return {};
        }
        Result<SubscribeReceipt> receipt = callAndWait<SubscribeReceipt>([&](auto reply) {
            service().subscribe("orders", "http", endpoint().url(), {}, true, nullptr, reply);
        });
        return receipt ? receipt->subscriptionArn : std::string();
    }
    std::string publish(const std::string &message)
    {
        PublishRequest request;
        request.message = message;
        Result<PublishReceipt> receipt =
            callAndWait<PublishReceipt>([&](auto reply) { service().publish("orders", request, nullptr, reply); });
        return receipt ? receipt->messageId : std::string();
    }
    Result<AttemptPage> page(const AttemptQuery &query)
    {
        return callAndWait<AttemptPage>([&](auto reply) { service().queryAttempts(query, nullptr, reply); });
    }
    // Every row of the log, oldest first.
    std::vector<AttemptRecord> rows(const std::string &subscriptionArn)
    {
        AttemptQuery query;
        query.subscriptionArn = subscriptionArn;
        Result<AttemptPage> found = page(query);
        return found ? found->rows : std::vector<AttemptRecord>{};
    }
    Result<MessageTimeline> timeline(const std::string &subscriptionArn, const std::string &messageId)
    {
        return callAndWait<MessageTimeline>(
            [&](auto reply) { service().messageTimeline(subscriptionArn, messageId, nullptr, reply); });
    }
    Result<Redelivery> redeliver(const std::string &subscriptionArn, const std::string &messageId)
    {
        return callAndWait<Redelivery>(
            [&](auto reply) { service().redeliver(subscriptionArn, messageId, nullptr, reply); });
    }
    // Appends `records` to the log directly (filters and paging need no endpoint).
    bool seed(const std::vector<AttemptRecord> &records)
    {
        return engine().executeAndWait([records](Database &db, ClockTime) -> Result<bool> {
                for (const AttemptRecord &record : records) {
                    if (Result<std::int64_t> appended = attempt_log::append(db, record); !appended)
                        return appended.error();
                }
                return true;
            })
            .ok();
    }

private:
    DeliveryServiceBench m_bench;
};

ClockTime at(std::int64_t seconds) { return kBenchStart + std::chrono::seconds(seconds); }

// Row i of the seeded log: subscription sub-a (even i) or sub-b (odd i) of
// topic "t"; message m<i % 3>; the outcomes, phases and statuses cycle.
AttemptRecord seeded(int i)
{
    static const char *outcomes[] = {"retryable", "delivered", "timeout", "permanent", "throttled-wait"};
    static const char *phases[] = {"initial", "immediate", "preBackoff", "backoff", "postBackoff"};
    static const std::optional<int> statuses[] = {503, 200, std::nullopt, 404, std::nullopt};
    AttemptRecord record;
    record.messageId = "m" + std::to_string(i % 3);
    record.subscriptionArn = std::string("arn:aws:sns:us-east-1:000000000000:t:") + (i % 2 == 0 ? "sub-a" : "sub-b");
    record.attempt = i;
    record.outcome = outcomes[i % 5];
    record.phase = phases[i % 5];
    record.httpStatus = statuses[i % 5];
    if (!record.httpStatus && record.outcome == "timeout")
        record.errorKind = "timeout";
    record.plannedAt = at(i);
    record.startedAt = at(i);
    record.durationMs = 10 + i;
    record.kind = i % 7 == 6 ? "subscriptionConfirmation" : "notification";
    return record;
}

// A small RFC 4180 reader (quoted fields, doubled quotes, CRLF records).
std::vector<std::vector<std::string>> parseCsv(const std::string &text)
{
    std::vector<std::vector<std::string>> records;
    std::vector<std::string> record;
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            record.push_back(std::exchange(field, {}));
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            record.push_back(std::exchange(field, {}));
            records.push_back(std::exchange(record, {}));
            ++i;
        } else {
            field += c;
        }
    }
    return records;
}

// Whether the engine published `change` (a changesPublished spy).
bool heard(const QSignalSpy &spy, const EntityChange &change)
{
    for (const QList<QVariant> &signal : spy) {
        if (signal.at(0).value<QList<EntityChange>>().contains(change))
            return true;
    }
    return false;
}

std::optional<std::string> optionalField(const std::string &field)
{
    return field.empty() ? std::nullopt : std::optional<std::string>(field);
}

} // namespace

class AttemptLogServiceTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_files = 0;
    std::string nextFile() { return "attempts" + std::to_string(++m_files) + ".db"; }

private slots:
    void scriptedFailures_logExactlyThePlannedAttempts_andTheTimelineMatches()
    {
        QVERIFY(m_dir.isValid());
        AttemptServiceBench bench(m_dir, nextFile().c_str());
        const std::string arn = bench.subscribe();
        QVERIFY(!arn.empty());
        bench.endpoint().setScript({respond(503), respond(503), respond(503), respond(200)});
        QSignalSpy spy(&bench.engine(), &BrokerEngine::changesPublished);
        const std::string messageId = bench.publish("hello");
        QVERIFY(!messageId.empty());
        QVERIFY(bench.engine().advanceClockAndWait(0s));
        QVERIFY(bench.engine().advanceClockAndWait(60s));

        const std::vector<AttemptRecord> rows = bench.rows(arn);
        QCOMPARE(rows.size(), std::size_t(4));
        const std::int64_t seconds[] = {0, 0, 5, 25};
        const char *phases[] = {"initial", "immediate", "preBackoff", "postBackoff"};
        for (std::size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i].messageId, messageId);
            QCOMPARE(rows[i].attempt, std::int64_t(i));
            QCOMPARE(rows[i].phase, std::string(phases[i]));
            QCOMPARE(rows[i].startedAt, at(seconds[i]));
            QCOMPARE(rows[i].plannedAt, at(seconds[i]));
            QCOMPARE(rows[i].httpStatus, std::optional<int>(i < 3 ? 503 : 200));
            QCOMPARE(rows[i].outcome, std::string(i < 3 ? "retryable" : "delivered"));
            QCOMPARE(rows[i].final, i < 3 ? std::nullopt : std::optional<std::string>("delivered"));
            QCOMPARE(rows[i].redelivery, std::int64_t(0));
        }

        const Result<MessageTimeline> timeline = bench.timeline(arn, messageId);
        QVERIFY(timeline);
        QCOMPARE(timeline->deliveries.size(), std::size_t(1));
        const DeliveryTimeline &delivery = timeline->deliveries.front();
        QCOMPARE(delivery.end, std::string("delivered"));
        QCOMPARE(delivery.attempts.size(), std::size_t(4));
        QCOMPARE(delivery.schedule.size(), std::size_t(4));
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(delivery.schedule[i].at, at(seconds[i]));
            QCOMPARE(delivery.schedule[i].phase, std::string(phases[i]));
            QCOMPARE(delivery.attempts[i].scheduledAt, std::optional<ClockTime>(at(seconds[i])));
            QCOMPARE(delivery.attempts[i].jitterMs, std::int64_t(0));
            QCOMPARE(delivery.attempts[i].throttleWaitMs, std::int64_t(0));
        }
        QVERIFY(timeline->redeliverable);

        // The window learns of the rows without polling.
        const EntityChange logged{EntityChange::Kind::AttemptsLogged, EntityChange::Entity::Subscription,
                                  QString::fromStdString(arn)};
        QTRY_VERIFY_WITH_TIMEOUT(heard(spy, logged), 30000);
    }

    // A fan-out an SQS queue refuses is logged by the publish; the window
    // hears of it like any other attempt.
    void refusedFanOut_reportsAttemptsLogged()
    {
        AttemptServiceBench bench(m_dir, nextFile().c_str());
        QVERIFY(callAndWait<std::string>([&](auto reply) {
            bench.service().createQueue("small", {{"MaximumMessageSize", "1024"}}, {}, nullptr, reply);
        }));
        QVERIFY(callAndWait<std::string>(
            [&](auto reply) { bench.service().createTopic("orders", {}, {}, nullptr, reply); }));
        const Result<SubscribeReceipt> subscribed = callAndWait<SubscribeReceipt>([&](auto reply) {
            bench.service().subscribe("orders", "sqs", BrokerIdentity{}.queueArn("small"), {{"RawMessageDelivery", "true"}},
                                      true, nullptr, reply);
        });
        QVERIFY(subscribed);
        QSignalSpy spy(&bench.engine(), &BrokerEngine::changesPublished);
        QVERIFY(!bench.publish(std::string(2000, 'm')).empty());
        QCOMPARE(bench.rows(subscribed->subscriptionArn).size(), std::size_t(1));
        const EntityChange logged{EntityChange::Kind::AttemptsLogged, EntityChange::Entity::Subscription,
                                  QString::fromStdString(subscribed->subscriptionArn)};
        QTRY_VERIFY_WITH_TIMEOUT(heard(spy, logged), 30000);
    }

    void filters_data()
    {
        QTest::addColumn<AttemptQuery>("query");
        QTest::addColumn<int>("expected");   // rows of the 70 seeded that match
        const auto with = [](auto set) {
            AttemptQuery query;
            query.limit = 10000;
            set(query);
            return query;
        };
        QTest::newRow("all") << with([](AttemptQuery &) {}) << 70;
        QTest::newRow("subscription")
            << with([](AttemptQuery &q) { q.subscriptionArn = "arn:aws:sns:us-east-1:000000000000:t:sub-a"; }) << 35;
        QTest::newRow("topic") << with([](AttemptQuery &q) { q.topicArn = "arn:aws:sns:us-east-1:000000000000:t"; }) << 70;
        QTest::newRow("other topic") << with([](AttemptQuery &q) { q.topicArn = "arn:aws:sns:us-east-1:000000000000:u"; })
                                     << 0;
        QTest::newRow("message") << with([](AttemptQuery &q) { q.messageId = "m1"; }) << 23;
        QTest::newRow("kind") << with([](AttemptQuery &q) { q.kind = "subscriptionConfirmation"; }) << 10;
        QTest::newRow("outcome") << with([](AttemptQuery &q) { q.outcome = "timeout"; }) << 14;
        QTest::newRow("outcome throttled-wait") << with([](AttemptQuery &q) { q.outcome = "throttled-wait"; }) << 14;
        QTest::newRow("phase") << with([](AttemptQuery &q) { q.phase = "backoff"; }) << 14;
        QTest::newRow("status 2xx") << with([](AttemptQuery &q) { q.statusClass = "2xx"; }) << 14;
        QTest::newRow("status 3xx") << with([](AttemptQuery &q) { q.statusClass = "3xx"; }) << 0;
        QTest::newRow("status 4xx") << with([](AttemptQuery &q) { q.statusClass = "4xx"; }) << 14;
        QTest::newRow("status 5xx") << with([](AttemptQuery &q) { q.statusClass = "5xx"; }) << 14;
        QTest::newRow("status none") << with([](AttemptQuery &q) { q.statusClass = "none"; }) << 28;
        QTest::newRow("since/until") << with([](AttemptQuery &q) { q.since = at(10); q.until = at(20); }) << 10;
        QTest::newRow("afterId") << with([](AttemptQuery &q) { q.afterId = 60; }) << 10;
        QTest::newRow("beforeId") << with([](AttemptQuery &q) { q.beforeId = 11; }) << 10;
        QTest::newRow("combined") << with([](AttemptQuery &q) {
            q.subscriptionArn = "arn:aws:sns:us-east-1:000000000000:t:sub-b";
            q.outcome = "delivered";
            q.statusClass = "2xx";
        }) << 7;
    }
    void filters()
    {
        QFETCH(AttemptQuery, query);
        QFETCH(int, expected);
        AttemptServiceBench bench(m_dir, nextFile().c_str());
        std::vector<AttemptRecord> records;
        for (int i = 0; i < 70; ++i)
            records.push_back(seeded(i));
        QVERIFY(bench.seed(records));
        const Result<AttemptPage> page = bench.page(query);
        QVERIFY(page);
        QCOMPARE(int(page->rows.size()), expected);
        QVERIFY(!page->more);
        // Every row matches what was asked, and no other seeded row does.
        int matching = 0;
        for (int i = 0; i < 70; ++i) {
            const AttemptRecord record = seeded(i);
            const std::int64_t id = i + 1;
            const bool matches =
                (!query.subscriptionArn || record.subscriptionArn == *query.subscriptionArn) &&
                (!query.topicArn || record.subscriptionArn.rfind(*query.topicArn + ":", 0) == 0) &&
                (!query.messageId || record.messageId == *query.messageId) &&
                (!query.kind || record.kind == *query.kind) && (!query.outcome || record.outcome == *query.outcome) &&
                (!query.phase || record.phase == *query.phase) &&
                (!query.statusClass ||
                 (*query.statusClass == "none" ? !record.httpStatus
                                               : record.httpStatus && *record.httpStatus / 100 ==
                                                                          query.statusClass->front() - '0')) &&
                (!query.since || record.startedAt >= *query.since) && (!query.until || record.startedAt < *query.until) &&
                (!query.afterId || id > *query.afterId) && (!query.beforeId || id < *query.beforeId);
            matching += matches ? 1 : 0;
        }
        QCOMPARE(matching, expected);
        const Result<std::int64_t> counted =
            callAndWait<std::int64_t>([&](auto reply) { bench.service().countAttempts(query, nullptr, reply); });
        QVERIFY(counted);
        QCOMPARE(*counted, std::int64_t(expected));
    }

    void paging_data()
    {
        QTest::addColumn<bool>("newestFirst");
        QTest::addColumn<int>("pageSize");
        QTest::addColumn<bool>("topic");   // a topic's pages are merged from its subscriptions'
        QTest::newRow("oldest first, 40") << false << 40 << false;
        QTest::newRow("newest first, 40") << true << 40 << false;
        QTest::newRow("newest first, 1") << true << 1 << false;
        QTest::newRow("oldest first, exact pages") << false << 50 << false;
        QTest::newRow("topic, newest first, 40") << true << 40 << true;
        QTest::newRow("topic, oldest first, 33") << false << 33 << true;
    }
    void paging()
    {
        QFETCH(bool, newestFirst);
        QFETCH(int, pageSize);
        QFETCH(bool, topic);
        AttemptServiceBench bench(m_dir, nextFile().c_str());
        std::vector<AttemptRecord> records;
        for (int i = 0; i < 250; ++i)
            records.push_back(seeded(i));
        QVERIFY(bench.seed(records));
        AttemptQuery query;
        query.order = newestFirst ? AttemptOrder::NewestFirst : AttemptOrder::OldestFirst;
        query.limit = std::size_t(pageSize);
        if (topic)
            query.topicArn = "arn:aws:sns:us-east-1:000000000000:t";
        std::vector<std::int64_t> ids;
        for (int pages = 0;; ++pages) {
            QVERIFY(pages <= 250);
            const Result<AttemptPage> page = bench.page(query);
            QVERIFY(page);
            QVERIFY(page->rows.size() <= std::size_t(pageSize));
            for (const AttemptRecord &row : page->rows)
                ids.push_back(row.id);
            if (!page->more)
                break;
            QCOMPARE(page->rows.size(), std::size_t(pageSize));
            (newestFirst ? query.beforeId : query.afterId) = page->rows.back().id;
        }
        QCOMPARE(ids.size(), std::size_t(250));
        for (std::size_t i = 0; i < ids.size(); ++i)
            QCOMPARE(ids[i], newestFirst ? std::int64_t(250 - i) : std::int64_t(i + 1));
    }

    void queryLimit_outOfRange_isRefused()
    {
        AttemptServiceBench bench(m_dir, nextFile().c_str());
        for (std::size_t limit : {std::size_t(0), std::size_t(10001)}) {
            AttemptQuery query;
            query.limit = limit;
            const Result<AttemptPage> page = bench.page(query);
            QVERIFY(!page);
            QCOMPARE(page.error().code, BrokerErrorCode::InvalidParameterValue);
        }
    }

    void exportCsv_parsesBackToTheSameRows()
    {
        AttemptServiceBench bench(m_dir, nextFile().c_str());
        std::vector<AttemptRecord> records;
        for (int i = 0; i < 30; ++i)
            records.push_back(seeded(i));
        records[3].messageId = "comma, \"quote\"\r\nand lines";
        records[4].errorKind = "connectionError";
        records[5].final = "deadLettered";
        records[6].redelivery = 2;
        records[7].error = "mock endpoint ghost does not exist";
        QVERIFY(bench.seed(records));
        AttemptQuery query;
        query.limit = 7;   // an export ignores the page size: every matching row
        const Result<std::string> csv = callAndWait<std::string>(
            [&](auto reply) { bench.service().exportAttempts(query, AttemptExportFormat::Csv, nullptr, reply); });
        QVERIFY(csv);
        const auto parsed = parseCsv(*csv);
        QCOMPARE(parsed.size(), records.size() + 1);
        QCOMPARE(parsed[0], std::vector<std::string>(std::begin(attempt_export::kCsvColumns),
                                                     std::end(attempt_export::kCsvColumns)));
        for (std::size_t i = 0; i < records.size(); ++i) {
            const std::vector<std::string> &f = parsed[i + 1];
            QCOMPARE(f.size(), std::size(attempt_export::kCsvColumns));
            const AttemptRecord &r = records[i];
            QCOMPARE(f[0], r.messageId);
            QCOMPARE(f[1], r.subscriptionArn);
            QCOMPARE(std::stoll(f[2]), r.attempt);
            QCOMPARE(f[3], r.phase);
            QCOMPARE(parseIso8601(f[4]), std::optional<ClockTime>(r.plannedAt));
            QCOMPARE(parseIso8601(f[5]), std::optional<ClockTime>(r.startedAt));
            QCOMPARE(std::stoll(f[6]), r.durationMs);
            QCOMPARE(f[7].empty() ? std::optional<int>() : std::optional<int>(std::stoi(f[7])), r.httpStatus);
            QCOMPARE(f[8], r.outcome);
            QCOMPARE(optionalField(f[9]), r.final);
            QCOMPARE(f[10], r.kind);
            QCOMPARE(optionalField(f[11]), r.errorKind);
            QCOMPARE(std::stoll(f[12]), r.redelivery);
            QCOMPARE(optionalField(f[13]), r.error);
        }

        const QString path = m_dir.filePath(QStringLiteral("export.json"));
        const Result<std::int64_t> written = callAndWait<std::int64_t>([&](auto reply) {
            bench.service().exportAttemptsToFile(query, AttemptExportFormat::Json, path.toStdString(), nullptr, reply);
        });
        QVERIFY(written);
        QCOMPARE(*written, std::int64_t(records.size()));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const nlohmann::json json = nlohmann::json::parse(file.readAll().toStdString());
        QCOMPARE(json.at("attempts").size(), records.size());
        QCOMPARE(json.at("attempts")[3].at("messageId").get<std::string>(), records[3].messageId);
    }

    void redeliver_logsANewDelivery_andRefusesTheBadCases()
    {
        AttemptServiceBench bench(m_dir, nextFile().c_str());
        const std::string arn = bench.subscribe();
        QVERIFY(!arn.empty());
        bench.endpoint().setScript({respond(200)});
        const std::string messageId = bench.publish("replay me");
        QVERIFY(bench.engine().advanceClockAndWait(0s));
        QCOMPARE(bench.rows(arn).size(), std::size_t(1));

        const Result<Redelivery> started = bench.redeliver(arn, messageId);
        QVERIFY2(started, started ? "" : started.error().message.c_str());
        QCOMPARE(started->redelivery, std::int64_t(1));
        QVERIFY(bench.engine().advanceClockAndWait(0s));
        const std::vector<AttemptRecord> rows = bench.rows(arn);
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[1].messageId, messageId);
        QCOMPARE(rows[1].attempt, std::int64_t(0));
        QCOMPARE(rows[1].phase, std::string("initial"));
        QCOMPARE(rows[1].redelivery, std::int64_t(1));
        QCOMPARE(rows[1].final, std::optional<std::string>("delivered"));
        QCOMPARE(bench.endpoint().count(), std::size_t(2));
        const auto received = bench.endpoint().received();
        QCOMPARE(nlohmann::json::parse(received[1].body).value("MessageId", ""), messageId);
        QCOMPARE(nlohmann::json::parse(received[1].body).value("Message", ""), std::string("replay me"));
        const Result<MessageTimeline> timeline = bench.timeline(arn, messageId);
        QVERIFY(timeline);
        QCOMPARE(timeline->deliveries.size(), std::size_t(2));
        QCOMPARE(timeline->deliveries[1].redelivery, std::int64_t(1));

        // Refusals: unknown subscription, unknown message, still in progress.
        const std::string unknownArn = arn.substr(0, arn.rfind(':') + 1) + "00000000-0000-4000-8000-000000000000";
        const Result<Redelivery> noSubscription = bench.redeliver(unknownArn, messageId);
        QVERIFY(!noSubscription);
        QCOMPARE(noSubscription.error().code, BrokerErrorCode::SnsNotFound);
        const Result<Redelivery> noMessage = bench.redeliver(arn, "no-such-message");
        QVERIFY(!noMessage);
        QCOMPARE(noMessage.error().code, BrokerErrorCode::SnsNotFound);
        bench.endpoint().setScript({respond(503)});
        const std::string failing = bench.publish("keeps failing");
        QVERIFY(bench.engine().advanceClockAndWait(0s));   // attempts 0 and 1 fail; attempt 2 is 5 s away
        const Result<Redelivery> inProgress = bench.redeliver(arn, failing);
        QVERIFY(!inProgress);
        QCOMPARE(inProgress.error().code, BrokerErrorCode::DeliveryInProgress);
        const Result<MessageTimeline> pending = bench.timeline(arn, failing);
        QVERIFY(pending);
        QCOMPARE(pending->deliveries.back().end, std::string("pending"));
        QCOMPARE(pending->deliveries.back().nextAttemptAt, std::optional<ClockTime>(at(5)));
        QVERIFY(!pending->redeliverable);
    }
};

RELAYDESK_TEST_MAIN(AttemptLogServiceTest)
#include "attempt_log_service_test.moc"
