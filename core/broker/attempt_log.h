// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

// One row of the attempt log (SPEC 4.4). Times are clock time; durationMs is
// the wall time the request took. httpStatus empty = no response (errorKind
// names the transport failure); final empty until the delivery ended.
struct AttemptRecord {
    std::int64_t id = 0;                 // row id (attempt order); set by the log
    std::string messageId;
    std::string subscriptionArn;
    std::string kind = "notification";   // "notification", "subscriptionConfirmation", "unsubscribeConfirmation"
    std::int64_t attempt = 0;
    std::string phase;                   // "initial", "immediate", …
    ClockTime plannedAt{};
    ClockTime startedAt{};
    std::int64_t durationMs = 0;
    std::optional<int> httpStatus;
    std::optional<std::string> errorKind; // "timeout", "connectionError"
    std::string outcome;                 // attemptOutcomeName()
    std::optional<std::string> final;    // deliveryEndName(): delivered, deadLettered, discarded, confirmed
};

// A query of the log: one subscription, or the subscriptions of one topic
// (every ARN "TOPIC-ARN:…"), or all (neither set; not both); optionally one
// message and one kind; attempts started in [since, until) (either end
// optional), at most `limit` rows, oldest first.
struct AttemptQuery {
    std::optional<std::string> subscriptionArn;
    std::optional<std::string> topicArn;
    std::optional<std::string> kind;
    std::optional<std::string> messageId;
    std::optional<ClockTime> since;
    std::optional<ClockTime> until;
    std::size_t limit = 1000;
};

// The stored attempt log (table delivery_attempts). Free functions over a
// Database& the caller holds inside its transaction; same thread. Store
// failures come back as InternalError.
namespace attempt_log {

// The attempt kind of a delivery kind ("Notification" → "notification",
// "SubscriptionConfirmation" → "subscriptionConfirmation", …); empty for
// anything else.
std::string kindOfDelivery(std::string_view deliveryKind);
// Whether `kind` is one of the three attempt kinds.
bool isAttemptKind(std::string_view kind);

// Retention default: the newest this many rows are kept (see prune()).
inline constexpr std::size_t kDefaultRetainedAttempts = 100000;

// Appends `record` (its id is ignored); returns the row id.
Result<std::int64_t> append(Database &db, const AttemptRecord &record);
// Sets `final` on row `id`.
Status setFinal(Database &db, std::int64_t id, const std::string &final);
// The newest row of one message to one subscription, if any.
Result<std::optional<std::int64_t>> lastRowOf(Database &db, const std::string &subscriptionArn,
                                              const std::string &messageId);
Result<std::vector<AttemptRecord>> query(Database &db, const AttemptQuery &query);
// Deletes all but the newest `keep` rows; returns how many were deleted.
Result<std::int64_t> prune(Database &db, std::size_t keep);

// {"attempts": [ {messageId, subscriptionArn, kind, attempt, phase, plannedAt,
// startedAt, durationMs, httpStatus, outcome, final, errorKind}, … ]} (SPEC
// 4.4; kind and errorKind are extra keys, errorKind null when a status came). Pure.
std::string writeAttemptsJson(const std::vector<AttemptRecord> &records);

} // namespace attempt_log

} // namespace relaydesk
