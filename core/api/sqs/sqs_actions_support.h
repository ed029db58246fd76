// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/queue_batch.h"
#include "engine/broker_service.h"
#include "api/sqs/sqs_actions.h"

#include <nlohmann/json.hpp>

#include <string>
#include <type_traits>
#include <vector>

namespace relaydesk::sqs_actions {

// Shared by the SQS action files: reading the queue a request names, and
// replying. Pure helpers; thread of the caller.
using Json = nlohmann::json;
using Handler = void (*)(const ActionInput &, const SqsActionContext &, ActionReply);

// The queue named by QueueUrl (MissingParameter, QueueDoesNotExist).
Result<std::string> queueName(const ActionInput &input, const SqsActionContext &context);

// {"Successful": [each value written by `write` plus "Id"], "Failed": [{"Id", "SenderFault", "Code", "Message"}]};
// `write` is given the value, or the entry's Id and the value.
template <class V, class Write>
Json batchResult(const std::vector<BatchEntryResult<V>> &entries, Write write)
{
    Json successful = Json::array();
    Json failed = Json::array();
    for (const auto &entry : entries) {
        if (entry.ok()) {
            Json item;
            if constexpr (std::is_invocable_v<Write, const std::string &, const V &>)
                item = write(entry.id, *entry.value);
            else
                item = write(*entry.value);
            item["Id"] = entry.id;
            successful.push_back(std::move(item));
        } else {
            const BrokerErrorInfo &info = entry.error->info();
            failed.push_back({{"Id", entry.id},
                              {"SenderFault", info.senderFault},
                              {"Code", std::string(info.jsonCode)},
                              {"Message", entry.error->message}});
        }
    }
    return {{"Successful", std::move(successful)}, {"Failed", std::move(failed)}};
}

// The actions of each file.
void createQueue(const ActionInput &, const SqsActionContext &, ActionReply);
void deleteQueue(const ActionInput &, const SqsActionContext &, ActionReply);
void getQueueUrl(const ActionInput &, const SqsActionContext &, ActionReply);
void listQueues(const ActionInput &, const SqsActionContext &, ActionReply);
void getQueueAttributes(const ActionInput &, const SqsActionContext &, ActionReply);
void setQueueAttributes(const ActionInput &, const SqsActionContext &, ActionReply);
void tagQueue(const ActionInput &, const SqsActionContext &, ActionReply);
void untagQueue(const ActionInput &, const SqsActionContext &, ActionReply);
void listQueueTags(const ActionInput &, const SqsActionContext &, ActionReply);
void listDeadLetterSourceQueues(const ActionInput &, const SqsActionContext &, ActionReply);
void purgeQueue(const ActionInput &, const SqsActionContext &, ActionReply);
void startMessageMoveTask(const ActionInput &, const SqsActionContext &, ActionReply);
void listMessageMoveTasks(const ActionInput &, const SqsActionContext &, ActionReply);
void cancelMessageMoveTask(const ActionInput &, const SqsActionContext &, ActionReply);

void sendMessage(const ActionInput &, const SqsActionContext &, ActionReply);
void sendMessageBatch(const ActionInput &, const SqsActionContext &, ActionReply);
void receiveMessage(const ActionInput &, const SqsActionContext &, ActionReply);
void deleteMessage(const ActionInput &, const SqsActionContext &, ActionReply);
void deleteMessageBatch(const ActionInput &, const SqsActionContext &, ActionReply);
void changeMessageVisibility(const ActionInput &, const SqsActionContext &, ActionReply);
void changeMessageVisibilityBatch(const ActionInput &, const SqsActionContext &, ActionReply);

} // namespace relaydesk::sqs_actions
