// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace relaydesk {

struct MetricsSnapshot;

// The Content-Type of the Prometheus text exposition format 0.0.4.
inline constexpr std::string_view kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

// The body of GET /metrics: `snapshot` in the Prometheus text exposition
// format 0.0.4 (docs/api.md "Metrics") — per queue (label `queue`)
// the counters relaydesk_queue_messages_{sent,received,deleted}_total and
// the gauges relaydesk_queue_messages_{available,in_flight,delayed,
// scheduled,dead_lettered}; per topic (label `topic`)
// relaydesk_topic_messages_published_total,
// relaydesk_topic_delivery_attempts_total{outcome} and
// relaydesk_topic_deliveries_ended_total{final}; each family with its HELP
// and TYPE lines, entities by name. Pure.
std::string prometheusText(const MetricsSnapshot &snapshot);

// A label value as the format writes it between its quotes: backslash,
// double quote and line feed escaped (\\, \", \n). Pure.
std::string escapeLabelValue(std::string_view value);

} // namespace relaydesk
