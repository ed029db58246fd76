// SPDX-License-Identifier: MIT
#include "api/native/metrics_json.h"

#include "broker/metrics/broker_metrics.h"

#include <string>

namespace relaydesk {

namespace {

using Json = nlohmann::json;

Json countJson(const MetricCount &count)
{
    Json json = {{"total", count.total}};
    for (std::size_t i = 0; i < kRateWindowMinutes.size(); ++i)
        json["last" + std::to_string(kRateWindowMinutes[i]) + "m"] = count.inWindow[i];
    return json;
}

Json depthsJson(const QueueCounts &depths)
{
    return {{"available", depths.available},
            {"inFlight", depths.inFlight},
            {"delayed", depths.delayed},
            {"scheduled", depths.scheduled},
            {"deadLettered", depths.deadLettered}};
}

template <class Counter, std::size_t N, class Name>
void addCounters(Json &into, const std::array<MetricCount, N> &counts, Name name)
{
    for (std::size_t i = 0; i < N; ++i)
        into[std::string(name(Counter(i)))] = countJson(counts[i]);
}

} // namespace

nlohmann::json metricsJson(const MetricsSnapshot &snapshot)
{
    Json totals = Json::object();
    addCounters<QueueCounter>(totals, snapshot.queueTotals, queueCounterName);
    addCounters<TopicCounter>(totals, snapshot.topicTotals, topicCounterName);
    Json queues = Json::array();
    for (const QueueMetrics &queue : snapshot.queues) {
        Json counters = Json::object();
        addCounters<QueueCounter>(counters, queue.counters, queueCounterName);
        queues.push_back({{"name", queue.name},
                          {"counters", std::move(counters)},
                          {"depths", depthsJson(queue.depths)},
                          {"depthsAt", queue.depthsAt ? Json(formatIso8601(*queue.depthsAt)) : Json()}});
    }
    Json topics = Json::array();
    for (const TopicMetrics &topic : snapshot.topics) {
        Json counters = Json::object();
        addCounters<TopicCounter>(counters, topic.counters, topicCounterName);
        topics.push_back({{"name", topic.name}, {"counters", std::move(counters)}});
    }
    Json windows = Json::array();
    for (int minutes : kRateWindowMinutes)
        windows.push_back(minutes);
    return {{"at", formatIso8601(snapshot.at)},
            {"atMs", toEpochMilliseconds(snapshot.at)},
            {"countingSince", formatIso8601(snapshot.countingSince)},
            {"windowsMinutes", std::move(windows)},
            {"totals", std::move(totals)},
            {"depths", depthsJson(snapshot.depthTotals)},
            {"queues", std::move(queues)},
            {"topics", std::move(topics)}};
}

} // namespace relaydesk
