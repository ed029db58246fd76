// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

namespace relaydesk {

struct MetricsSnapshot;

// The body of GET /api/v1/metrics (docs/api.md "Metrics"):
//   {"at", "atMs", "countingSince", "windowsMinutes": [5, 15, 60],
//    "totals": {COUNTER: {"total", "last5m", "last15m", "last60m"}, …},
//    "depths": {"available", "inFlight", "delayed", "scheduled", "deadLettered"},
//    "queues": [{"name", "counters": {"sent", "received", "deleted"}, "depths", "depthsAt"}, …],
//    "topics": [{"name", "counters": {"published", "delivered", …}}, …]}
// COUNTER names are queueCounterName / topicCounterName. Pure.
nlohmann::json metricsJson(const MetricsSnapshot &snapshot);

} // namespace relaydesk
