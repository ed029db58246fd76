// SPDX-License-Identifier: MIT
#include "broker/deliveries/message_timeline.h"

#include "broker/deliveries/pending_delivery.h"
#include "broker/deliveries/pending_delivery_step.h"
#include "broker/store_calls.h"
#include "broker/topics/subscription_records.h"

namespace relaydesk::message_timeline {

namespace {

constexpr std::string_view kThrottledWait = "throttled-wait";

std::int64_t millisecondsBetween(ClockTime from, ClockTime to)
{
    return toEpochMilliseconds(to) - toEpochMilliseconds(from);
}

// The subscription's stored row id, when it still exists.
Result<std::optional<std::int64_t>> subscriptionIdOf(Database &db, const BrokerIdentity &identity,
                                                     const std::string &subscriptionArn)
{
    Result<BrokerIdentity::SubscriptionRef> ref = identity.subscriptionFromArn(subscriptionArn);
    if (!ref)
        return std::optional<std::int64_t>();
    Result<std::optional<SubscriptionRecord>> found = subscription_records::findByUuid(db, ref->subscriptionId);
    if (!found)
        return found.error();
    if (!*found || (*found)->topicName != ref->topicName)
        return std::optional<std::int64_t>();
    return std::optional<std::int64_t>((*found)->id);
}

// The due time of the pending delivery of `messageId` to subscription `id`.
Result<std::optional<std::int64_t>> pendingDueOf(Database &db, std::int64_t subscriptionId, const std::string &messageId)
{
    return selectOptionalInt64(db,
                               "SELECT p.due_ms FROM pending_deliveries p JOIN published_messages m ON m.id = "
                               "p.published_id WHERE p.subscription_id = ? AND m.message_id = ?",
                               subscriptionId, messageId);
}

Result<bool> isStored(Database &db, const std::string &messageId)
{
    Result<std::optional<std::int64_t>> found =
        selectOptionalInt64(db,
                            "SELECT 1 FROM finished_messages WHERE message_id = ?1 UNION ALL "
                            "SELECT 1 FROM published_messages WHERE message_id = ?1 LIMIT 1",
                            messageId);
    if (!found)
        return found.error();
    return found->has_value();
}

} // namespace

DeliveryTimeline placeAttempts(std::vector<AttemptRecord> rows, const std::optional<RetrySchedule> &schedule)
{
    DeliveryTimeline delivery;
    if (rows.empty())
        return delivery;
    delivery.redelivery = rows.front().redelivery;
    // The first attempt's start anchors the plan (a throttled wait before it
    // does not: the plan starts when the first request went out).
    std::optional<ClockTime> first;
    for (const AttemptRecord &row : rows) {
        if (row.outcome != kThrottledWait) {
            first = row.startedAt;
            break;
        }
    }
    const auto scheduledAt = [&](std::int64_t attempt) -> std::optional<ClockTime> {
        if (!schedule || !first || attempt < 0 || attempt >= schedule->attempts())
            return std::nullopt;
        return *first + std::chrono::seconds(schedule->secondsUntilAttempt(attempt));
    };
    std::optional<ClockTime> waitStarted;
    for (AttemptRecord &row : rows) {
        TimelineAttempt placed;
        if (row.outcome == kThrottledWait) {
            waitStarted = row.startedAt;
        } else {
            placed.scheduledAt = scheduledAt(row.attempt);
            if (placed.scheduledAt)
                placed.jitterMs = millisecondsBetween(*placed.scheduledAt, row.startedAt);
            if (waitStarted)
                placed.throttleWaitMs = millisecondsBetween(*waitStarted, row.startedAt);
            waitStarted.reset();
        }
        if (row.final)
            delivery.end = *row.final;
        placed.record = std::move(row);
        delivery.attempts.push_back(std::move(placed));
    }
    if (schedule && first) {
        const std::int64_t planned = std::min(schedule->attempts(), kMaxPlannedAttempts);
        delivery.scheduleTruncated = schedule->attempts() > planned;
        for (std::int64_t attempt = 0; attempt < planned; ++attempt)
            delivery.schedule.push_back(PlannedAttempt{attempt, phaseOfAttempt(*schedule, attempt), *scheduledAt(attempt)});
    }
    return delivery;
}

Result<MessageTimeline> read(Database &db, const BrokerIdentity &identity, const std::string &subscriptionArn,
                             const std::string &messageId)
{
    AttemptQuery query;
    query.subscriptionArn = subscriptionArn;
    query.messageId = messageId;
    Result<std::vector<AttemptRecord>> rows = attempt_log::all(db, query);
    if (!rows)
        return rows.error();
    if (rows->empty())
        return BrokerError(BrokerErrorCode::SnsNotFound,
                           "No attempt of message " + messageId + " to " + subscriptionArn + " is logged.");

    Result<std::optional<std::int64_t>> subscriptionId = subscriptionIdOf(db, identity, subscriptionArn);
    if (!subscriptionId)
        return subscriptionId.error();
    std::optional<DeliveryJob> part;
    if (*subscriptionId) {
        Result<std::optional<DeliveryJob>> read = pending_deliveries::subscriptionPart(db, identity, **subscriptionId);
        if (!read)
            return read.error();
        part = std::move(*read);
    }
    const std::optional<RetrySchedule> schedule =
        part ? std::optional<RetrySchedule>(part->schedule) : std::nullopt;

    MessageTimeline timeline;
    timeline.subscriptionArn = subscriptionArn;
    timeline.messageId = messageId;
    // Rows come oldest first; a delivery's rows are contiguous in it, as a
    // redelivery starts only after the previous delivery ended.
    std::vector<AttemptRecord> group;
    const auto flush = [&] {
        if (!group.empty())
            timeline.deliveries.push_back(placeAttempts(std::exchange(group, {}), schedule));
    };
    for (AttemptRecord &row : *rows) {
        if (!group.empty() && group.front().redelivery != row.redelivery)
            flush();
        group.push_back(std::move(row));
    }
    flush();

    DeliveryTimeline &last = timeline.deliveries.back();
    if (last.end == "pending" && *subscriptionId) {
        Result<std::optional<std::int64_t>> due = pendingDueOf(db, **subscriptionId, messageId);
        if (!due)
            return due.error();
        if (*due)
            last.nextAttemptAt = fromEpochMilliseconds(**due);
    }
    for (DeliveryTimeline &delivery : timeline.deliveries) {
        if (delivery.end == "deadLettered" && part && part->deadLetterTargetArn) {
            if (const std::optional<ArnParts> queue = splitArn(*part->deadLetterTargetArn))
                delivery.deadLetterQueue = queue->resource;
        }
    }
    const bool notification = timeline.deliveries.front().attempts.front().record.kind == "notification";
    if (last.end != "pending" && part && notification) {
        Result<bool> stored = isStored(db, messageId);
        if (!stored)
            return stored.error();
        timeline.redeliverable = *stored;
    }
    return timeline;
}

} // namespace relaydesk::message_timeline
