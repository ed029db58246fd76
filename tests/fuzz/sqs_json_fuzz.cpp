// SPDX-License-Identifier: MIT
// Fuzz target of the SQS JSON protocol (AWS JSON 1.0): what reaches the
// broker from a POST with X-Amz-Target. The input is the target's value, a
// newline, then the body. Checked for every input: no crash or sanitizer
// report; a refusal before the broker is UnknownOperationException or
// SerializationException with a message; every reader the actions run on an
// accepted body (send, batch entries, receive, visibility, attribute maps
// and lists) answers a value or InvalidParameterValue / MissingParameter
// with a message; a send request read, written back as JSON text and read
// again is the same request, its attributes' MD5 unchanged.
#include "api/sqs/sqs_json_protocol.h"
#include "api/sqs/sqs_messages.h"
#include "broker/queues/message_digest.h"
#include "fuzz_check.h"
#include "json/bounded_json.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {

constexpr const char *kTarget = "sqs_json_fuzz";

template <class T>
void requireSqsOutcome(const Result<T> &result)
{
    if (result)
        return;
    const BrokerErrorCode code = result.error().code;
    require(code == BrokerErrorCode::InvalidParameterValue || code == BrokerErrorCode::MissingParameter, kTarget,
            "a reader refused with a code other than InvalidParameterValue or MissingParameter");
    require(!result.error().message.empty(), kTarget, "a refusal without a message");
}

// The members a send request came from, as a client would send them.
nlohmann::json sendMembers(const SendRequest &request)
{
    nlohmann::json members = {{"MessageBody", request.body}};
    if (!request.attributes.empty())
        members["MessageAttributes"] = writeMessageAttributes(request.attributes);
    if (request.delaySeconds)
        members["DelaySeconds"] = *request.delaySeconds;
    if (request.groupId)
        members["MessageGroupId"] = *request.groupId;
    if (request.deduplicationId)
        members["MessageDeduplicationId"] = *request.deduplicationId;
    return members;
}

void checkSendRoundTrip(const SendRequest &request)
{
    const nlohmann::json again = parseBoundedJson(jsonText(sendMembers(request)));
    require(again.is_object(), kTarget, "a send request written back is not a JSON object");
    const Result<SendRequest> reread = readSendRequest(sqsInput(again));
    require(reread.ok(), kTarget, "a send request written back does not read");
    require(reread->body == request.body && reread->attributes == request.attributes
                && reread->delaySeconds == request.delaySeconds && reread->groupId == request.groupId
                && reread->deduplicationId == request.deduplicationId,
            kTarget, "a send request written back and read again changed");
    require(md5OfMessageAttributes(reread->attributes) == md5OfMessageAttributes(request.attributes), kTarget,
            "the attributes' MD5 changed on the way back");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const qsizetype newline = input.indexOf('\n');
    const QByteArray target = newline < 0 ? input : input.first(newline);
    const QByteArray body = newline < 0 ? QByteArray() : input.mid(newline + 1);

    const std::variant<SqsJsonCall, WireError> read = readSqsJsonCall(target, body);
    if (const WireError *refused = std::get_if<WireError>(&read)) {
        require(refused->jsonCode == "UnknownOperationException" || refused->jsonCode == "SerializationException",
                kTarget, "a refusal before the broker of another kind");
        require(refused->httpStatus == 400 && !refused->message.empty(), kTarget, "a refusal without 400 or a message");
        return 0;
    }
    const SqsJsonCall &call = std::get<SqsJsonCall>(read);
    require(call.parameters.is_object() && isSqsAction(call.action), kTarget, "an accepted call that is not one");
    (void)jsonText(call.parameters);

    const ActionInput parameters = sqsInput(call.parameters);
    const Result<SendRequest> send = readSendRequest(parameters);
    requireSqsOutcome(send);
    if (send)
        checkSendRoundTrip(*send);
    const auto sends = readEntries<SendRequest>(parameters, readSendRequest);
    requireSqsOutcome(sends);
    if (sends)
        for (const BatchEntry<SendRequest> &entry : *sends)
            checkSendRoundTrip(entry.request);
    requireSqsOutcome(readReceiveRequest(parameters));
    requireSqsOutcome(readReceiveSelection(parameters));
    requireSqsOutcome(readVisibilityChange(parameters));
    requireSqsOutcome(readEntries<VisibilityChange>(parameters, readVisibilityChange));
    requireSqsOutcome(readEntries<std::string>(parameters, [](const ActionInput &entry) {
        return entry.requiredString("ReceiptHandle");
    }));
    for (const char *map : {"Attributes", "Tags", "tags"})
        requireSqsOutcome(parameters.stringMap(map));
    for (const char *list : {"AttributeNames", "TagKeys"})
        requireSqsOutcome(parameters.stringList(list));
    for (const char *text : {"QueueUrl", "QueueName", "SourceArn", "TaskHandle"})
        requireSqsOutcome(parameters.requiredString(text));
    requireSqsOutcome(parameters.optionalInteger("MaxResults", 1, 1000));
    requireSqsOutcome(parameters.optionalInteger("MaxNumberOfMessagesPerSecond", std::numeric_limits<std::int64_t>::min(),
                                                 std::numeric_limits<std::int64_t>::max()));
    return 0;
}
