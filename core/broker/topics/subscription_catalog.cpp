// SPDX-License-Identifier: MIT
#include "broker/topics/subscription_catalog.h"

#include "broker/topics/endpoint_address.h"

#include "broker/topics/effective_delivery_policy.h"
#include "broker/entity_names.h"
#include "broker/id_source.h"
#include "broker/queues/queue_records.h"
#include "broker/topics/subscription_attributes.h"
#include "broker/topics/subscription_records.h"
#include "broker/topics/topic_records.h"
#include "store/database.h"

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

Result<SubscriptionRecord> requireSubscription(Database &db, const BrokerIdentity &identity, std::string_view arn)
{
    Result<BrokerIdentity::SubscriptionRef> ref = identity.subscriptionFromArn(arn);
    if (!ref)
        return ref.error();
    Result<std::optional<SubscriptionRecord>> found = subscription_records::findByUuid(db, ref->subscriptionId);
    if (!found)
        return found.error();
    if (!found->has_value() || (*found)->topicName != ref->topicName)
        return BrokerError(Code::SnsNotFound, "Subscription does not exist: " + std::string(arn));
    return std::move(**found);
}

// An sqs endpoint that is not a queue ARN: what to give instead (the ARN
// of the queue a URL names, when it does).
BrokerError sqsEndpointError(const BrokerIdentity &identity, std::string_view endpoint)
{
    std::string message = "Invalid parameter: SQS endpoint ARN. The endpoint of an sqs subscription is the queue's ARN";
    if (Result<std::string> queue = identity.queueNameFromUrl(endpoint); queue && endpoint.find("://") != std::string_view::npos)
        message += ", not its URL: use " + identity.queueArn(*queue);
    else
        message += ", like " + identity.queueArn("orders");
    return BrokerError(Code::SnsInvalidParameter,
                       message + " (aws sqs get-queue-attributes --attribute-names QueueArn shows it).");
}

std::optional<std::int64_t> parseToken(std::string_view token)
{
    if (token.empty())
        return std::int64_t(0);
    return parseAttributeInteger(token);
}

} // namespace

Result<SubscribeReceipt> SubscriptionCatalog::subscribe(std::string_view topicName, std::string_view protocolName,
                                                        std::string_view endpoint, const AttributeMap &attributes,
                                                        bool autoConfirm, ClockTime now)
{
    Result<TopicRecord> topic = topic_records::require(*m_db, topicName);
    if (!topic)
        return topic.error();
    Result<EndpointProtocol> protocol = parseSubscriptionProtocol(protocolName);
    if (!protocol)
        return protocol.error();
    if (Status valid = validateSubscriptionEndpoint(*protocol, endpoint); !valid)
        return *protocol == EndpointProtocol::Sqs ? sqsEndpointError(*m_identity, endpoint) : valid.error();
    if (*protocol != EndpointProtocol::Sqs)
        if (std::optional<std::string> refused = forbiddenEndpointReason(endpoint, *m_identity))
            return BrokerError(Code::SnsInvalidParameter,
                               "Invalid parameter: Endpoint Reason: not an endpoint this broker delivers to: " + *refused);
    Result<SubscriptionAttributes> parsed = parseSubscriptionAttributes(*protocol, attributes);
    if (!parsed)
        return parsed.error();
    if (*protocol == EndpointProtocol::Sqs) {
        Result<std::string> queueName = m_identity->queueNameFromArn(endpoint);
        if (!queueName)
            return BrokerError(Code::SnsInvalidParameter,
                               "Invalid parameter: Endpoint Reason: not a queue of this broker: its queues are " +
                                   m_identity->queueArn("NAME") + " (relaydesk serve --region, --account)");
        Result<std::optional<QueueRecord>> queue = queue_records::find(*m_db, *queueName);
        if (!queue)
            return queue.error();
        if (!queue->has_value())
            return BrokerError(Code::SnsInvalidParameter,
                               "Invalid parameter: Endpoint Reason: queue does not exist: " + *queueName);
        if ((*queue)->isFifo() != topic->isFifo())
            return BrokerError(Code::SnsInvalidParameter,
                               topic->isFifo() ? "Invalid parameter: Endpoint Reason: FIFO topics can only deliver to FIFO queues"
                                               : "Invalid parameter: Endpoint Reason: FIFO SQS Queues can not be subscribed to standard SNS topics");
    }
    Result<std::vector<SubscriptionRecord>> existing = subscription_records::ofTopic(*m_db, topic->id, false);
    if (!existing)
        return existing.error();
    for (const SubscriptionRecord &record : *existing) {
        if (record.protocol != *protocol || record.endpoint != endpoint)
            continue;
        if (record.attributes != *parsed)
            return BrokerError(Code::SnsInvalidParameter,
                               "Invalid parameter: Attributes Reason: Subscription already exists with different attributes");
        return SubscribeReceipt{m_identity->subscriptionArn(topicName, record.uuid), !record.confirmed,
                                record.confirmationToken};
    }
    SubscriptionRecord record;
    record.uuid = m_ids->newMessageId();
    record.topicId = topic->id;
    record.topicName = std::string(topicName);
    record.protocol = *protocol;
    record.endpoint = std::string(endpoint);
    record.confirmed = *protocol == EndpointProtocol::Sqs || autoConfirm;
    if (!record.confirmed)
        record.confirmationToken = m_ids->newReceiptHandle() + m_ids->newReceiptHandle();
    record.attributes = std::move(parsed).value();
    Result<std::int64_t> id = subscription_records::insert(*m_db, record, now);
    if (!id)
        return id.error();
    return SubscribeReceipt{m_identity->subscriptionArn(topicName, record.uuid), !record.confirmed,
                            record.confirmationToken};
}

Result<std::string> SubscriptionCatalog::confirmSubscription(std::string_view topicName, std::string_view token)
{
    Result<TopicRecord> topic = topic_records::require(*m_db, topicName);
    if (!topic)
        return topic.error();
    Result<std::vector<SubscriptionRecord>> subscriptions = subscription_records::ofTopic(*m_db, topic->id, false);
    if (!subscriptions)
        return subscriptions.error();
    for (const SubscriptionRecord &record : *subscriptions) {
        if (record.confirmed || token.empty() || record.confirmationToken != token)
            continue;
        if (Status confirmed = subscription_records::confirm(*m_db, record.id); !confirmed)
            return confirmed.error();
        return m_identity->subscriptionArn(topicName, record.uuid);
    }
    return BrokerError(Code::SnsInvalidParameter, "Invalid parameter: Token");
}

Status SubscriptionCatalog::unsubscribe(std::string_view subscriptionArn)
{
    Result<SubscriptionRecord> record = requireSubscription(*m_db, *m_identity, subscriptionArn);
    if (!record)
        return record.error();
    return subscription_records::remove(*m_db, record->id);
}

Result<SubscriptionPage> SubscriptionCatalog::listSubscriptions(std::string_view topicName, std::string_view nextToken)
{
    std::int64_t topicId = 0;
    if (!topicName.empty()) {
        Result<TopicRecord> topic = topic_records::require(*m_db, topicName);
        if (!topic)
            return topic.error();
        topicId = topic->id;
    }
    const std::optional<std::int64_t> after = parseToken(nextToken);
    if (!after)
        return BrokerError(Code::SnsInvalidParameter, "Invalid parameter: NextToken");
    Result<std::vector<SubscriptionRecord>> records = subscription_records::page(*m_db, topicId, *after, kPageSize + 1);
    if (!records)
        return records.error();
    SubscriptionPage page;
    if (records->size() > kPageSize) {
        records->pop_back();
        page.nextToken = std::to_string(records->back().id);
    }
    for (const SubscriptionRecord &record : *records) {
        page.subscriptions.push_back(SubscriptionSummary{
            record.confirmed ? m_identity->subscriptionArn(record.topicName, record.uuid) : "PendingConfirmation",
            m_identity->accountId, std::string(endpointProtocolName(record.protocol)), record.endpoint,
            m_identity->topicArn(record.topicName)});
    }
    return page;
}

Result<AttributeMap> SubscriptionCatalog::subscriptionAttributes(std::string_view subscriptionArn)
{
    Result<SubscriptionRecord> record = requireSubscription(*m_db, *m_identity, subscriptionArn);
    if (!record)
        return record.error();
    Result<std::optional<TopicRecord>> topic = topic_records::findById(*m_db, record->topicId);
    if (!topic)
        return topic.error();
    AttributeMap map = writeSubscriptionAttributes(record->attributes);
    map["SubscriptionArn"] = m_identity->subscriptionArn(record->topicName, record->uuid);
    map["TopicArn"] = m_identity->topicArn(record->topicName);
    map["Owner"] = m_identity->accountId;
    map["Protocol"] = std::string(endpointProtocolName(record->protocol));
    map["Endpoint"] = record->endpoint;
    map["PendingConfirmation"] = formatAttributeBoolean(!record->confirmed);
    map["ConfirmationWasAuthenticated"] = formatAttributeBoolean(record->confirmed);
    std::optional<DeliveryPolicy> own;
    if (record->attributes.deliveryPolicy)
        own = record->attributes.deliveryPolicy->policy;
    std::optional<DeliveryPolicy> topicPolicy;
    if (topic->has_value() && (*topic)->attributes.deliveryPolicy)
        topicPolicy = (*topic)->attributes.deliveryPolicy->policy;
    map["EffectiveDeliveryPolicy"] = writeEffectiveDeliveryPolicy(resolveEffectivePolicy(record->protocol, own, topicPolicy));
    return map;
}

Status SubscriptionCatalog::setSubscriptionAttribute(std::string_view subscriptionArn, std::string_view name,
                                                     std::string_view value)
{
    Result<SubscriptionRecord> record = requireSubscription(*m_db, *m_identity, subscriptionArn);
    if (!record)
        return record.error();
    Result<SubscriptionAttributes> changed = applySubscriptionAttribute(record->protocol, record->attributes, name, value);
    if (!changed)
        return changed.error();
    return subscription_records::updateAttributes(*m_db, record->id, *changed);
}

} // namespace relaydesk
