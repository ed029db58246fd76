// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/attempt_log.h"
#include "policy/retry_schedule.h"

#include <QString>

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace relaydesk {

// One attempt as the live chart places it. Times are clock milliseconds since
// the epoch (UTC); delaySeconds is the time since the delivery's previous row
// (0 for its first).
struct TrackPoint {
    std::int64_t atMs = 0;
    std::int64_t attempt = 0;
    double delaySeconds = 0;
    QString phase;                 // "initial", "immediate", …
    QString outcome;               // attemptOutcomeName()
    std::optional<QString> final;  // set on the delivery's last row
};

// One delivery of one message to one subscription (the publish's or a
// redelivery), as the chart draws it: its rows, oldest first.
struct MessageTrack {
    QString subscriptionArn;
    QString messageId;
    std::int64_t redelivery = 0;
    std::int64_t firstMs = 0;      // the first row's start; the planned line starts there
    std::deque<TrackPoint> points;
};

// A planned attempt of a track's schedule: when, and its y in either mode.
struct PlannedPoint {
    std::int64_t atMs = 0;
    std::int64_t attempt = 0;
    double delaySeconds = 0;
};

// What the live attempt chart shows, kept apart from the drawing (pure, so
// tests and benchmarks feed it rows): the attempts grouped per message
// delivery while there are at most kMessageBound of them in the window, and
// from the first one more on, counts per phase per time bucket instead (the
// "aggregated" form: per-message detail is dropped and not rebuilt until
// clear()). Nothing goes because the clock moved on, so a finished delivery
// can still be shown whole (Fit all): a new delivery makes room by dropping
// the one that ended longest ago, if that ended before the window (the
// newest row less windowMs); when every one kept is in the window, the
// tracks turn into buckets. Memory is bounded however long it runs: at most
// kMessageBound tracks of at most kPointsPerTrack rows, and at most
// 2 × kBuckets buckets (the oldest go).
//
// The planned schedule of each subscription (setSchedule) gives a track's
// planned line from its first attempt (RetrySchedule::secondsUntilAttempt).
// Value type; GUI thread in practice, no Qt objects.
class AttemptTracks final {
public:
    static constexpr std::size_t kMessageBound = 20;
    static constexpr std::size_t kPointsPerTrack = 2000;
    static constexpr std::size_t kPlannedPointsLimit = 2000;
    static constexpr int kBuckets = 60;
    // The five phases of the log, in order: the bucket index of a phase.
    static constexpr std::array<const char *, 5> kPhases = {"initial", "immediate", "preBackoff", "backoff",
                                                            "postBackoff"};
    static int phaseIndex(const QString &phase); // -1 for an unknown phase

    // The window of the live view; the bucket width is the first of
    // 1, 2, 5, 10, 15, 30 s, 1, 2, 5, 10, 15, 30, 60 min at least window / kBuckets.
    void setWindowMs(std::int64_t windowMs);
    std::int64_t windowMs() const { return m_windowMs; }
    std::int64_t bucketMs() const;

    void setSchedule(const QString &subscriptionArn, std::optional<RetrySchedule> schedule);
    const RetrySchedule *scheduleOf(const QString &subscriptionArn) const;
    // The longest span (first to last attempt) of the schedules set, ms; 0 without one.
    std::int64_t longestPlanMs() const;

    // Adds a row, in any order of arrival; a row of the same delivery,
    // attempt and start replaces the one there (e.g. its final was set).
    void add(const AttemptRecord &record);
    void clear();

    bool aggregated() const { return m_aggregated; }
    // Per-message form: the tracks, oldest first delivery first.
    std::vector<const MessageTrack *> tracks() const;
    // Aggregated form: bucket start (ms) → attempts per phase (kPhases order).
    const std::map<std::int64_t, std::array<int, 5>> &buckets() const { return m_buckets; }
    // Attempts counted in the buckets (aggregated form).
    std::int64_t aggregatedAttempts() const;
    // The span of what is held, from the earliest row to the latest row or
    // planned attempt of an unfinished delivery (aggregated: the buckets'
    // span); nothing when empty. With a message id: that message's tracks only.
    std::optional<std::pair<std::int64_t, std::int64_t>> extent(const QString &messageId = {}) const;
    // The newest row time added, or nothing yet.
    std::optional<std::int64_t> latestMs() const { return m_latestMs; }

    // The planned attempts of `track` under its subscription's schedule from
    // its first attempt up to `untilMs` (at most kPlannedPointsLimit); empty
    // without a schedule.
    std::vector<PlannedPoint> planned(const MessageTrack &track, std::int64_t untilMs) const;
    // The planned end (last attempt) of `track`, if it has a schedule.
    std::optional<std::int64_t> plannedEndMs(const MessageTrack &track) const;

private:
    struct Key {
        QString subscriptionArn;
        QString messageId;
        std::int64_t redelivery = 0;
        bool operator<(const Key &other) const;
    };
    void addToBucket(std::int64_t atMs, int phase);
    // Drops the track that ended longest ago if it ended before the window; false if none did.
    bool makeRoom();
    std::int64_t endMs(const MessageTrack &track) const;
    void aggregate();

    std::int64_t m_windowMs = 10 * 60 * 1000;
    std::map<QString, RetrySchedule> m_schedules;
    std::map<Key, MessageTrack> m_tracks;
    std::map<std::int64_t, std::array<int, 5>> m_buckets;
    std::optional<std::int64_t> m_latestMs;
    bool m_aggregated = false;
};

} // namespace relaydesk
