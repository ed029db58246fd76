// SPDX-License-Identifier: MIT
// The SQS message actions: send, receive, delete, change visibility (and batches).
#include "api/sqs/sqs_actions_support.h"
#include "api/sqs/sqs_messages.h"

#include <algorithm>
#include <utility>
#include <vector>

namespace relaydesk::sqs_actions {

namespace {

Json writeAcknowledged(const bool &) { return Json::object(); }

template <class V>
BrokerService::BatchReply<V> batchReply(ActionReply reply, Json (*write)(const V &))
{
    return [reply = std::move(reply), write](Result<std::vector<BatchEntryResult<V>>> result) {
        reply(result ? Result<Json>(batchResult(*result, write)) : Result<Json>(result.error()));
    };
}

} // namespace

void sendMessage(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto request = readSendRequest(input);
    if (!request)
        return reply(request.error());
    SendDigests digests = sendDigests(*request);
    context.service.sendMessage(*name, std::move(request).value(), context.replyContext,
                                [reply, digests = std::move(digests)](Result<SendReceipt> receipt) {
                                    reply(receipt ? Result<Json>(writeSendReceipt(*receipt, digests))
                                                  : Result<Json>(receipt.error()));
                                });
}

void sendMessageBatch(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto entries = readEntries<SendRequest>(input, readSendRequest);
    if (!entries)
        return reply(entries.error());
    // Each entry's digests with its id (at most 10: found by a walk). The
    // broker refuses a batch whose ids repeat before it answers any entry.
    std::vector<std::pair<std::string, SendDigests>> digests;
    digests.reserve(entries->size());
    for (const BatchEntry<SendRequest> &entry : *entries)
        digests.emplace_back(entry.id, sendDigests(entry.request));
    context.service.sendMessageBatch(
        *name, std::move(entries).value(), context.replyContext,
        [reply = std::move(reply), digests = std::move(digests)](Result<std::vector<BatchEntryResult<SendReceipt>>> result) {
            if (!result)
                return reply(result.error());
            reply(batchResult(*result, [&](const std::string &id, const SendReceipt &receipt) {
                const auto found = std::find_if(digests.begin(), digests.end(),
                                                [&](const auto &entry) { return entry.first == id; });
                return writeSendReceipt(receipt, found != digests.end() ? found->second : SendDigests{});
            }));
        });
}

void receiveMessage(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto request = readReceiveRequest(input);
    if (!request)
        return reply(request.error());
    auto selection = readReceiveSelection(input);
    if (!selection)
        return reply(selection.error());
    context.service.receiveMessage(
        *name, std::move(request).value(), context.replyContext,
        [reply, selection = std::move(selection).value(), identity = context.identity](Result<ReceiveResult> result) {
            if (!result)
                return reply(result.error());
            Json out = Json::object();
            if (!result->messages.empty()) {
                Json messages = Json::array();
                for (const ReceivedMessage &message : result->messages)
                    messages.push_back(writeReceivedMessage(message, selection, identity));
                out["Messages"] = std::move(messages);
            }
            reply(std::move(out));
        });
}

void deleteMessage(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto handle = input.requiredString("ReceiptHandle");
    if (!handle)
        return reply(handle.error());
    context.service.deleteMessage(*name, *handle, context.replyContext, emptyReply(std::move(reply)));
}

void deleteMessageBatch(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto entries = readEntries<std::string>(input, [](const ActionInput &entry) {
        return entry.requiredString("ReceiptHandle");
    });
    if (!entries)
        return reply(entries.error());
    context.service.deleteMessageBatch(*name, std::move(entries).value(), context.replyContext,
                                       batchReply<bool>(std::move(reply), writeAcknowledged));
}

void changeMessageVisibility(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto change = readVisibilityChange(input);
    if (!change)
        return reply(change.error());
    context.service.changeMessageVisibility(*name, change->receiptHandle, change->visibilityTimeout,
                                            context.replyContext, emptyReply(std::move(reply)));
}

void changeMessageVisibilityBatch(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto entries = readEntries<VisibilityChange>(input, readVisibilityChange);
    if (!entries)
        return reply(entries.error());
    context.service.changeMessageVisibilityBatch(*name, std::move(entries).value(), context.replyContext,
                                                 batchReply<bool>(std::move(reply), writeAcknowledged));
}

} // namespace relaydesk::sqs_actions
