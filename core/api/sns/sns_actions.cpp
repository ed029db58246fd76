// SPDX-License-Identifier: MIT
#include "api/sns/sns_actions.h"

#include "json/bounded_json.h"

#include "engine/broker_service.h"
#include "api/sqs/sqs_messages.h"

#include <map>

namespace relaydesk {

namespace {

using Json = nlohmann::json;
using Handler = void (*)(const ActionInput &, const SnsActionContext &, ActionReply);

Result<std::string> topicName(const ActionInput &input, const SnsActionContext &context, const char *parameter = "TopicArn")
{
    auto arn = input.requiredString(parameter);
    if (!arn)
        return arn.error();
    return context.identity.topicNameFromArn(*arn);
}

// AttributeName and AttributeValue (absent value: empty, which unsets).
Result<std::pair<std::string, std::string>> readAttributeChange(const ActionInput &input)
{
    auto attribute = input.requiredString("AttributeName");
    if (!attribute)
        return attribute.error();
    auto value = input.optionalString("AttributeValue");
    if (!value)
        return value.error();
    return std::make_pair(*attribute, value->value_or(""));
}

// Tags as SNS carries them: [{"Key", "Value"}].
Result<std::map<std::string, std::string>> readTags(const ActionInput &input)
{
    auto list = input.objectList("Tags");
    if (!list)
        return list.error();
    std::map<std::string, std::string> tags;
    for (const ActionInput &tag : *list) {
        auto key = tag.requiredString("Key");
        if (!key)
            return key.error();
        auto value = tag.requiredString("Value");
        if (!value)
            return value.error();
        tags[*key] = *value;
    }
    return tags;
}

Json writeTags(const TopicTags &tags)
{
    Json list = Json::array();
    for (const auto &[key, value] : tags)
        list.push_back({{"Key", key}, {"Value", value}});
    return {{"Tags", std::move(list)}};
}

Json writeTopicArn(const std::string &arn) { return {{"TopicArn", arn}}; }
Json writeSubscriptionArn(const std::string &arn) { return {{"SubscriptionArn", arn}}; }
Json writeAttributes(const AttributeMap &attributes) { return {{"Attributes", attributes}}; }

Json writeTopicPage(const TopicPage &page)
{
    Json topics = Json::array();
    for (const std::string &arn : page.topicArns)
        topics.push_back({{"TopicArn", arn}});
    Json out = {{"Topics", std::move(topics)}};
    if (!page.nextToken.empty())
        out["NextToken"] = page.nextToken;
    return out;
}

Json writeSubscriptionPage(const SubscriptionPage &page)
{
    Json list = Json::array();
    for (const SubscriptionSummary &row : page.subscriptions)
        list.push_back({{"SubscriptionArn", row.subscriptionArn},
                        {"Owner", row.owner},
                        {"Protocol", row.protocol},
                        {"Endpoint", row.endpoint},
                        {"TopicArn", row.topicArn}});
    Json out = {{"Subscriptions", std::move(list)}};
    if (!page.nextToken.empty())
        out["NextToken"] = page.nextToken;
    return out;
}

Json writePublishReceipt(const PublishReceipt &receipt)
{
    Json out = {{"MessageId", receipt.messageId}};
    if (receipt.sequenceNumber)
        out["SequenceNumber"] = std::to_string(*receipt.sequenceNumber);
    return out;
}

// Message, Subject, MessageAttributes, MessageGroupId, MessageDeduplicationId,
// MessageStructure ("json": the "default" member is the message).
Result<PublishRequest> readPublishRequest(const ActionInput &input)
{
    PublishRequest request;
    auto message = input.requiredString("Message");
    if (!message)
        return message.error();
    request.message = std::move(message).value();
    auto structure = input.optionalString("MessageStructure");
    if (!structure)
        return structure.error();
    if (*structure) {
        if (**structure != "json")
            return input.invalid("MessageStructure", "Only 'json' is supported.");
        Result<std::string> plain = defaultMessageOfJsonStructure(request.message);
        if (!plain)
            return plain.error();
        request.message = std::move(plain).value();
    }
    auto subject = input.optionalString("Subject");
    if (!subject)
        return subject.error();
    request.subject = *subject;
    auto attributes = readMessageAttributes(input, "MessageAttributes");
    if (!attributes)
        return BrokerError(BrokerErrorCode::SnsInvalidParameterValue, attributes.error().message);
    request.attributes = std::move(attributes).value();
    auto group = input.optionalString("MessageGroupId");
    if (!group)
        return group.error();
    request.groupId = *group;
    auto dedup = input.optionalString("MessageDeduplicationId");
    if (!dedup)
        return dedup.error();
    request.deduplicationId = *dedup;
    return request;
}

void createTopic(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = input.requiredString("Name");
    if (!name)
        return reply(name.error());
    auto attributes = input.stringMap("Attributes");
    if (!attributes)
        return reply(attributes.error());
    auto tags = readTags(input);
    if (!tags)
        return reply(tags.error());
    context.service.createTopic(*name, *attributes, *tags, context.replyContext, mappedReply(std::move(reply), writeTopicArn));
}

void deleteTopic(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context);
    if (!name)
        return reply(name.error());
    context.service.deleteTopic(*name, context.replyContext, emptyReply(std::move(reply)));
}

void listTopics(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto token = input.optionalString("NextToken");
    if (!token)
        return reply(token.error());
    context.service.listTopics(token->value_or(""), context.replyContext, mappedReply(std::move(reply), writeTopicPage));
}

void getTopicAttributes(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context);
    if (!name)
        return reply(name.error());
    context.service.getTopicAttributes(*name, context.replyContext, mappedReply(std::move(reply), writeAttributes));
}

void setTopicAttributes(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context);
    if (!name)
        return reply(name.error());
    auto change = readAttributeChange(input);
    if (!change)
        return reply(change.error());
    context.service.setTopicAttribute(*name, change->first, change->second, context.replyContext,
                                      emptyReply(std::move(reply)));
}

void subscribe(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context);
    if (!name)
        return reply(name.error());
    auto protocol = input.requiredString("Protocol");
    if (!protocol)
        return reply(protocol.error());
    auto endpoint = input.optionalString("Endpoint");
    if (!endpoint)
        return reply(endpoint.error());
    auto attributes = input.stringMap("Attributes");
    if (!attributes)
        return reply(attributes.error());
    auto returnArn = input.optionalBoolean("ReturnSubscriptionArn");
    if (!returnArn)
        return reply(returnArn.error());
    const bool alwaysArn = returnArn->value_or(false);
    context.service.subscribe(*name, *protocol, endpoint->value_or(""), *attributes, context.autoConfirm,
                              context.replyContext, [reply, alwaysArn](Result<SubscribeReceipt> receipt) {
                                  if (!receipt)
                                      return reply(receipt.error());
                                  const bool pending = receipt->pendingConfirmation && !alwaysArn;
                                  reply(Json{{"SubscriptionArn", pending ? std::string("pending confirmation")
                                                                         : receipt->subscriptionArn}});
                              });
}

void confirmSubscription(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context);
    if (!name)
        return reply(name.error());
    auto token = input.requiredString("Token");
    if (!token)
        return reply(token.error());
    context.service.confirmSubscription(*name, *token, context.replyContext,
                                        mappedReply(std::move(reply), writeSubscriptionArn));
}

void unsubscribe(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto arn = input.requiredString("SubscriptionArn");
    if (!arn)
        return reply(arn.error());
    context.service.unsubscribe(*arn, context.replyContext, emptyReply(std::move(reply)));
}

void listSubscriptions(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto token = input.optionalString("NextToken");
    if (!token)
        return reply(token.error());
    context.service.listSubscriptions("", token->value_or(""), context.replyContext,
                                      mappedReply(std::move(reply), writeSubscriptionPage));
}

void listSubscriptionsByTopic(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context);
    if (!name)
        return reply(name.error());
    auto token = input.optionalString("NextToken");
    if (!token)
        return reply(token.error());
    context.service.listSubscriptions(*name, token->value_or(""), context.replyContext,
                                      mappedReply(std::move(reply), writeSubscriptionPage));
}

void getSubscriptionAttributes(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto arn = input.requiredString("SubscriptionArn");
    if (!arn)
        return reply(arn.error());
    context.service.getSubscriptionAttributes(*arn, context.replyContext, mappedReply(std::move(reply), writeAttributes));
}

void setSubscriptionAttributes(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto arn = input.requiredString("SubscriptionArn");
    if (!arn)
        return reply(arn.error());
    auto change = readAttributeChange(input);
    if (!change)
        return reply(change.error());
    context.service.setSubscriptionAttribute(*arn, change->first, change->second, context.replyContext,
                                             emptyReply(std::move(reply)));
}

void publish(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    const char *parameter = input.has("TopicArn") || !input.has("TargetArn") ? "TopicArn" : "TargetArn";
    auto name = topicName(input, context, parameter);
    if (!name)
        return reply(name.error());
    auto request = readPublishRequest(input);
    if (!request)
        return reply(request.error());
    context.service.publish(*name, std::move(request).value(), context.replyContext,
                            mappedReply(std::move(reply), writePublishReceipt));
}

void publishBatch(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context);
    if (!name)
        return reply(name.error());
    auto list = input.objectList("PublishBatchRequestEntries");
    if (!list)
        return reply(list.error());
    std::vector<BatchEntry<PublishRequest>> entries;
    for (const ActionInput &entry : *list) {
        auto id = entry.requiredString("Id");
        if (!id)
            return reply(id.error());
        auto request = readPublishRequest(entry);
        if (!request)
            return reply(request.error());
        entries.push_back({*id, std::move(request).value()});
    }
    context.service.publishBatch(
        *name, std::move(entries), context.replyContext,
        [reply](Result<std::vector<BatchEntryResult<PublishReceipt>>> result) {
            if (!result)
                return reply(result.error());
            Json successful = Json::array();
            Json failed = Json::array();
            for (const auto &entry : *result) {
                if (entry.ok()) {
                    Json item = writePublishReceipt(*entry.value);
                    item["Id"] = entry.id;
                    successful.push_back(std::move(item));
                } else {
                    const BrokerErrorInfo &info = entry.error->info();
                    failed.push_back({{"Id", entry.id},
                                      {"Code", std::string(info.queryCode)},
                                      {"Message", entry.error->message},
                                      {"SenderFault", info.senderFault}});
                }
            }
            reply(Json{{"Successful", std::move(successful)}, {"Failed", std::move(failed)}});
        });
}

void tagResource(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context, "ResourceArn");
    if (!name)
        return reply(name.error());
    auto tags = readTags(input);
    if (!tags)
        return reply(tags.error());
    context.service.tagTopic(*name, *tags, context.replyContext, emptyReply(std::move(reply)));
}

void untagResource(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context, "ResourceArn");
    if (!name)
        return reply(name.error());
    auto keys = input.stringList("TagKeys");
    if (!keys)
        return reply(keys.error());
    context.service.untagTopic(*name, *keys, context.replyContext, emptyReply(std::move(reply)));
}

void listTagsForResource(const ActionInput &input, const SnsActionContext &context, ActionReply reply)
{
    auto name = topicName(input, context, "ResourceArn");
    if (!name)
        return reply(name.error());
    context.service.listTopicTags(*name, context.replyContext, mappedReply(std::move(reply), writeTags));
}

const std::map<std::string, Handler, std::less<>> &handlers()
{
    static const std::map<std::string, Handler, std::less<>> table = {
        {"CreateTopic", createTopic},
        {"DeleteTopic", deleteTopic},
        {"ListTopics", listTopics},
        {"GetTopicAttributes", getTopicAttributes},
        {"SetTopicAttributes", setTopicAttributes},
        {"Subscribe", subscribe},
        {"ConfirmSubscription", confirmSubscription},
        {"Unsubscribe", unsubscribe},
        {"ListSubscriptions", listSubscriptions},
        {"ListSubscriptionsByTopic", listSubscriptionsByTopic},
        {"GetSubscriptionAttributes", getSubscriptionAttributes},
        {"SetSubscriptionAttributes", setSubscriptionAttributes},
        {"Publish", publish},
        {"PublishBatch", publishBatch},
        {"TagResource", tagResource},
        {"UntagResource", untagResource},
        {"ListTagsForResource", listTagsForResource},
    };
    return table;
}

} // namespace

ActionInput snsInput(nlohmann::json parameters)
{
    return ActionInput(std::move(parameters), BrokerErrorCode::SnsInvalidParameter, BrokerErrorCode::SnsInvalidParameter);
}

bool isSnsAction(const std::string &action) { return handlers().count(action) > 0; }

bool runSnsAction(const std::string &action, const ActionInput &input, const SnsActionContext &context,
                  ActionReply reply)
{
    const auto it = handlers().find(action);
    if (it == handlers().end())
        return false;
    it->second(input, context, std::move(reply));
    return true;
}

} // namespace relaydesk
