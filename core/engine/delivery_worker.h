// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/attempt_log.h"
#include "broker/broker_identity.h"

#include "policy/jitter_sampler.h"

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace relaydesk {

class BrokerEngine;
class WallTimeSource;

struct DeliveryWorkerOptions {
    // Per-request timeout (docs/behaviour.md §4.1). WALL time even under the virtual or
    // scaled clock (see HttpDeliveryClientOptions).
    std::chrono::milliseconds requestTimeout{15000};
    double jitterFraction = JitterSampler::kDefaultFraction;   // docs/behaviour.md §3.5, 0–0.5
    std::optional<std::uint64_t> jitterSeed;                   // reproducible runs
    std::string extraCaFile;                                   // PEM, trusted besides the system CAs
    // Fills in the envelope's signature (docs/behaviour.md §4.1); called on the broker
    // thread with the unsigned envelope JSON. Null: sent unsigned.
    std::function<std::string(std::string envelopeJson)> signEnvelope;
    // The attempt log keeps the newest this many rows (pruned as it grows).
    std::size_t retainedAttempts = attempt_log::kDefaultRetainedAttempts;
    // How many pending deliveries (earliest due first) are held in memory.
    std::size_t window = 2048;
};

// The HTTP/S delivery worker (docs/behaviour.md §4, docs/architecture.md §3).
// Pending deliveries are stored rows with a due time; the worker holds the
// earliest `window` of them in memory and keeps ONE ClockScheduler entry at
// the earliest due time — no polling. When an entry is due it reads the job
// (subscription, message, effective policy) in a unit, waits for the
// subscription's throttle token (docs/behaviour.md §4.3, clock time), POSTs it, classifies
// the result by the policy's dialect (docs/behaviour.md §4.2) and, in one unit, logs the
// attempt and reschedules the row by the schedule with jitter (docs/behaviour.md §3.5) or
// ends the delivery (delivered, dead-lettered, discarded). Requests of
// different subscriptions run concurrently, so a hanging endpoint delays
// only its own deliveries. Signed envelopes are built on the worker's own
// thread pool (RSA signing is the costliest step of an attempt). Each request in flight holds the virtual-clock
// advance (BrokerEngine::holdAdvance), so an advance returns only when
// everything due by then was attempted and recorded. Every recorded attempt
// reports EntityChange{CountsChanged, Subscription, ARN} and, when it logged
// a row, EntityChange{AttemptsLogged, Subscription, ARN} (also a
// throttled-wait row and a logged UnsubscribeConfirmation). A pending row's
// redelivery number goes into every row it logs.
//
// Restart (docs/behaviour.md §4.5): start() loads the stored rows; each resumes at its
// stored attempt and due time, and one that fell due while the broker was
// down is attempted once, promptly.
//
// Ownership: borrows the engine and the wall time source (both must outlive
// it; stop() the worker before the engine). Thread: start(), stop() and the
// destructor from any thread but the broker thread; wake() from any thread;
// the work itself runs on the broker thread.
class DeliveryWorker final {
public:
    DeliveryWorker(BrokerEngine &engine, const WallTimeSource &wall, BrokerIdentity identity,
                   DeliveryWorkerOptions options = {});
    ~DeliveryWorker();
    DeliveryWorker(const DeliveryWorker &) = delete;
    DeliveryWorker &operator=(const DeliveryWorker &) = delete;

    // Creates the HTTP client on the broker thread and loads the stored
    // pending deliveries. Idempotent.
    void start();
    // Cancels timers, aborts requests in flight (their attempts are not
    // recorded: the rows stay pending and are retried after the next start).
    void stop();
    // Call after a commit that created pending rows (publish, subscribe):
    // the worker re-reads the earliest pending rows. Cheap; coalesced.
    void wake();

    // Any thread, best effort (docs/behaviour.md §4.1): POSTs one UnsubscribeConfirmation
    // to the endpoint of a subscription that was just removed (its row and
    // pending deliveries are gone, so it is neither retried nor logged).
    // Call after the unsubscribe committed, with the values read before it.
    struct UnsubscribedEndpoint {
        std::string endpoint;
        std::string topicArn;
        std::string subscriptionArn;
        std::string token;      // a fresh token for the SubscribeURL; may be empty
    };
    void sendUnsubscribeConfirmation(UnsubscribedEndpoint unsubscribed);

private:
    class Core;
    std::shared_ptr<Core> m_core;
    BrokerEngine &m_engine;
    bool m_started = false;
};

} // namespace relaydesk
