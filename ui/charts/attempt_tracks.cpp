// SPDX-License-Identifier: MIT
#include "charts/attempt_tracks.h"

#include <algorithm>
#include <tuple>

namespace relaydesk {

namespace {

const QString kThrottledWait = QStringLiteral("throttled-wait");

// The time the planned line of `track` starts at: its first attempt, or —
// when the window no longer holds it — the earliest attempt shown, less the
// time the schedule planned before it.
std::optional<std::int64_t> anchorOf(const MessageTrack &track, const RetrySchedule &schedule)
{
    for (const TrackPoint &point : track.points) {
        if (point.outcome == kThrottledWait)
            continue;
        if (point.attempt == 0)
            return point.atMs;
        if (point.attempt <= schedule.retries())
            return point.atMs - schedule.secondsUntilAttempt(point.attempt) * 1000;
        return std::nullopt;
    }
    return std::nullopt;
}

// Seconds from the previous attempt (not a throttled wait) to row `i`.
double delayBefore(const std::deque<TrackPoint> &points, std::size_t i)
{
    for (std::size_t j = i; j-- > 0;)
        if (points[j].outcome != kThrottledWait)
            return double(points[i].atMs - points[j].atMs) / 1000.0;
    return 0.0;
}

} // namespace

bool AttemptTracks::Key::operator<(const Key &other) const
{
    return std::tie(subscriptionArn, messageId, redelivery)
         < std::tie(other.subscriptionArn, other.messageId, other.redelivery);
}

int AttemptTracks::phaseIndex(const QString &phase)
{
    for (std::size_t i = 0; i < kPhases.size(); ++i)
        if (phase == QLatin1String(kPhases[i]))
            return static_cast<int>(i);
    return -1;
}

void AttemptTracks::setWindowMs(std::int64_t windowMs)
{
    windowMs = std::max<std::int64_t>(windowMs, kBuckets);
    if (windowMs == m_windowMs)
        return;
    m_windowMs = windowMs;
    m_buckets.clear(); // other widths; the next rows fill them again
}

std::int64_t AttemptTracks::bucketMs() const
{
    constexpr std::int64_t kWidths[] = {1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000,
                                        900000, 1800000, 3600000};
    const std::int64_t least = m_windowMs / kBuckets;
    for (std::int64_t width : kWidths)
        if (width >= least)
            return width;
    return least;
}

void AttemptTracks::setSchedule(const QString &subscriptionArn, std::optional<RetrySchedule> schedule)
{
    if (schedule)
        m_schedules[subscriptionArn] = std::move(*schedule);
    else
        m_schedules.erase(subscriptionArn);
}

const RetrySchedule *AttemptTracks::scheduleOf(const QString &subscriptionArn) const
{
    const auto found = m_schedules.find(subscriptionArn);
    return found == m_schedules.end() ? nullptr : &found->second;
}

std::int64_t AttemptTracks::longestPlanMs() const
{
    std::int64_t longest = 0;
    for (const auto &[arn, schedule] : m_schedules)
        longest = std::max(longest, schedule.secondsUntilAttempt(schedule.retries()) * 1000);
    return longest;
}

void AttemptTracks::add(const AttemptRecord &record)
{
    TrackPoint point;
    point.atMs = toEpochMilliseconds(record.startedAt);
    point.attempt = record.attempt;
    point.phase = QString::fromStdString(record.phase);
    point.outcome = QString::fromStdString(record.outcome);
    if (record.final)
        point.final = QString::fromStdString(*record.final);
    m_latestMs = std::max(m_latestMs.value_or(point.atMs), point.atMs);
    const int phase = std::max(phaseIndex(point.phase), 0);
    if (m_aggregated)
        return addToBucket(point.atMs, phase);

    const Key key{QString::fromStdString(record.subscriptionArn), QString::fromStdString(record.messageId),
                  record.redelivery};
    auto found = m_tracks.find(key);
    if (found == m_tracks.end()) {
        if (m_tracks.size() >= kMessageBound && !makeRoom()) {
            aggregate();
            return addToBucket(point.atMs, phase);
        }
        MessageTrack track;
        track.subscriptionArn = key.subscriptionArn;
        track.messageId = key.messageId;
        track.redelivery = key.redelivery;
        track.firstMs = point.atMs;
        found = m_tracks.emplace(key, std::move(track)).first;
    }
    MessageTrack &track = found->second;
    auto at = std::lower_bound(track.points.begin(), track.points.end(), point,
                               [](const TrackPoint &a, const TrackPoint &b) {
                                   return std::tie(a.atMs, a.attempt) < std::tie(b.atMs, b.attempt);
                               });
    if (at != track.points.end() && at->atMs == point.atMs && at->attempt == point.attempt
        && at->outcome == point.outcome) {
        at->final = point.final;
        return;
    }
    at = track.points.insert(at, point);
    const auto index = static_cast<std::size_t>(at - track.points.begin());
    for (std::size_t i = index; i < std::min(index + 3, track.points.size()); ++i)
        track.points[i].delaySeconds = delayBefore(track.points, i);
    while (track.points.size() > kPointsPerTrack)
        track.points.pop_front();
    track.firstMs = std::min(track.firstMs, point.atMs);
}

std::int64_t AttemptTracks::endMs(const MessageTrack &track) const
{
    std::int64_t last = track.points.empty() ? track.firstMs : track.points.back().atMs;
    if (track.points.empty() || !track.points.back().final)
        last = std::max(last, plannedEndMs(track).value_or(last));
    return last;
}

bool AttemptTracks::makeRoom()
{
    const std::int64_t windowStart = m_latestMs.value_or(0) - m_windowMs;
    auto oldest = m_tracks.end();
    std::int64_t oldestEnd = 0;
    for (auto it = m_tracks.begin(); it != m_tracks.end(); ++it) {
        const std::int64_t end = endMs(it->second);
        if (end < windowStart && (oldest == m_tracks.end() || end < oldestEnd)) {
            oldest = it;
            oldestEnd = end;
        }
    }
    if (oldest == m_tracks.end())
        return false;
    m_tracks.erase(oldest);
    return true;
}

std::optional<std::pair<std::int64_t, std::int64_t>> AttemptTracks::extent(const QString &messageId) const
{
    std::optional<std::pair<std::int64_t, std::int64_t>> span;
    const auto cover = [&span](std::int64_t from, std::int64_t to) {
        span = span ? std::pair{std::min(span->first, from), std::max(span->second, to)} : std::pair{from, to};
    };
    if (m_aggregated && messageId.isEmpty() && !m_buckets.empty())
        cover(m_buckets.begin()->first, m_buckets.rbegin()->first + bucketMs());
    for (const auto &[key, track] : m_tracks)
        if (messageId.isEmpty() || track.messageId == messageId)
            cover(track.firstMs, endMs(track));
    return span;
}

void AttemptTracks::clear()
{
    m_tracks.clear();
    m_buckets.clear();
    m_latestMs.reset();
    m_aggregated = false;
}

std::vector<const MessageTrack *> AttemptTracks::tracks() const
{
    std::vector<const MessageTrack *> result;
    result.reserve(m_tracks.size());
    for (const auto &[key, track] : m_tracks)
        result.push_back(&track);
    std::sort(result.begin(), result.end(), [](const MessageTrack *a, const MessageTrack *b) {
        return std::tie(a->firstMs, a->messageId) < std::tie(b->firstMs, b->messageId);
    });
    return result;
}

std::int64_t AttemptTracks::aggregatedAttempts() const
{
    std::int64_t total = 0;
    for (const auto &[start, counts] : m_buckets)
        for (int count : counts)
            total += count;
    return total;
}

std::vector<PlannedPoint> AttemptTracks::planned(const MessageTrack &track, std::int64_t untilMs) const
{
    const RetrySchedule *schedule = scheduleOf(track.subscriptionArn);
    if (!schedule)
        return {};
    const std::optional<std::int64_t> anchor = anchorOf(track, *schedule);
    if (!anchor)
        return {};
    std::vector<PlannedPoint> points;
    const std::int64_t attempts = schedule->attempts();
    for (std::int64_t attempt = 0; attempt < attempts && points.size() < kPlannedPointsLimit; ++attempt) {
        PlannedPoint point;
        point.attempt = attempt;
        point.atMs = *anchor + schedule->secondsUntilAttempt(attempt) * 1000;
        point.delaySeconds = attempt == 0 ? 0.0 : schedule->delayBeforeRetry(attempt);
        points.push_back(point);
        if (point.atMs > untilMs)
            break; // one past the edge, so the line reaches it
    }
    return points;
}

std::optional<std::int64_t> AttemptTracks::plannedEndMs(const MessageTrack &track) const
{
    const RetrySchedule *schedule = scheduleOf(track.subscriptionArn);
    if (!schedule)
        return std::nullopt;
    const std::optional<std::int64_t> anchor = anchorOf(track, *schedule);
    if (!anchor)
        return std::nullopt;
    return *anchor + schedule->secondsUntilAttempt(schedule->retries()) * 1000;
}

void AttemptTracks::addToBucket(std::int64_t atMs, int phase)
{
    const std::int64_t width = bucketMs();
    const std::int64_t start = (atMs >= 0 ? atMs / width : (atMs - width + 1) / width) * width;
    m_buckets[start][static_cast<std::size_t>(phase)] += 1;
    while (m_buckets.size() > static_cast<std::size_t>(kBuckets) * 2)
        m_buckets.erase(m_buckets.begin());
}

void AttemptTracks::aggregate()
{
    m_aggregated = true;
    for (const auto &[key, track] : m_tracks)
        for (const TrackPoint &point : track.points)
            addToBucket(point.atMs, std::max(phaseIndex(point.phase), 0));
    m_tracks.clear();
}

} // namespace relaydesk
