// SPDX-License-Identifier: MIT
#include "broker/metrics/broker_metrics.h"

#include "broker/clock.h"

#include <algorithm>

namespace relaydesk {

namespace {

constexpr std::array<std::string_view, kQueueCounterCount> kQueueCounterNames{"sent", "received", "deleted"};
constexpr std::array<std::string_view, kTopicCounterCount> kTopicCounterNames{
    "published", "delivered", "retryable", "permanent", "timeout", "connectionError", "throttled-wait",
    "deadLettered", "discarded"};

MetricCount countOf(const MinuteRing &ring, ClockTime now)
{
    MetricCount count;
    count.total = ring.total();
    for (std::size_t i = 0; i < kRateWindowMinutes.size(); ++i)
        count.inWindow[i] = ring.inLast(kRateWindowMinutes[i], now);
    return count;
}

template <std::size_t N>
std::array<MetricCount, N> countsOf(const std::array<MinuteRing, N> &rings, ClockTime now)
{
    std::array<MetricCount, N> counts{};
    for (std::size_t i = 0; i < N; ++i)
        counts[i] = countOf(rings[i], now);
    return counts;
}

void addCounts(QueueCounts &sum, const QueueCounts &counts)
{
    sum.available += counts.available;
    sum.inFlight += counts.inFlight;
    sum.delayed += counts.delayed;
    sum.scheduled += counts.scheduled;
    sum.deadLettered += counts.deadLettered;
}

template <class Entries>
auto findByName(const Entries &entries, std::string_view name) -> decltype(&entries.front())
{
    const auto it = std::lower_bound(entries.begin(), entries.end(), name,
                                     [](const auto &entry, std::string_view key) { return entry.name < key; });
    return it != entries.end() && it->name == name ? &*it : nullptr;
}

} // namespace

std::string_view queueCounterName(QueueCounter counter) { return kQueueCounterNames[std::size_t(counter)]; }
std::string_view topicCounterName(TopicCounter counter) { return kTopicCounterNames[std::size_t(counter)]; }

TopicCounter topicCounterOf(AttemptOutcome outcome)
{
    switch (outcome) {
    case AttemptOutcome::Delivered:
        return TopicCounter::Delivered;
    case AttemptOutcome::Retryable:
        return TopicCounter::Retryable;
    case AttemptOutcome::Permanent:
        return TopicCounter::Permanent;
    case AttemptOutcome::Timeout:
        return TopicCounter::Timeout;
    case AttemptOutcome::ConnectionError:
        return TopicCounter::ConnectionError;
    case AttemptOutcome::ThrottledWait:
        break;
    }
    return TopicCounter::ThrottledWait;
}

std::optional<TopicCounter> topicCounterOf(DeliveryEnd end)
{
    switch (end) {
    case DeliveryEnd::DeadLettered:
        return TopicCounter::DeadLettered;
    case DeliveryEnd::Discarded:
        return TopicCounter::Discarded;
    case DeliveryEnd::Delivered:
    case DeliveryEnd::Confirmed:
        break;
    }
    return std::nullopt;
}

const QueueMetrics *MetricsSnapshot::queue(std::string_view name) const { return findByName(queues, name); }
const TopicMetrics *MetricsSnapshot::topic(std::string_view name) const { return findByName(topics, name); }

BrokerMetrics::BrokerMetrics(const Clock &clock) : m_clock(clock), m_countingSince(clock.now()) {}

MetricsSnapshot BrokerMetrics::snapshot() const { return snapshotAt(m_clock.now()); }

MetricsSnapshot BrokerMetrics::snapshotAt(ClockTime now) const
{
    MetricsSnapshot snapshot;
    snapshot.at = now;
    std::lock_guard lock(m_mutex);
    snapshot.countingSince = m_countingSince;
    snapshot.queueTotals = countsOf(m_queueTotals, now);
    snapshot.topicTotals = countsOf(m_topicTotals, now);
    for (std::size_t i = 0; i < kQueueCounterCount; ++i)
        snapshot.queueTotalsByMinute[i] = m_queueTotals[i].lastHour(now);
    for (std::size_t i = 0; i < kTopicCounterCount; ++i)
        snapshot.topicTotalsByMinute[i] = m_topicTotals[i].lastHour(now);
    snapshot.queues.reserve(m_queues.size());
    for (const auto &[name, series] : m_queues) {
        snapshot.queues.push_back(QueueMetrics{name, countsOf(series.rings, now), series.depths, series.depthsAt});
        addCounts(snapshot.depthTotals, series.depths);
    }
    snapshot.topics.reserve(m_topics.size());
    for (const auto &[name, series] : m_topics)
        snapshot.topics.push_back(TopicMetrics{name, countsOf(series.rings, now)});
    return snapshot;
}

void BrokerMetrics::record(const std::vector<MetricEvent> &events, ClockTime at)
{
    if (events.empty())
        return;
    std::lock_guard lock(m_mutex);
    for (const MetricEvent &event : events) {
        const auto index = std::size_t(event.counter);
        if (event.entity == MetricEvent::Entity::Queue) {
            if (index >= kQueueCounterCount)
                continue;
            m_queueTotals[index].add(at, event.count);
            if (QueueSeries *series = queueSeriesLocked(event.name))
                series->rings[index].add(at, event.count);
        } else {
            if (index >= kTopicCounterCount)
                continue;
            m_topicTotals[index].add(at, event.count);
            if (TopicSeries *series = seriesLocked(m_topics, event.name))
                series->rings[index].add(at, event.count);
        }
    }
}

void BrokerMetrics::addQueue(const std::string &name)
{
    std::lock_guard lock(m_mutex);
    queueLocked(name).stale = true;
    m_toRead.insert(name);
}

void BrokerMetrics::addTopic(const std::string &name)
{
    std::lock_guard lock(m_mutex);
    topicLocked(name);
}

void BrokerMetrics::removeQueue(const std::string &name)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_queues.find(name);
    if (it == m_queues.end())
        return;
    if (it->second.nextVisible)
        m_visibleAt.erase({*it->second.nextVisible, name});
    m_toRead.erase(name);
    m_queues.erase(it);
}

void BrokerMetrics::removeTopic(const std::string &name)
{
    std::lock_guard lock(m_mutex);
    m_topics.erase(name);
}

void BrokerMetrics::markStale(const std::string &name)
{
    std::lock_guard lock(m_mutex);
    if (QueueSeries *series = queueSeriesLocked(name)) {
        series->stale = true;
        m_toRead.insert(name);
    }
}

std::vector<std::string> BrokerMetrics::queuesToRefresh(ClockTime now) const
{
    std::lock_guard lock(m_mutex);
    std::vector<std::string> names(m_toRead.begin(), m_toRead.end());
    for (auto due = m_visibleAt.begin(); due != m_visibleAt.end() && due->first <= now; ++due)
        if (!m_toRead.contains(due->second))
            names.push_back(due->second);
    std::sort(names.begin(), names.end());
    return names;
}

void BrokerMetrics::setDepths(const std::string &name, const QueueCounts &depths,
                              std::optional<ClockTime> nextVisible, ClockTime at)
{
    std::lock_guard lock(m_mutex);
    const auto it = m_queues.find(name);
    if (it != m_queues.end())
        setDepthsLocked(name, it->second, depths, nextVisible, at);
}

void BrokerMetrics::setDepthsLocked(const std::string &name, QueueSeries &series, const QueueCounts &depths,
                                    std::optional<ClockTime> nextVisible, ClockTime at)
{
    if (series.nextVisible)
        m_visibleAt.erase({*series.nextVisible, name});
    if (nextVisible)
        m_visibleAt.insert({*nextVisible, name});
    m_toRead.erase(name);
    series.depths = depths;
    series.nextVisible = nextVisible;
    series.depthsAt = at;
    series.stale = false;
}

void BrokerMetrics::loadEntities(const EntityOverview &overview, ClockTime at)
{
    std::lock_guard lock(m_mutex);
    std::map<std::string, QueueSeries, std::less<>> queues;
    m_toRead.clear();
    m_visibleAt.clear();
    for (const QueueOverview &queue : overview.queues) {
        auto node = m_queues.extract(queue.name);
        QueueSeries &series = node ? queues.insert(std::move(node)).position->second : queues[queue.name];
        series.nextVisible.reset(); // its old entry went with m_visibleAt
        setDepthsLocked(queue.name, series, queue.counts, queue.nextVisible, at);
    }
    std::map<std::string, TopicSeries, std::less<>> topics;
    for (const TopicOverview &topic : overview.topics) {
        auto node = m_topics.extract(topic.name);
        if (node)
            topics.insert(std::move(node));
        else
            topics.try_emplace(topic.name);
    }
    m_queues = std::move(queues);
    m_topics = std::move(topics);
    m_entitiesLoaded = true;
}

bool BrokerMetrics::entitiesLoaded() const
{
    std::lock_guard lock(m_mutex);
    return m_entitiesLoaded;
}

template <class Series>
Series *BrokerMetrics::seriesLocked(std::map<std::string, Series, std::less<>> &entities, const std::string &name)
{
    if (!m_entitiesLoaded)
        return &entities.try_emplace(name).first->second;
    const auto it = entities.find(name);
    return it == entities.end() ? nullptr : &it->second;
}

BrokerMetrics::QueueSeries *BrokerMetrics::queueSeriesLocked(const std::string &name)
{
    if (!m_entitiesLoaded)
        return &queueLocked(name);
    const auto it = m_queues.find(name);
    return it == m_queues.end() ? nullptr : &it->second;
}

BrokerMetrics::QueueSeries &BrokerMetrics::queueLocked(const std::string &name)
{
    const auto [it, made] = m_queues.try_emplace(name);
    if (made)
        m_toRead.insert(name); // never read
    return it->second;
}

BrokerMetrics::TopicSeries &BrokerMetrics::topicLocked(const std::string &name)
{
    return m_topics.try_emplace(name).first->second;
}

} // namespace relaydesk
