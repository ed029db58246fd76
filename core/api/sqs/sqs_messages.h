// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/queues/message_browser.h"
#include "broker/queues/message_receiver.h"
#include "broker/queues/message_sender.h"
#include "broker/queues/queue_batch.h"
#include "broker/result.h"
#include "api/wire/action_input.h"

#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

namespace relaydesk {

// Messages between the SQS wire shape (the JSON protocol's members; the
// query protocol is turned into the same shape) and the broker's request and
// result types. Ranges are the broker's to check; these check types and
// shapes only. Pure, thread-safe.

// MessageAttributes {Name: {DataType, StringValue | BinaryValue (base64)}}.
Result<MessageAttributes> readMessageAttributes(const ActionInput &input, std::string_view name);
nlohmann::json writeMessageAttributes(const MessageAttributes &attributes);

// One browsed message as the native API's browse lists it (and the window
// copies it): messageId, body, attributes (as above), state, groupId, …,
// sourceQueue; times ISO 8601, absent values null.
nlohmann::json writeBrowsedMessage(const BrowsedMessage &message);

Result<SendRequest> readSendRequest(const ActionInput &input);
// The digests a send is answered with (MD5OfMessageBody, MD5OfMessageAttributes:
// docs/behaviour.md §5.1), made from the request on the connection's thread
// before the request goes to the broker, so the broker thread never hashes.
struct SendDigests {
    std::string body;
    std::string attributes;   // empty without attributes
};
SendDigests sendDigests(const SendRequest &request);
nlohmann::json writeSendReceipt(const SendReceipt &receipt, const SendDigests &digests);

// Which attributes a ReceiveMessage asked to see: system attributes
// (AttributeNames / MessageSystemAttributeNames, "All" for every one) and
// message attributes (MessageAttributeNames: names, "All", ".*", "prefix.*").
struct ReceiveSelection {
    bool allSystem = false;
    std::set<std::string> system;
    std::vector<std::string> messageAttributePatterns;
};

// ChangeMessageVisibility's ReceiptHandle and VisibilityTimeout (both required).
Result<VisibilityChange> readVisibilityChange(const ActionInput &input);

// A batch's Entries, each read by `read` after its required Id; the batch
// rules themselves (empty, too many, ids) are the broker's.
template <class Request, class Read>
Result<std::vector<BatchEntry<Request>>> readEntries(const ActionInput &input, Read read)
{
    auto entries = input.objectList("Entries");
    if (!entries)
        return entries.error();
    std::vector<BatchEntry<Request>> out;
    for (const ActionInput &entry : *entries) {
        auto id = entry.requiredString("Id");
        if (!id)
            return id.error();
        auto request = read(entry);
        if (!request)
            return request.error();
        out.push_back({*id, std::move(request).value()});
    }
    return out;
}

Result<ReceiveRequest> readReceiveRequest(const ActionInput &input);
Result<ReceiveSelection> readReceiveSelection(const ActionInput &input);
// One element of ReceiveMessage's Messages. MD5OfMessageAttributes is the
// digest of the attributes returned (what the SDKs recompute).
nlohmann::json writeReceivedMessage(const ReceivedMessage &message, const ReceiveSelection &selection,
                                    const BrokerIdentity &identity);

} // namespace relaydesk
