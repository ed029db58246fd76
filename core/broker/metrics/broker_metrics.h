// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/metrics/entity_overview.h"
#include "broker/metrics/minute_ring.h"
#include "broker/deliveries/pending_delivery_step.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Clock;

// What is counted per queue: messages sent into it (SendMessage, each entry
// of a batch, and each fan-out from a topic's sqs subscription), received
// (each message a ReceiveMessage returned) and deleted (DeleteMessage and
// each deleted entry of a batch; a purge is not counted).
enum class QueueCounter { Sent, Received, Deleted };
inline constexpr std::size_t kQueueCounterCount = 3;
// "sent", "received", "deleted"
std::string_view queueCounterName(QueueCounter counter);

// What is counted per topic: messages published (each entry of a batch), and
// the HTTP/S notification deliveries by outcome — one count per attempt
// with the attempt log's outcome (docs/behaviour.md §4.4: delivered, retryable, permanent,
// timeout, connectionError, throttled-wait) and one per delivery that ended
// dead-lettered or discarded (the log's `final`). Confirmation messages
// (Subscription/UnsubscribeConfirmation) are not counted; sqs fan-out counts
// as Sent on the queue.
enum class TopicCounter {
    Published,
    Delivered,
    Retryable,
    Permanent,
    Timeout,
    ConnectionError,
    ThrottledWait,
    DeadLettered,
    Discarded,
};
inline constexpr std::size_t kTopicCounterCount = 9;
// "published", "delivered", "retryable", "permanent", "timeout",
// "connectionError", "throttled-wait", "deadLettered", "discarded" (the
// attempt log's words).
std::string_view topicCounterName(TopicCounter counter);
// The counter of an attempt's outcome, and of a delivery's end (DeadLettered,
// Discarded; nothing for Delivered — its attempt counted — and Confirmed).
TopicCounter topicCounterOf(AttemptOutcome outcome);
std::optional<TopicCounter> topicCounterOf(DeliveryEnd end);

// One counted fact of a committed unit: `count` of `counter` on the queue
// or topic `name`. A unit reports them through UnitContext::countQueue /
// countTopic; the engine records them only when the unit's batch commits.
struct MetricEvent {
    enum class Entity { Queue, Topic };
    Entity entity = Entity::Queue;
    int counter = 0;             // a QueueCounter or TopicCounter, by `entity`
    std::string name;            // queue or topic name
    std::int64_t count = 1;

    bool operator==(const MetricEvent &) const = default;
};

// The rate windows, in minutes of clock time.
inline constexpr std::array<int, 3> kRateWindowMinutes{5, 15, 60};

// One counter as the snapshot gives it: the total since the broker started
// and how many fell in each rate window (kRateWindowMinutes order). A window
// of W minutes covers the current clock minute and the W − 1 before it
// (whole minutes since the epoch, clock time), so per minute = inWindow[i] / W.
struct MetricCount {
    std::int64_t total = 0;
    std::array<std::int64_t, 3> inWindow{};

    double perMinute(std::size_t window) const { return double(inWindow[window]) / kRateWindowMinutes[window]; }
    bool operator==(const MetricCount &) const = default;
};

struct QueueMetrics {
    std::string name;
    std::array<MetricCount, kQueueCounterCount> counters{}; // by QueueCounter
    // The queue's depths (docs/behaviour.md §8.4 counts: available, in flight, delayed,
    // scheduled, dead-lettered = dead letters held in this queue) as of the
    // last refresh (see BrokerMetrics); zero until the first one.
    QueueCounts depths;
    std::optional<ClockTime> depthsAt;                      // when they were read; empty: never yet

    const MetricCount &operator[](QueueCounter counter) const { return counters[std::size_t(counter)]; }
    bool operator==(const QueueMetrics &) const = default;
};

struct TopicMetrics {
    std::string name;
    std::array<MetricCount, kTopicCounterCount> counters{}; // by TopicCounter

    const MetricCount &operator[](TopicCounter counter) const { return counters[std::size_t(counter)]; }
    bool operator==(const TopicMetrics &) const = default;
};

// Everything at one clock time; a plain value (copy it anywhere).
struct MetricsSnapshot {
    ClockTime at{};                                          // the clock time it was taken at
    ClockTime countingSince{};                               // when counting started (broker start)
    // Over all queues and topics, including ones deleted since (their
    // counts stay in the totals; only their own series go).
    std::array<MetricCount, kQueueCounterCount> queueTotals{};
    std::array<MetricCount, kTopicCounterCount> topicTotals{};
    // The totals per clock minute over the last hour, oldest first; the last
    // entry is the current minute (for a chart; bounded).
    std::array<std::array<std::int64_t, MinuteRing::kMinutes>, kQueueCounterCount> queueTotalsByMinute{};
    std::array<std::array<std::int64_t, MinuteRing::kMinutes>, kTopicCounterCount> topicTotalsByMinute{};
    QueueCounts depthTotals;                                 // the sum of every queue's depths
    std::vector<QueueMetrics> queues;                        // every queue that exists, by name
    std::vector<TopicMetrics> topics;                        // every topic that exists, by name

    const MetricCount &total(QueueCounter counter) const { return queueTotals[std::size_t(counter)]; }
    const MetricCount &total(TopicCounter counter) const { return topicTotals[std::size_t(counter)]; }
    const QueueMetrics *queue(std::string_view name) const;
    const TopicMetrics *topic(std::string_view name) const;
};

// The counters the engine keeps as operations commit, their rates over the
// last 5 / 15 / 60 minutes of clock time, and each queue's depths (the
// window's dashboard; served as GET /api/v1/metrics and GET /metrics).
//
// Counters: recorded from committed units only (a rolled-back unit counts
// nothing), at the unit's clock time, into per-minute buckets of a ring of
// one hour per counter per entity — bounded memory however long the broker
// runs. They start from zero when the broker starts (they are not stored).
//
// Depths: read from the counters the store keeps per queue (broker/queues/
// queue_depths.h: O(1) per read plus the messages whose state changed by time
// alone since the queue's mark — never a walk over the queue). A delay or a
// lock ending moves messages between states without any operation, so the
// engine still re-reads: it marks a queue stale when a committed unit reports
// CountsChanged/Created for it, and re-reads the stale queues (in a unit of
// its own) when it publishes its coalesced changes (at most every change
// interval, 250 ms by default) and before the HTTP routes answer; a queue
// whose next visibility time has passed counts as stale too. So a snapshot's
// depths are at most one change interval old after an operation; a state
// change by time alone is seen at the next refresh (refreshQueueDepths in
// engine/metrics_recording.h; the dashboard may call it before it reads).
// At start (BrokerHost: the first refresh) every queue's counters are checked
// against a full count (repaired and logged when they differ) and every queue
// and topic is read from the store, so the depths are right from the first
// snapshot on.
//
// Entities: a queue or topic appears when created (or, before the first
// refresh read the store, when it is first counted) and its series go when
// it is deleted; a count for a queue or topic that is gone reaches the totals only.
//
// Ownership: made and owned by BrokerEngine (BrokerEngine::metrics(),
// BrokerHost::metrics()); borrows the Clock, which outlives it.
// Thread: every method is safe from any thread (one mutex; the record
// methods are called on the broker thread after each commit, snapshot()
// from the GUI thread or an HTTP route — it copies under the mutex and
// never touches the store: about 0.3 ms with 1 000 queues, docs/figures.md "Metrics").
class BrokerMetrics final {
public:
    explicit BrokerMetrics(const Clock &clock);
    BrokerMetrics(const BrokerMetrics &) = delete;
    BrokerMetrics &operator=(const BrokerMetrics &) = delete;

    // Any thread. The state at the clock's now(), or at `now` (tests).
    MetricsSnapshot snapshot() const;
    MetricsSnapshot snapshotAt(ClockTime now) const;

    // --- Recording (the engine; tests). Any thread. ---
    // Counts `events` at clock time `at`; an entity not known after
    // loadEntities (deleted meanwhile) gets the totals only.
    void record(const std::vector<MetricEvent> &events, ClockTime at);
    // Entities appearing and going (the engine applies the committed
    // EntityChanges: Created/Deleted of queues and topics). A queue added
    // has stale depths.
    void addQueue(const std::string &name);
    void addTopic(const std::string &name);
    void removeQueue(const std::string &name);
    void removeTopic(const std::string &name);
    // The store's entities at `at` (the first depth refresh): the queues and
    // topics become exactly those of `overview` (counters of those that stay
    // are kept), with the overview's depths.
    void loadEntities(const EntityOverview &overview, ClockTime at);
    // Whether loadEntities was called.
    bool entitiesLoaded() const;
    // Marks a queue's depths stale (a name not seen yet: as record()).
    void markStale(const std::string &name);
    // The queues whose depths need a read at `now`: stale, never read, or
    // whose `nextVisible` has passed; by name. O(those queues), not
    // O(queues): called every change interval on the broker thread.
    std::vector<std::string> queuesToRefresh(ClockTime now) const;
    // Sets a queue's depths as read at `at`, with the earliest time a message
    // of it changes state by time alone; clears its stale mark. Ignored for a
    // queue that is not there (deleted meanwhile).
    void setDepths(const std::string &name, const QueueCounts &depths, std::optional<ClockTime> nextVisible,
                   ClockTime at);

private:
    struct QueueSeries {
        std::array<MinuteRing, kQueueCounterCount> rings;
        QueueCounts depths;
        std::optional<ClockTime> depthsAt;
        std::optional<ClockTime> nextVisible;
        bool stale = true;
    };
    struct TopicSeries {
        std::array<MinuteRing, kTopicCounterCount> rings;
    };

    // Callers hold m_mutex. The series a count goes to: before loadEntities
    // any name's (made on first use), after it only an existing entity's —
    // a count for one deleted meanwhile (a delivery in flight) reaches the
    // totals only, so a gone entity never comes back.
    template <class Series>
    Series *seriesLocked(std::map<std::string, Series, std::less<>> &entities, const std::string &name);
    QueueSeries *queueSeriesLocked(const std::string &name);
    QueueSeries &queueLocked(const std::string &name);
    TopicSeries &topicLocked(const std::string &name);

    // Callers hold m_mutex.
    void setDepthsLocked(const std::string &name, QueueSeries &series, const QueueCounts &depths,
                         std::optional<ClockTime> nextVisible, ClockTime at);

    const Clock &m_clock;
    ClockTime m_countingSince{};
    mutable std::mutex m_mutex;
    bool m_entitiesLoaded = false;
    std::array<MinuteRing, kQueueCounterCount> m_queueTotals{};
    std::array<MinuteRing, kTopicCounterCount> m_topicTotals{};
    std::map<std::string, QueueSeries, std::less<>> m_queues;
    std::map<std::string, TopicSeries, std::less<>> m_topics;
    // The index of queuesToRefresh: the queues stale or never read, and
    // each read queue's nextVisible (both kept with m_queues).
    std::set<std::string, std::less<>> m_toRead;
    std::set<std::pair<ClockTime, std::string>> m_visibleAt;
};

} // namespace relaydesk
