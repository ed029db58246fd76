// SPDX-License-Identifier: MIT
#include "api/sqs/sqs_actions.h"

#include "broker/broker_identity.h"
#include "api/sqs/sqs_actions_support.h"

#include <limits>
#include <map>

namespace relaydesk {

namespace sqs_actions {

namespace {

constexpr std::int64_t kInt64Max = std::numeric_limits<std::int64_t>::max();

// Queue URLs come back on the endpoint of the request's identity (the host
// the client used, serve_identity.h), whatever endpoint the service built them on.
auto writeUrl(const BrokerIdentity &identity)
{
    return [identity](const std::string &url) -> Json { return {{"QueueUrl", rebasedQueueUrl(identity, url)}}; };
}

std::vector<std::string> rebased(const BrokerIdentity &identity, std::vector<std::string> urls)
{
    for (std::string &url : urls)
        url = rebasedQueueUrl(identity, url);
    return urls;
}
Json writeAttributes(const AttributeMap &attributes) { return {{"Attributes", attributes}}; }
Json writeTags(const QueueTags &tags) { return {{"Tags", tags}}; }
auto writeSourceQueues(const BrokerIdentity &identity)
{
    return [identity](const std::vector<std::string> &urls) -> Json { return {{"queueUrls", rebased(identity, urls)}}; };
}
Json writeTaskHandle(const std::string &handle) { return {{"TaskHandle", handle}}; }
Json writeMoved(const std::int64_t &moved) { return {{"ApproximateNumberOfMessagesMoved", moved}}; }

auto writePage(const BrokerIdentity &identity)
{
    return [identity](const QueuePage &page) -> Json {
        Json out = Json::object();
        if (!page.queueUrls.empty())
            out["QueueUrls"] = rebased(identity, page.queueUrls);
        if (!page.nextToken.empty())
            out["NextToken"] = page.nextToken;
        return out;
    };
}

Json writeTasks(const std::vector<MessageMoveTask> &tasks)
{
    Json results = Json::array();
    for (const MessageMoveTask &task : tasks) {
        Json item = {{"Status", task.status},
                     {"SourceArn", task.sourceArn},
                     {"ApproximateNumberOfMessagesMoved", task.approximateNumberOfMessagesMoved},
                     {"ApproximateNumberOfMessagesToMove", task.approximateNumberOfMessagesToMove},
                     {"StartedTimestamp", toEpochMilliseconds(task.startedTimestamp)}};
        if (task.taskHandle)
            item["TaskHandle"] = *task.taskHandle;
        if (task.destinationArn)
            item["DestinationArn"] = *task.destinationArn;
        if (task.maxNumberOfMessagesPerSecond)
            item["MaxNumberOfMessagesPerSecond"] = *task.maxNumberOfMessagesPerSecond;
        if (task.failureReason)
            item["FailureReason"] = *task.failureReason;
        results.push_back(std::move(item));
    }
    return {{"Results", std::move(results)}};
}

} // namespace

Result<std::string> queueName(const ActionInput &input, const SqsActionContext &context)
{
    auto url = input.requiredString("QueueUrl");
    if (!url)
        return url.error();
    return context.identity.queueNameFromUrl(*url);
}

void createQueue(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = input.requiredString("QueueName");
    if (!name)
        return reply(name.error());
    auto attributes = input.stringMap("Attributes");
    if (!attributes)
        return reply(attributes.error());
    // JSON protocol: "tags"; query protocol: Tag.N.Key/Value → "Tags".
    auto tags = input.stringMap(input.has("tags") ? "tags" : "Tags");
    if (!tags)
        return reply(tags.error());
    context.service.createQueue(*name, *attributes, *tags, context.replyContext,
                                mappedReplyWith<std::string>(std::move(reply), writeUrl(context.identity)));
}

void deleteQueue(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    context.service.deleteQueue(*name, context.replyContext, emptyReply(std::move(reply)));
}

void getQueueUrl(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = input.requiredString("QueueName");
    if (!name)
        return reply(name.error());
    context.service.getQueueUrl(*name, context.replyContext,
                                mappedReplyWith<std::string>(std::move(reply), writeUrl(context.identity)));
}

void listQueues(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto prefix = input.optionalString("QueueNamePrefix");
    if (!prefix)
        return reply(prefix.error());
    auto max = input.optionalInteger("MaxResults", 1, 1000);
    if (!max)
        return reply(max.error());
    auto token = input.optionalString("NextToken");
    if (!token)
        return reply(token.error());
    std::optional<std::size_t> maxResults;
    if (*max)
        maxResults = static_cast<std::size_t>(**max);
    context.service.listQueues(prefix->value_or(""), maxResults, token->value_or(""), context.replyContext,
                               mappedReplyWith<QueuePage>(std::move(reply), writePage(context.identity)));
}

void getQueueAttributes(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto names = input.stringList("AttributeNames");
    if (!names)
        return reply(names.error());
    context.service.getQueueAttributes(*name, *names, context.replyContext, mappedReply(std::move(reply), writeAttributes));
}

void setQueueAttributes(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto attributes = input.stringMap("Attributes");
    if (!attributes)
        return reply(attributes.error());
    if (!input.has("Attributes"))
        return reply(input.missing("Attributes"));
    context.service.setQueueAttributes(*name, *attributes, context.replyContext, emptyReply(std::move(reply)));
}

void tagQueue(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto tags = input.stringMap("Tags");
    if (!tags)
        return reply(tags.error());
    if (!input.has("Tags"))
        return reply(input.missing("Tags"));
    context.service.tagQueue(*name, *tags, context.replyContext, emptyReply(std::move(reply)));
}

void untagQueue(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    auto keys = input.stringList("TagKeys");
    if (!keys)
        return reply(keys.error());
    if (!input.has("TagKeys"))
        return reply(input.missing("TagKeys"));
    context.service.untagQueue(*name, *keys, context.replyContext, emptyReply(std::move(reply)));
}

void listQueueTags(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    context.service.listQueueTags(*name, context.replyContext, mappedReply(std::move(reply), writeTags));
}

void listDeadLetterSourceQueues(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    context.service.listDeadLetterSourceQueues(*name, context.replyContext,
                                               mappedReplyWith<std::vector<std::string>>(std::move(reply),
                                                                                        writeSourceQueues(context.identity)));
}

void purgeQueue(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto name = queueName(input, context);
    if (!name)
        return reply(name.error());
    context.service.purgeQueue(*name, context.replyContext, emptyReply(std::move(reply)));
}

void startMessageMoveTask(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto source = input.requiredString("SourceArn");
    if (!source)
        return reply(source.error());
    auto destination = input.optionalString("DestinationArn");
    if (!destination)
        return reply(destination.error());
    auto rate = input.optionalInteger("MaxNumberOfMessagesPerSecond", std::numeric_limits<std::int64_t>::min(), kInt64Max);
    if (!rate)
        return reply(rate.error());
    context.service.startMessageMoveTask(*source, *destination, *rate, context.replyContext,
                                         mappedReply(std::move(reply), writeTaskHandle));
}

void listMessageMoveTasks(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto source = input.requiredString("SourceArn");
    if (!source)
        return reply(source.error());
    auto max = input.optionalInteger("MaxResults", std::numeric_limits<int>::min(), std::numeric_limits<int>::max());
    if (!max)
        return reply(max.error());
    std::optional<int> maxResults;
    if (*max)
        maxResults = static_cast<int>(**max);
    context.service.listMessageMoveTasks(*source, maxResults, context.replyContext, mappedReply(std::move(reply), writeTasks));
}

void cancelMessageMoveTask(const ActionInput &input, const SqsActionContext &context, ActionReply reply)
{
    auto handle = input.requiredString("TaskHandle");
    if (!handle)
        return reply(handle.error());
    context.service.cancelMessageMoveTask(*handle, context.replyContext, mappedReply(std::move(reply), writeMoved));
}

namespace {

const std::map<std::string, Handler, std::less<>> &handlers()
{
    static const std::map<std::string, Handler, std::less<>> table = {
        {"CreateQueue", createQueue},
        {"DeleteQueue", deleteQueue},
        {"GetQueueUrl", getQueueUrl},
        {"ListQueues", listQueues},
        {"GetQueueAttributes", getQueueAttributes},
        {"SetQueueAttributes", setQueueAttributes},
        {"TagQueue", tagQueue},
        {"UntagQueue", untagQueue},
        {"ListQueueTags", listQueueTags},
        {"ListDeadLetterSourceQueues", listDeadLetterSourceQueues},
        {"PurgeQueue", purgeQueue},
        {"StartMessageMoveTask", startMessageMoveTask},
        {"ListMessageMoveTasks", listMessageMoveTasks},
        {"CancelMessageMoveTask", cancelMessageMoveTask},
        {"SendMessage", sendMessage},
        {"SendMessageBatch", sendMessageBatch},
        {"ReceiveMessage", receiveMessage},
        {"DeleteMessage", deleteMessage},
        {"DeleteMessageBatch", deleteMessageBatch},
        {"ChangeMessageVisibility", changeMessageVisibility},
        {"ChangeMessageVisibilityBatch", changeMessageVisibilityBatch},
    };
    return table;
}

} // namespace

} // namespace sqs_actions

ActionInput sqsInput(nlohmann::json parameters)
{
    return ActionInput(std::move(parameters), BrokerErrorCode::InvalidParameterValue, BrokerErrorCode::MissingParameter);
}

bool isSqsAction(const std::string &action) { return sqs_actions::handlers().count(action) > 0; }

bool runSqsAction(const std::string &action, const ActionInput &input, const SqsActionContext &context,
                  ActionReply reply)
{
    const auto it = sqs_actions::handlers().find(action);
    if (it == sqs_actions::handlers().end())
        return false;
    it->second(input, context, std::move(reply));
    return true;
}

} // namespace relaydesk
