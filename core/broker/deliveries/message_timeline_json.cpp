// SPDX-License-Identifier: MIT
#include "broker/deliveries/message_timeline.h"

#include <nlohmann/json.hpp>

namespace relaydesk::message_timeline {

namespace {

using Json = nlohmann::ordered_json;

Json timeOrNull(const std::optional<ClockTime> &time)
{
    return time ? Json(formatIso8601(*time)) : Json();
}

Json deliveryJson(const DeliveryTimeline &delivery)
{
    Json attempts = Json::array();
    for (const TimelineAttempt &attempt : delivery.attempts) {
        Json entry = attempt_log::attemptJson(attempt.record);
        entry["scheduledAt"] = timeOrNull(attempt.scheduledAt);
        entry["jitterMs"] = attempt.jitterMs;
        entry["throttleWaitMs"] = attempt.throttleWaitMs;
        attempts.push_back(std::move(entry));
    }
    Json schedule = Json::array();
    for (const PlannedAttempt &planned : delivery.schedule)
        schedule.push_back(Json{{"attempt", planned.attempt}, {"phase", planned.phase}, {"at", formatIso8601(planned.at)}});
    Json entry = Json::object();
    entry["redelivery"] = delivery.redelivery;
    entry["end"] = delivery.end;
    entry["nextAttemptAt"] = timeOrNull(delivery.nextAttemptAt);
    entry["deadLetterQueue"] = delivery.deadLetterQueue ? Json(*delivery.deadLetterQueue) : Json();
    entry["attempts"] = std::move(attempts);
    entry["schedule"] = std::move(schedule);
    entry["scheduleTruncated"] = delivery.scheduleTruncated;
    return entry;
}

} // namespace

std::string writeJson(const MessageTimeline &timeline)
{
    Json deliveries = Json::array();
    for (const DeliveryTimeline &delivery : timeline.deliveries)
        deliveries.push_back(deliveryJson(delivery));
    Json body = Json::object();
    body["subscriptionArn"] = timeline.subscriptionArn;
    body["messageId"] = timeline.messageId;
    body["redeliverable"] = timeline.redeliverable;
    body["deliveries"] = std::move(deliveries);
    return body.dump();
}

} // namespace relaydesk::message_timeline
