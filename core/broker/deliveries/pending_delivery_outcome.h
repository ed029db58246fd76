// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/deliveries/pending_delivery.h"
#include "broker/deliveries/pending_delivery_step.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>

namespace relaydesk {

class Database;
class IdSource;

// One finished HTTP/S attempt as the delivery worker reports it.
struct AttemptReport {
    DeliveryJob job;
    ClockTime startedAt{};                 // clock time
    std::int64_t durationMs = 0;           // wall time of the request
    std::optional<int> httpStatus;
    TransportFailure failure = TransportFailure::None;
    std::optional<std::string> error;      // the attempt log's error (AttemptRecord::error)
    AttemptOutcome outcome = AttemptOutcome::Delivered;
    NextStep next;                         // nextStepAfter(job.schedule, job.attempt, outcome)
    ClockTime nextDue{};                   // when !next.ends: startedAt + the jittered delay
    std::string sentEnvelope;              // the (signed) envelope, the dead-letter body of non-raw deliveries
};

// What recording did.
struct RecordedAttempt {
    bool recorded = false;                 // false: the pending row was gone or had moved on; nothing written
    std::optional<DeliveryEnd> end;        // set when the delivery ended
    std::optional<ClockTime> nextDue;      // set when another attempt is pending
};

// The store side of the delivery worker (docs/behaviour.md §4.2, 4.4, 4.5, 6). Free
// functions over a Database& the caller holds inside ONE transaction (the
// worker's unit); same thread. `ids` makes MessageIds of dead-letter and
// confirmation rows. Store failures come back as InternalError.
namespace pending_delivery_outcome {

// Logs the attempt and, in the same transaction, either reschedules the
// pending row (attempt + 1, due = nextDue, first attempt time kept) or ends
// the delivery: delivered; else into the subscription's dead-letter queue
// (RedrivePolicy; non-raw: the envelope as body; raw: the bare message with
// its attributes) or discarded when there is none or the queue refuses it.
// A retry that would fall after the delivery's expiry (docs/behaviour.md §6) ends it now.
// The published_messages row goes when its last pending delivery ended.
Result<RecordedAttempt> record(Database &db, IdSource &ids, const AttemptReport &report, ClockTime now);

// Logs an attempt that is made once and has no pending row (the
// UnsubscribeConfirmation): one row, final delivered (2xx) or discarded.
Status recordOneOff(Database &db, const AttemptReport &report);

// Logs that the current attempt of `job` waits for its subscription's
// throttle token (docs/behaviour.md §4.3, 4.4): a row with outcome "throttled-wait",
// startedAt `now`, no status, duration 0, final null. The attempt itself is
// recorded later by record(). False (nothing written) when the pending row
// is gone or has moved on.
Result<bool> recordThrottledWait(Database &db, const DeliveryJob &job, ClockTime now);

// Ends a pending delivery without an attempt (expired before it was due, or
// a confirmation no longer needed): deletes it and marks the newest log row
// of the message `final` = confirmed for a SubscriptionConfirmation whose
// subscription is confirmed, discarded otherwise.
Status endWithoutAttempt(Database &db, const DeliveryJob &job);

// Queues a SubscriptionConfirmation (or UnsubscribeConfirmation) for an
// HTTP/S subscription: a published_messages row of that kind and a pending
// delivery due `now`, retried by the policy like any delivery. Returns the
// MessageId. Call it in the unit that created the pending subscription.
Result<std::string> queueConfirmation(Database &db, const BrokerIdentity &identity, IdSource &ids,
                                      std::int64_t subscriptionId, const std::string &kind, ClockTime now);

} // namespace pending_delivery_outcome

} // namespace relaydesk
