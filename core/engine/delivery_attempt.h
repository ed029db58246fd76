// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/deliveries/pending_delivery.h"
#include "broker/deliveries/pending_delivery_outcome.h"
#include "http/http_delivery_client.h"

#include <functional>
#include <string>

namespace relaydesk {

class JitterSampler;

// The two ends of one HTTP/S attempt of the delivery worker. Pure apart from
// the jitter draw; the thread of the caller (the broker thread).

// The POST of `job` (docs/behaviour.md §4.1): headers, Content-Type, and the body — the
// envelope signed by `sign` (identity when null), or the bare message for
// raw notifications. `signedEnvelope` receives the envelope, signed unless
// raw (the dead-letter body of non-raw deliveries). Thread-safe when `sign` is.
HttpDeliveryRequest buildDeliveryPost(const DeliveryJob &job, const BrokerIdentity &identity,
                                      const std::function<std::string(std::string)> &sign, std::string &signedEnvelope);

// The report of a finished attempt: classification by the policy's dialect
// (docs/behaviour.md §4.2), the next step by the schedule (docs/behaviour.md §3) and, when a retry
// follows, its due time `now` + the planned delay with jitter (docs/behaviour.md §3.5).
// A status answered by a mock endpoint URL (/_mock/) with the broker's own
// words (a mock that does not exist) keeps them as the report's error.
AttemptReport reportAttempt(DeliveryJob job, std::string signedEnvelope, ClockTime started,
                            const HttpDeliveryResult &result, JitterSampler &jitter, ClockTime now);

} // namespace relaydesk
