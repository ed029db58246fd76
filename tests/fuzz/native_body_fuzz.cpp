// SPDX-License-Identifier: MIT
// Fuzz target of the native API's requests (/api/v1): what the routes read
// before the broker. The input is "METHOD TARGET", a newline, the
// Content-Type, a newline, then the body. Checked for every input: no crash
// or sanitizer report; a refusal of the request is UnsupportedMediaType (415)
// or SerializationException (400) with a message; every body reader answers
// a value or the codes of its service with a message (queues and sends: SQS's
// InvalidParameterValue / MissingParameter; topics and publishes: SNS's
// InvalidParameter / ParameterValueInvalid; Service Bus entities:
// InvalidParameterValue); what a reader accepted, written back as JSON text
// and read again, is the same (sends, publishes, Service Bus queues, topics,
// subscriptions and rules).
#include "api/native/native_api.h"
#include "api/sqs/sqs_messages.h"
#include "broker/clock_time.h"
#include "broker/servicebus/servicebus_topic.h"
#include "fuzz_check.h"
#include "fuzz_http_input.h"
#include "json/bounded_json.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {

constexpr const char *kTarget = "native_body_fuzz";

template <class T>
void requireCodes(const Result<T> &result, std::initializer_list<BrokerErrorCode> codes)
{
    if (result)
        return;
    bool known = false;
    for (const BrokerErrorCode code : codes)
        known = known || result.error().code == code;
    require(known, kTarget, "a body reader refused with a code of another service");
    require(!result.error().message.empty(), kTarget, "a refusal without a message");
}

// `value` as JSON text and back, as a client would send it again.
nlohmann::json again(const nlohmann::json &value)
{
    const nlohmann::json read = parseBoundedJson(jsonText(value));
    require(read.is_object(), kTarget, "a value written back is not a JSON object");
    return read;
}

ActionInput sqsShape(const nlohmann::json &body)
{
    return ActionInput(body, BrokerErrorCode::InvalidParameterValue, BrokerErrorCode::MissingParameter);
}
ActionInput snsShape(const nlohmann::json &body)
{
    return ActionInput(body, BrokerErrorCode::SnsInvalidParameter, BrokerErrorCode::SnsInvalidParameter);
}

void checkSend(const nlohmann::json &body)
{
    const Result<SendRequest> send = native_routes::readNativeSend(sqsShape(body));
    requireCodes(send, {BrokerErrorCode::InvalidParameterValue, BrokerErrorCode::MissingParameter});
    if (!send)
        return;
    nlohmann::json written = {{"body", send->body}, {"attributes", writeMessageAttributes(send->attributes)}};
    if (send->delaySeconds)
        written["delaySeconds"] = *send->delaySeconds;
    if (send->groupId)
        written["groupId"] = *send->groupId;
    if (send->deduplicationId)
        written["deduplicationId"] = *send->deduplicationId;
    if (send->timeToLiveSeconds)
        written["timeToLiveSeconds"] = *send->timeToLiveSeconds;
    if (send->scheduledEnqueueTime)
        written["scheduledEnqueueTime"] = formatIso8601(*send->scheduledEnqueueTime);
    const Result<SendRequest> reread = native_routes::readNativeSend(sqsShape(again(written)));
    require(reread.ok(), kTarget, "a send written back does not read");
    require(reread->body == send->body && reread->attributes == send->attributes
                && reread->delaySeconds == send->delaySeconds && reread->groupId == send->groupId
                && reread->deduplicationId == send->deduplicationId
                && reread->timeToLiveSeconds == send->timeToLiveSeconds
                && reread->scheduledEnqueueTime == send->scheduledEnqueueTime,
            kTarget, "a send written back and read again changed");
}

void checkPublish(const nlohmann::json &body)
{
    const Result<PublishRequest> publish = native_routes::readNativePublish(snsShape(body));
    requireCodes(publish, {BrokerErrorCode::SnsInvalidParameter, BrokerErrorCode::SnsInvalidParameterValue});
    if (!publish)
        return;
    nlohmann::json written = {{"message", publish->message}, {"attributes", writeMessageAttributes(publish->attributes)}};
    if (publish->subject)
        written["subject"] = *publish->subject;
    if (publish->groupId)
        written["groupId"] = *publish->groupId;
    if (publish->deduplicationId)
        written["deduplicationId"] = *publish->deduplicationId;
    if (publish->timeToLiveSeconds)
        written["timeToLiveSeconds"] = *publish->timeToLiveSeconds;
    const Result<PublishRequest> reread = native_routes::readNativePublish(snsShape(again(written)));
    require(reread.ok(), kTarget, "a publish written back does not read");
    require(reread->message == publish->message && reread->subject == publish->subject
                && reread->attributes == publish->attributes && reread->groupId == publish->groupId
                && reread->deduplicationId == publish->deduplicationId
                && reread->timeToLiveSeconds == publish->timeToLiveSeconds,
            kTarget, "a publish written back and read again changed");
}

bool sameRule(const ServiceBusRule &a, const ServiceBusRule &b)
{
    return a.name == b.name && a.filter == b.filter && a.correlation == b.correlation
           && a.correlationProperties == b.correlationProperties && a.sqlExpression == b.sqlExpression;
}

void checkServiceBus(const nlohmann::json &body)
{
    constexpr auto invalid = BrokerErrorCode::InvalidParameterValue;
    const Result<ServiceBusQueueProperties> queue = parseServiceBusQueue(body);
    requireCodes(queue, {invalid});
    if (queue) {
        const Result<ServiceBusQueueProperties> reread = parseServiceBusQueue(again(serviceBusQueueJson(*queue)));
        require(reread.ok() && *reread == *queue, kTarget, "a Service Bus queue written back changed");
    }
    const Result<ServiceBusTopic> topic = parseServiceBusTopic(body);
    requireCodes(topic, {invalid});
    if (topic) {
        const Result<ServiceBusTopic> reread = parseServiceBusTopic(again(serviceBusTopicJson(*topic)));
        require(reread.ok() && reread->name == topic->name
                    && reread->defaultMessageTimeToLive == topic->defaultMessageTimeToLive,
                kTarget, "a Service Bus topic written back changed");
    }
    static const ServiceBusTopic sales = *parseServiceBusTopic(
        nlohmann::json{{"Name", "sales"}, {"Properties", {{"DefaultMessageTimeToLive", "PT1H"}}}});
    const Result<ServiceBusSubscription> subscription = parseServiceBusSubscription(sales, body);
    requireCodes(subscription, {invalid});
    if (subscription) {
        const Result<ServiceBusSubscription> reread =
            parseServiceBusSubscription(sales, again(serviceBusSubscriptionJson(*subscription)));
        require(reread.ok() && reread->name == subscription->name && reread->properties == subscription->properties
                    && reread->rules.size() == subscription->rules.size(),
                kTarget, "a Service Bus subscription written back changed");
        for (std::size_t i = 0; i < reread->rules.size(); ++i)
            require(sameRule(reread->rules[i], subscription->rules[i]), kTarget,
                    "a subscription's rule written back changed");
    }
    const Result<ServiceBusRule> rule = parseServiceBusRule(body);
    requireCodes(rule, {invalid});
    if (rule) {
        const Result<ServiceBusRule> reread = parseServiceBusRule(again(serviceBusRuleJson(*rule)));
        require(reread.ok() && sameRule(*reread, *rule), kTarget, "a Service Bus rule written back changed");
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const fuzz::HttpInput http = fuzz::httpInput(data, size, "/api/v1");

    const std::variant<NativeRequest, WireError> read =
        readNativeRequest(http.method, http.url, http.contentType, http.body);
    if (const WireError *refused = std::get_if<WireError>(&read)) {
        require((refused->jsonCode == "UnsupportedMediaType" && refused->httpStatus == 415)
                    || (refused->jsonCode == "SerializationException" && refused->httpStatus == 400),
                kTarget, "a refusal of the request of another kind");
        require(!refused->message.empty(), kTarget, "a refusal without a message");
        return 0;
    }
    const NativeRequest &request = std::get<NativeRequest>(read);
    require(request.body.is_object(), kTarget, "an accepted body that is not an object");
    require(QByteArray::fromStdString(request.method) == http.method.toUpper(), kTarget, "the method changed");

    requireCodes(native_routes::readEntityCreation(sqsShape(request.body)),
                 {BrokerErrorCode::InvalidParameterValue, BrokerErrorCode::MissingParameter});
    requireCodes(native_routes::readEntityCreation(snsShape(request.body)), {BrokerErrorCode::SnsInvalidParameter});
    checkSend(request.body);
    checkPublish(request.body);
    checkServiceBus(request.body);
    return 0;
}
