// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/attempt_log.h"
#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/result.h"

#include "policy/retry_schedule.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relaydesk {

class Database;

// One logged row of a delivery, beside what the policy planned for it.
//  - scheduledAt: the policy's planned time of this attempt (first attempt's
//    start + RetrySchedule::secondsUntilAttempt), before jitter; nothing for
//    a throttled-wait row and past the schedule's end.
//  - jitterMs: startedAt − scheduledAt (0 without scheduledAt).
//  - throttleWaitMs: for an attempt preceded by its throttled-wait row, the
//    time from that row's start to this attempt's start; else 0.
struct TimelineAttempt {
    AttemptRecord record;
    std::optional<ClockTime> scheduledAt;
    std::int64_t jitterMs = 0;
    std::int64_t throttleWaitMs = 0;
};

// One attempt of the policy's plan: attempt number, phase, planned time.
struct PlannedAttempt {
    std::int64_t attempt = 0;
    std::string phase;
    ClockTime at{};
};

// One delivery of a message to a subscription (the publish's, or a redelivery).
//  - end: "delivered", "deadLettered", "discarded", "confirmed" (the log's
//    final), or "pending" while attempts remain.
//  - nextAttemptAt: when pending and stored, the next attempt's due time.
//  - deadLetterQueue: the dead-letter queue's name when dead-lettered (from
//    the subscription's RedrivePolicy as it is now).
//  - schedule: every attempt the subscription's effective delivery policy
//    (as it is now) plans from the first attempt's start, at most
//    kMaxPlannedAttempts of them; scheduleTruncated when there are more.
struct DeliveryTimeline {
    std::int64_t redelivery = 0;
    std::vector<TimelineAttempt> attempts;   // oldest first, throttled-wait rows included
    std::vector<PlannedAttempt> schedule;
    bool scheduleTruncated = false;
    std::string end = "pending";
    std::optional<ClockTime> nextAttemptAt;
    std::optional<std::string> deadLetterQueue;
};

// A message's timeline on one subscription: every delivery of it, oldest
// first. `redeliverable`: it has ended and the message is still stored (see
// redelivery.h), so BrokerService::redeliver will take it.
struct MessageTimeline {
    std::string subscriptionArn;
    std::string messageId;
    std::vector<DeliveryTimeline> deliveries;
    bool redeliverable = false;
};

namespace message_timeline {

inline constexpr std::int64_t kMaxPlannedAttempts = 1000;

// Reads the timeline from the log, the pending row and the subscription's
// effective policy. NotFound (BrokerErrorCode::NotFound) when the log has no
// row of this message to this subscription. The subscription may be gone:
// then the schedule is empty and nothing is redeliverable. Same thread as db.
Result<MessageTimeline> read(Database &db, const BrokerIdentity &identity, const std::string &subscriptionArn,
                             const std::string &messageId);

// Pure: the timeline of one delivery from its rows (oldest first, one
// redelivery number) and the schedule of the policy (none: the subscription
// is gone). Sets attempts, schedule and end (from the rows' final); leaves
// nextAttemptAt and deadLetterQueue to the caller.
DeliveryTimeline placeAttempts(std::vector<AttemptRecord> rows, const std::optional<RetrySchedule> &schedule);

// The body of GET /api/v1/attempts/timeline (docs/api.md):
//   {"subscriptionArn", "messageId", "redeliverable",
//    "deliveries": [{"redelivery", "end", "nextAttemptAt", "deadLetterQueue",
//                    "attempts": [attempt_log::attemptJson + "scheduledAt", "jitterMs", "throttleWaitMs"],
//                    "schedule": [{"attempt", "phase", "at"}], "scheduleTruncated"}]}
// Times ISO 8601 UTC; an absent nextAttemptAt, deadLetterQueue or
// scheduledAt is null. Pure (message_timeline_json.cpp).
std::string writeJson(const MessageTimeline &timeline);

} // namespace message_timeline

} // namespace relaydesk
