// SPDX-License-Identifier: MIT
// The two forms of the engine's metrics: the Prometheus text exposition
// (HELP/TYPE lines, labels escaped per the format, counters and gauges per
// queue and topic) and the JSON of GET /api/v1/metrics (its shape).
#include "broker/metrics/broker_metrics.h"
#include "api/native/metrics_json.h"
#include "api/native/prometheus_text.h"
#include "support/test_main.h"

#include <QtTest>

#include <sstream>

using namespace relaydesk;

namespace {

MetricCount count(std::int64_t total, std::int64_t last5, std::int64_t last15, std::int64_t last60)
{
    return MetricCount{total, {last5, last15, last60}};
}

MetricsSnapshot sample(const std::string &queueName, const std::string &topicName)
{
    MetricsSnapshot snapshot;
    snapshot.at = fromEpochMilliseconds(1'800'000'000'000);
    snapshot.countingSince = snapshot.at;
    QueueMetrics queue;
    queue.name = queueName;
    queue.counters = {count(7, 5, 7, 7), count(3, 3, 3, 3), count(2, 0, 2, 2)};
    queue.depths = QueueCounts{1, 2, 3, 4, 5};
    queue.depthsAt = snapshot.at;
    snapshot.queues.push_back(queue);
    TopicMetrics topic;
    topic.name = topicName;
    topic.counters[std::size_t(TopicCounter::Published)] = count(4, 4, 4, 4);
    topic.counters[std::size_t(TopicCounter::Retryable)] = count(6, 6, 6, 6);
    topic.counters[std::size_t(TopicCounter::Delivered)] = count(3, 3, 3, 3);
    topic.counters[std::size_t(TopicCounter::DeadLettered)] = count(1, 1, 1, 1);
    topic.counters[std::size_t(TopicCounter::ThrottledWait)] = count(2, 2, 2, 2);
    snapshot.topics.push_back(topic);
    snapshot.queueTotals = queue.counters;
    snapshot.topicTotals = topic.counters;
    snapshot.depthTotals = queue.depths;
    return snapshot;
}

std::vector<std::string> linesOf(const std::string &text)
{
    std::vector<std::string> lines;
    std::istringstream stream(text);
    for (std::string line; std::getline(stream, line);)
        lines.push_back(line);
    return lines;
}

bool hasLine(const std::string &text, const std::string &line)
{
    const auto lines = linesOf(text);
    return std::find(lines.begin(), lines.end(), line) != lines.end();
}

} // namespace

class MetricsTextTest final : public QObject {
    Q_OBJECT

private slots:
    void escapeLabelValue_escapesBackslashQuoteAndNewline_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("escaped");
        QTest::newRow("plain") << "orders-1.fifo" << "orders-1.fifo";
        QTest::newRow("backslash") << "a\\b" << "a\\\\b";
        QTest::newRow("quote") << "say \"hi\"" << "say \\\"hi\\\"";
        QTest::newRow("newline") << "two\nlines" << "two\\nlines";
        QTest::newRow("all three") << "\\\"\n" << "\\\\\\\"\\n";
        QTest::newRow("utf-8 kept") << QString::fromUtf8("caf\u00e9") << QString::fromUtf8("caf\u00e9");
        QTest::newRow("empty") << "" << "";
    }
    void escapeLabelValue_escapesBackslashQuoteAndNewline()
    {
        QFETCH(QString, value);
        QFETCH(QString, escaped);
        QCOMPARE(QString::fromStdString(escapeLabelValue(value.toStdString())), escaped);
    }

    void prometheusText_familiesWithHelpTypeAndLabels()
    {
        const std::string text = prometheusText(sample("orders", "news"));
        QVERIFY(text.back() == '\n');
        QVERIFY(hasLine(text, "# TYPE relaydesk_queue_messages_sent_total counter"));
        QVERIFY(hasLine(text, "relaydesk_queue_messages_sent_total{queue=\"orders\"} 7"));
        QVERIFY(hasLine(text, "relaydesk_queue_messages_received_total{queue=\"orders\"} 3"));
        QVERIFY(hasLine(text, "relaydesk_queue_messages_deleted_total{queue=\"orders\"} 2"));
        QVERIFY(hasLine(text, "# TYPE relaydesk_queue_messages_available gauge"));
        QVERIFY(hasLine(text, "relaydesk_queue_messages_available{queue=\"orders\"} 1"));
        QVERIFY(hasLine(text, "relaydesk_queue_messages_in_flight{queue=\"orders\"} 2"));
        QVERIFY(hasLine(text, "relaydesk_queue_messages_delayed{queue=\"orders\"} 3"));
        QVERIFY(hasLine(text, "relaydesk_queue_messages_scheduled{queue=\"orders\"} 4"));
        QVERIFY(hasLine(text, "relaydesk_queue_messages_dead_lettered{queue=\"orders\"} 5"));
        QVERIFY(hasLine(text, "relaydesk_topic_messages_published_total{topic=\"news\"} 4"));
        QVERIFY(hasLine(text, "relaydesk_topic_delivery_attempts_total{topic=\"news\",outcome=\"retryable\"} 6"));
        QVERIFY(hasLine(text, "relaydesk_topic_delivery_attempts_total{topic=\"news\",outcome=\"throttled-wait\"} 2"));
        QVERIFY(hasLine(text, "relaydesk_topic_delivery_attempts_total{topic=\"news\",outcome=\"timeout\"} 0"));
        QVERIFY(hasLine(text, "relaydesk_topic_deliveries_ended_total{topic=\"news\",final=\"delivered\"} 3"));
        QVERIFY(hasLine(text, "relaydesk_topic_deliveries_ended_total{topic=\"news\",final=\"deadLettered\"} 1"));
        // Every family: HELP then TYPE, once, before its samples; every name prefixed.
        int helps = 0;
        std::string family;
        for (const std::string &line : linesOf(text)) {
            if (line.rfind("# HELP ", 0) == 0) {
                ++helps;
                family = line.substr(7, line.find(' ', 7) - 7);
                continue;
            }
            if (line.rfind("# TYPE ", 0) == 0) {
                QCOMPARE(line.substr(7, family.size()), family);
                continue;
            }
            QVERIFY2(line.rfind(family + "{", 0) == 0, line.c_str());
        }
        QCOMPARE(helps, 11);
    }

    void prometheusText_escapesEntityNames()
    {
        const std::string text = prometheusText(sample("a\"b\\c\nd", "t"));
        QVERIFY(hasLine(text, "relaydesk_queue_messages_sent_total{queue=\"a\\\"b\\\\c\\nd\"} 7"));
    }

    void prometheusText_noEntities_onlyHeaders()
    {
        const std::string text = prometheusText(MetricsSnapshot{});
        for (const std::string &line : linesOf(text))
            QVERIFY2(line.rfind("# ", 0) == 0, line.c_str());
    }

    void metricsJson_shape()
    {
        const nlohmann::json json = metricsJson(sample("orders", "news"));
        QCOMPARE(json["at"].get<std::string>(), std::string("2027-01-15T08:00:00.000Z"));
        QCOMPARE(json["atMs"].get<std::int64_t>(), std::int64_t(1'800'000'000'000));
        QCOMPARE(json["windowsMinutes"], nlohmann::json({5, 15, 60}));
        const nlohmann::json sent = json["totals"]["sent"];
        QCOMPARE(sent["total"].get<int>(), 7);
        QCOMPARE(sent["last5m"].get<int>(), 5);
        QCOMPARE(sent["last15m"].get<int>(), 7);
        QCOMPARE(sent["last60m"].get<int>(), 7);
        QCOMPARE(sent.size(), std::size_t(4));
        for (const char *key : {"sent", "received", "deleted", "published", "delivered", "retryable", "permanent",
                                "timeout", "connectionError", "throttled-wait", "deadLettered", "discarded"})
            QVERIFY2(json["totals"].contains(key), key);
        QCOMPARE(json["depths"], nlohmann::json({{"available", 1}, {"inFlight", 2}, {"delayed", 3},
                                                 {"scheduled", 4}, {"deadLettered", 5}}));
        QCOMPARE(json["queues"].size(), std::size_t(1));
        QCOMPARE(json["queues"][0]["name"].get<std::string>(), std::string("orders"));
        QCOMPARE(json["queues"][0]["counters"]["deleted"]["total"].get<int>(), 2);
        QCOMPARE(json["queues"][0]["depthsAt"].get<std::string>(), std::string("2027-01-15T08:00:00.000Z"));
        QCOMPARE(json["topics"][0]["counters"]["retryable"]["total"].get<int>(), 6);
        QCOMPARE(json["topics"][0]["counters"].size(), std::size_t(kTopicCounterCount));
    }
};

RELAYDESK_TEST_MAIN(MetricsTextTest)
#include "metrics_text_test.moc"
