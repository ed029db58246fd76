// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <nlohmann/json_fwd.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

// One row of the attempt log (docs/behaviour.md §4.4). Times are clock time; durationMs is
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
    // In words, what the status or errorKind alone does not say: "mock
    // endpoint NAME does not exist" (a 404 of this broker's /_mock/); empty otherwise.
    std::optional<std::string> error;
    std::string outcome;                 // attemptOutcomeName()
    std::optional<std::string> final;    // deliveryEndName(): delivered, deadLettered, discarded, confirmed
    // Which delivery of the message to the subscription this attempt belongs
    // to: 0 = the delivery the publish started, n = the n-th redelivery
    // (BrokerService::redeliver; attempt numbering restarts at 0 in each).
    std::int64_t redelivery = 0;
};

// The order of a query's rows (by row id, which is attempt order).
enum class AttemptOrder { OldestFirst, NewestFirst };

// A query of the log: one subscription, or the subscriptions of one topic
// (every ARN "TOPIC-ARN:…"), or all (neither set; not both); optionally one
// message, one kind, one outcome (attemptOutcomeName(), e.g. "retryable",
// "throttled-wait"), one phase ("initial", "immediate", "preBackoff",
// "backoff", "postBackoff") and one status class ("2xx", "3xx", "4xx",
// "5xx", or "none" = no response: timeout / connection error / throttled
// wait); attempts started in [since, until) (either end optional); at most
// `limit` rows.
//
// Keyset paging by row id: afterId keeps rows with id > afterId, beforeId
// rows with id < beforeId (both may be set). A lazily-fetching table that
// shows the newest rows on top asks for order NewestFirst; its next page is
// beforeId = the last (oldest) row's id, and rows logged since it opened are
// afterId = its first (newest) row's id. Oldest-first readers (the native API
// default) page with afterId = the last row's id. Each page is read by the
// index, never by OFFSET, so every page of a 100 000-row log costs the same.
struct AttemptQuery {
    std::optional<std::string> subscriptionArn;
    std::optional<std::string> topicArn;
    std::optional<std::string> kind;
    std::optional<std::string> messageId;
    std::optional<std::string> outcome;
    std::optional<std::string> phase;
    std::optional<std::string> statusClass;
    std::optional<ClockTime> since;
    std::optional<ClockTime> until;
    std::optional<std::int64_t> afterId;
    std::optional<std::int64_t> beforeId;
    AttemptOrder order = AttemptOrder::OldestFirst;
    std::size_t limit = 1000;
};

// One page of a query: its rows in the query's order, and whether more rows
// match beyond the last one (in the same order).
struct AttemptPage {
    std::vector<AttemptRecord> rows;
    bool more = false;
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
// Whether `outcome` is an attemptOutcomeName(), `phase` one of the log's
// phases, `statusClass` one of "2xx", "3xx", "4xx", "5xx", "none".
bool isAttemptOutcome(std::string_view outcome);
bool isAttemptPhase(std::string_view phase);
bool isStatusClass(std::string_view statusClass);

// Retention default: the newest this many rows are kept (see prune()).
inline constexpr std::size_t kDefaultRetainedAttempts = 100000;

// Appends `record` (its id is ignored); returns the row id.
Result<std::int64_t> append(Database &db, const AttemptRecord &record);
// Sets `final` on row `id`.
Status setFinal(Database &db, std::int64_t id, const std::string &final);
// The newest row of one message to one subscription, if any.
Result<std::optional<std::int64_t>> lastRowOf(Database &db, const std::string &subscriptionArn,
                                              const std::string &messageId);
// The rows of `query` (at most query.limit, in its order).
Result<std::vector<AttemptRecord>> query(Database &db, const AttemptQuery &query);
// The same rows, with `more` set when further rows match.
Result<AttemptPage> queryPage(Database &db, const AttemptQuery &query);
// Every row of `query` in its order, limit ignored (export).
Result<std::vector<AttemptRecord>> all(Database &db, const AttemptQuery &query);
// How many rows match `query`'s filters, its afterId / beforeId included;
// limit and order are ignored.
Result<std::int64_t> count(Database &db, const AttemptQuery &query);
// The highest redelivery number logged for one message to one subscription
// (nothing when it has no rows).
Result<std::optional<std::int64_t>> lastRedeliveryOf(Database &db, const std::string &subscriptionArn,
                                                     const std::string &messageId);
// Deletes all but the newest `keep` rows; returns how many were deleted.
Result<std::int64_t> prune(Database &db, std::size_t keep);
// The newest row id (0 when the log is empty).
Result<std::int64_t> newestId(Database &db);
// The subscriptions with rows after row `afterId`, each once.
Result<std::vector<std::string>> subscriptionsLoggedAfter(Database &db, std::int64_t afterId);

// One entry: {messageId, subscriptionArn, kind, attempt, phase, plannedAt,
// startedAt, durationMs, httpStatus, outcome, final, errorKind, redelivery,
// id} (docs/behaviour.md §4.4; kind, errorKind, redelivery and id are extra keys, errorKind
// null when a status came, id the row id keyset paging takes). Pure.
nlohmann::ordered_json attemptJson(const AttemptRecord &record);
// {"attempts": [attemptJson, …]}. Pure.
std::string writeAttemptsJson(const std::vector<AttemptRecord> &records);

} // namespace attempt_log

} // namespace relaydesk
