// SPDX-License-Identifier: MIT
#include "api/native/prometheus_text.h"

#include "broker/metrics/broker_metrics.h"

#include <cstdint>
#include <string>
#include <vector>

namespace relaydesk {

namespace {

constexpr TopicCounter kAttemptOutcomes[] = {TopicCounter::Delivered, TopicCounter::Retryable,
                                             TopicCounter::Permanent, TopicCounter::Timeout,
                                             TopicCounter::ConnectionError, TopicCounter::ThrottledWait};
constexpr TopicCounter kEnds[] = {TopicCounter::Delivered, TopicCounter::DeadLettered, TopicCounter::Discarded};

// Writes families: HELP and TYPE lines, then samples.
class FamilyWriter final {
public:
    explicit FamilyWriter(std::string &out) : m_out(out) {}

    void header(std::string_view name, std::string_view type, std::string_view help)
    {
        m_out.append("# HELP ").append(name).append(" ").append(help).append("\n");
        m_out.append("# TYPE ").append(name).append(" ").append(type).append("\n");
    }

    void sample(std::string_view name, std::string_view label, std::string_view entity, std::int64_t value,
                std::string_view label2 = {}, std::string_view value2 = {})
    {
        m_out.append(name).append("{").append(label).append("=\"").append(escapeLabelValue(entity)).append("\"");
        if (!label2.empty())
            m_out.append(",").append(label2).append("=\"").append(escapeLabelValue(value2)).append("\"");
        m_out.append("} ").append(std::to_string(value)).append("\n");
    }

    // A counter family of topics with a second label, one sample per topic and counter.
    template <std::size_t N>
    void topicFamily(std::string_view name, std::string_view help, const std::vector<TopicMetrics> &topics,
                     std::string_view label, const TopicCounter (&counters)[N])
    {
        header(name, "counter", help);
        for (const TopicMetrics &topic : topics)
            for (const TopicCounter counter : counters)
                sample(name, "topic", topic.name, topic[counter].total, label, topicCounterName(counter));
    }

private:
    std::string &m_out;
};

struct QueueFamily {
    std::string_view name;
    std::string_view type;
    std::string_view help;
    std::int64_t (*value)(const QueueMetrics &);
};

const std::vector<QueueFamily> &queueFamilies()
{
    static const std::vector<QueueFamily> families{
        {"relaydesk_queue_messages_sent_total", "counter",
         "Messages sent into the queue (SendMessage, each batch entry, each fan-out from a topic) since the broker started.",
         [](const QueueMetrics &q) { return q[QueueCounter::Sent].total; }},
        {"relaydesk_queue_messages_received_total", "counter",
         "Messages ReceiveMessage returned from the queue since the broker started.",
         [](const QueueMetrics &q) { return q[QueueCounter::Received].total; }},
        {"relaydesk_queue_messages_deleted_total", "counter",
         "Messages deleted from the queue (DeleteMessage, each batch entry) since the broker started.",
         [](const QueueMetrics &q) { return q[QueueCounter::Deleted].total; }},
        {"relaydesk_queue_messages_available", "gauge", "Messages available for receiving now.",
         [](const QueueMetrics &q) { return q.depths.available; }},
        {"relaydesk_queue_messages_in_flight", "gauge", "Messages received and not yet deleted or visible again.",
         [](const QueueMetrics &q) { return q.depths.inFlight; }},
        {"relaydesk_queue_messages_delayed", "gauge", "Messages whose DelaySeconds is still running.",
         [](const QueueMetrics &q) { return q.depths.delayed; }},
        {"relaydesk_queue_messages_scheduled", "gauge", "Messages scheduled for a later enqueue time.",
         [](const QueueMetrics &q) { return q.depths.scheduled; }},
        {"relaydesk_queue_messages_dead_lettered", "gauge",
         "Messages held in the queue that were moved into it as dead letters.",
         [](const QueueMetrics &q) { return q.depths.deadLettered; }},
    };
    return families;
}

} // namespace

std::string escapeLabelValue(std::string_view value)
{
    std::string escaped;
    escaped.reserve(value.size());
    for (const char c : value) {
        switch (c) {
        case '\\': escaped += "\\\\"; break;
        case '"': escaped += "\\\""; break;
        case '\n': escaped += "\\n"; break;
        default: escaped += c;
        }
    }
    return escaped;
}

std::string prometheusText(const MetricsSnapshot &snapshot)
{
    std::string out;
    out.reserve(512 + snapshot.queues.size() * 8 * 64 + snapshot.topics.size() * 10 * 80);
    FamilyWriter writer(out);
    for (const QueueFamily &family : queueFamilies()) {
        writer.header(family.name, family.type, family.help);
        for (const QueueMetrics &queue : snapshot.queues)
            writer.sample(family.name, "queue", queue.name, family.value(queue));
    }

    constexpr std::string_view published = "relaydesk_topic_messages_published_total";
    writer.header(published, "counter", "Messages published to the topic (each batch entry) since the broker started.");
    for (const TopicMetrics &topic : snapshot.topics)
        writer.sample(published, "topic", topic.name, topic[TopicCounter::Published].total);

    writer.topicFamily("relaydesk_topic_delivery_attempts_total",
                       "HTTP/S notification delivery attempts to the topic's subscriptions, by the attempt log's outcome.",
                       snapshot.topics, "outcome", kAttemptOutcomes);
    writer.topicFamily("relaydesk_topic_deliveries_ended_total",
                       "HTTP/S notification deliveries of the topic that ended, by how (the attempt log's final).",
                       snapshot.topics, "final", kEnds);
    return out;
}

} // namespace relaydesk
