// SPDX-License-Identifier: MIT
#include "redrive_policy.h"

#include "broker/echoed_value.h"

#include "json/bounded_json.h"

#include "broker/attribute_text.h"
#include "broker/broker_identity.h"
#include "broker/entity_names.h"
#include "broker/queues/servicebus_queue.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace relaydesk {

namespace {

BrokerError invalid(std::string_view parameter, std::string_view text, std::string_view reason)
{
    std::string message = "Value ";
    message.append(echoedValue(text)).append(" for parameter ").append(parameter).append(" is invalid. Reason: ").append(reason);
    return BrokerError(BrokerErrorCode::InvalidParameterValue, std::move(message));
}

// An SQS queue's ARN, or a Service Bus queue's (its dead letters may go to
// another Service Bus queue: ForwardDeadLetteredMessagesTo) or its
// dead-letter sub-queue's.
bool isQueueArn(std::string_view text)
{
    const auto parts = splitArn(text);
    return parts && parts->service == "sqs" && !parts->region.empty() && !parts->accountId.empty() &&
           (validateQueueName(parts->resource).ok() || validateServiceBusQueueName(parts->resource).ok()
            || isServiceBusDeadLetterQueue(parts->resource));
}

std::optional<nlohmann::json> parseObject(std::string_view text)
{
    nlohmann::json document = parseBoundedJson(text);
    if (document.is_discarded() || !document.is_object())
        return std::nullopt;
    return document;
}

} // namespace

Result<QueueRedrivePolicy> parseQueueRedrivePolicy(std::string_view text, bool sourceIsFifo)
{
    constexpr std::string_view kName = "RedrivePolicy";
    const auto document = parseObject(text);
    if (!document)
        return invalid(kName, text, "Redrive policy is not a valid JSON map.");
    for (const auto &[key, value] : document->items()) {
        if (key != "deadLetterTargetArn" && key != "maxReceiveCount")
            return invalid(kName, text, "Only following attributes are supported: [deadLetterTargetArn, maxReceiveCount].");
    }
    if (!document->contains("deadLetterTargetArn"))
        return invalid(kName, text, "Redrive policy does not contain mandatory attribute: deadLetterTargetArn.");
    if (!document->contains("maxReceiveCount"))
        return invalid(kName, text, "Redrive policy does not contain mandatory attribute: maxReceiveCount.");

    QueueRedrivePolicy policy;
    const nlohmann::json &arn = (*document)["deadLetterTargetArn"];
    if (!arn.is_string() || !isQueueArn(arn.get<std::string>()))
        return invalid(kName, text, "Invalid value for deadLetterTargetArn.");
    policy.deadLetterTargetArn = arn.get<std::string>();

    const nlohmann::json &count = (*document)["maxReceiveCount"];
    std::optional<int64_t> receives;
    if (count.is_number_integer())
        receives = count.get<int64_t>();
    else if (count.is_string())
        receives = parseAttributeInteger(count.get<std::string>());
    const std::string shown = count.is_string() ? count.get<std::string>() : count.dump();
    if (!receives || *receives < QueueRedrivePolicy::kMinMaxReceiveCount ||
        *receives > QueueRedrivePolicy::kMaxMaxReceiveCount)
        return invalid(kName, text,
                       "Invalid value for maxReceiveCount: " + shown + ", valid values are from 1 to 1000 both inclusive.");
    policy.maxReceiveCount = int(*receives);

    if (hasFifoSuffix(policy.deadLetterTargetArn) != sourceIsFifo)
        return invalid(kName, text,
                       sourceIsFifo ? "The dead-letter queue of a FIFO queue must also be a FIFO queue."
                                    : "The dead-letter queue of a standard queue must also be a standard queue.");
    return policy;
}

std::string writeQueueRedrivePolicy(const QueueRedrivePolicy &policy)
{
    nlohmann::ordered_json out;
    out["deadLetterTargetArn"] = policy.deadLetterTargetArn;
    out["maxReceiveCount"] = policy.maxReceiveCount;
    return out.dump();
}

std::string_view redrivePermissionName(RedrivePermission permission)
{
    switch (permission) {
    case RedrivePermission::AllowAll: return "allowAll";
    case RedrivePermission::DenyAll: return "denyAll";
    case RedrivePermission::ByQueue: return "byQueue";
    }
    return "";
}

bool RedriveAllowPolicy::allowsSource(std::string_view sourceQueueArn) const
{
    switch (redrivePermission) {
    case RedrivePermission::AllowAll: return true;
    case RedrivePermission::DenyAll: return false;
    case RedrivePermission::ByQueue:
        return std::find(sourceQueueArns.begin(), sourceQueueArns.end(), sourceQueueArn) != sourceQueueArns.end();
    }
    return false;
}

Result<RedriveAllowPolicy> parseRedriveAllowPolicy(std::string_view text)
{
    constexpr std::string_view kName = "RedriveAllowPolicy";
    const auto document = parseObject(text);
    if (!document)
        return invalid(kName, text, "Redrive allow policy is not a valid JSON map.");
    for (const auto &[key, value] : document->items()) {
        if (key != "redrivePermission" && key != "sourceQueueArns")
            return invalid(kName, text, "Only following attributes are supported: [redrivePermission, sourceQueueArns].");
    }
    const auto permission = document->find("redrivePermission");
    if (permission == document->end())
        return invalid(kName, text, "Redrive allow policy does not contain mandatory attribute: redrivePermission.");
    RedriveAllowPolicy policy;
    bool known = false;
    for (RedrivePermission candidate : {RedrivePermission::AllowAll, RedrivePermission::DenyAll, RedrivePermission::ByQueue}) {
        if (permission->is_string() && permission->get<std::string>() == redrivePermissionName(candidate)) {
            policy.redrivePermission = candidate;
            known = true;
        }
    }
    if (!known)
        return invalid(kName, text, "redrivePermission must be one of allowAll, denyAll, byQueue.");

    const auto sources = document->find("sourceQueueArns");
    if (policy.redrivePermission != RedrivePermission::ByQueue) {
        if (sources != document->end())
            return invalid(kName, text, "sourceQueueArns can only be given with redrivePermission byQueue.");
        return policy;
    }
    if (sources == document->end() || !sources->is_array() || sources->empty() ||
        sources->size() > RedriveAllowPolicy::kMaxSourceQueues)
        return invalid(kName, text, "With redrivePermission byQueue, sourceQueueArns must list 1 to 10 queue ARNs.");
    for (const nlohmann::json &arn : *sources) {
        if (!arn.is_string() || !isQueueArn(arn.get<std::string>()))
            return invalid(kName, text, "sourceQueueArns must contain only queue ARNs.");
        policy.sourceQueueArns.push_back(arn.get<std::string>());
    }
    return policy;
}

std::string writeRedriveAllowPolicy(const RedriveAllowPolicy &policy)
{
    nlohmann::ordered_json out;
    out["redrivePermission"] = std::string(redrivePermissionName(policy.redrivePermission));
    if (policy.redrivePermission == RedrivePermission::ByQueue)
        out["sourceQueueArns"] = policy.sourceQueueArns;
    return out.dump();
}

} // namespace relaydesk
