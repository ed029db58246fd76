// SPDX-License-Identifier: MIT
#include "broker/topic_catalog.h"

#include "broker/effective_delivery_policy.h"
#include "broker/entity_names.h"
#include "broker/queue_records.h"
#include "broker/topic_attributes.h"
#include "broker/topic_records.h"
#include "store/database.h"

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

Status validateTags(const TopicTags &tags)
{
    for (const auto &[key, value] : tags) {
        if (key.empty() || key.size() > 128)
            return BrokerError(Code::SnsInvalidParameter, "Invalid parameter: Tags Reason: Tag keys must be between 1 and 128 characters in length.");
        if (value.size() > 256)
            return BrokerError(Code::SnsInvalidParameter, "Invalid parameter: Tags Reason: Tag values may only be up to 256 characters in length.");
    }
    return {};
}

Status writeTags(Database &db, std::int64_t topicId, const TopicTags &tags)
{
    for (const auto &[key, value] : tags) {
        auto statement = db.prepareCached("INSERT OR REPLACE INTO topic_tags (topic_id, key, value) VALUES (?, ?, ?)");
        if (!statement.ok())
            return queue_records::storeFailure(statement.status());
        StoreStatus status = (*statement)->bind(1, topicId);
        if (status.ok())
            status = (*statement)->bind(2, key);
        if (status.ok())
            status = (*statement)->bind(3, value);
        if (status.ok())
            status = (*statement)->execute();
        if (!status.ok())
            return queue_records::storeFailure(status);
    }
    return {};
}

Result<std::int64_t> countSubscriptions(Database &db, std::int64_t topicId, std::string_view state)
{
    auto statement = db.prepareCached("SELECT count(*) FROM subscriptions WHERE topic_id = ? AND state = ?");
    if (!statement.ok())
        return queue_records::storeFailure(statement.status());
    StoreStatus status = (*statement)->bind(1, topicId);
    if (status.ok())
        status = (*statement)->bind(2, state);
    if (!status.ok())
        return queue_records::storeFailure(status);
    const StoreResult<Step> step = (*statement)->step();
    if (!step.ok())
        return queue_records::storeFailure(step.status());
    return (*statement)->columnInt64(0);
}

} // namespace

Result<std::string> TopicCatalog::createTopic(std::string_view name, const AttributeMap &attributes,
                                              const TopicTags &tags, ClockTime now)
{
    if (Status valid = validateTopicName(name); !valid)
        return valid.error();
    Result<TopicAttributes> parsed = parseTopicAttributes(name, attributes);
    if (!parsed)
        return parsed.error();
    Result<std::optional<TopicRecord>> existing = topic_records::find(*m_db, name);
    if (!existing)
        return existing.error();
    if (existing->has_value()) {
        if ((*existing)->attributes != *parsed)
            return BrokerError(Code::SnsInvalidParameter,
                               "Invalid parameter: Attributes Reason: Topic already exists with different attributes");
        return m_identity->topicArn(name);
    }
    if (tags.size() > kMaxTags)
        return BrokerError(Code::SnsInvalidParameter, "Invalid parameter: Tags Reason: Could not complete request: tag quota of per resource exceeded");
    if (Status valid = validateTags(tags); !valid)
        return valid.error();
    Result<std::int64_t> id = topic_records::insert(*m_db, name, *parsed, now);
    if (!id)
        return id.error();
    if (Status written = writeTags(*m_db, *id, tags); !written)
        return written.error();
    return m_identity->topicArn(name);
}

Status TopicCatalog::deleteTopic(std::string_view name)
{
    // topic_tags and subscriptions (and their pending_deliveries) go by ON DELETE CASCADE.
    auto statement = m_db->prepareCached("DELETE FROM topics WHERE name = ?");
    if (!statement.ok())
        return queue_records::storeFailure(statement.status());
    StoreStatus status = (*statement)->bind(1, name);
    if (status.ok())
        status = (*statement)->execute();
    if (!status.ok())
        return queue_records::storeFailure(status);
    return {};
}

Result<TopicPage> TopicCatalog::listTopics(std::string_view nextToken)
{
    auto statement = m_db->prepareCached("SELECT name FROM topics WHERE name > ? ORDER BY name LIMIT ?");
    if (!statement.ok())
        return queue_records::storeFailure(statement.status());
    StoreStatus status = (*statement)->bind(1, nextToken);
    if (status.ok())
        status = (*statement)->bind(2, static_cast<std::int64_t>(kPageSize + 1));
    if (!status.ok())
        return queue_records::storeFailure(status);
    TopicPage page;
    std::vector<std::string> names;
    for (;;) {
        const StoreResult<Step> step = (*statement)->step();
        if (!step.ok())
            return queue_records::storeFailure(step.status());
        if (*step == Step::Done)
            break;
        names.push_back((*statement)->columnText(0));
    }
    if (names.size() > kPageSize) {
        names.pop_back();
        page.nextToken = names.back();
    }
    for (const std::string &topic : names)
        page.topicArns.push_back(m_identity->topicArn(topic));
    return page;
}

Result<AttributeMap> TopicCatalog::topicAttributes(std::string_view name)
{
    Result<TopicRecord> topic = topic_records::require(*m_db, name);
    if (!topic)
        return topic.error();
    AttributeMap map = writeTopicAttributes(topic->attributes);
    map["TopicArn"] = m_identity->topicArn(name);
    map["Owner"] = m_identity->accountId;
    Result<std::int64_t> confirmed = countSubscriptions(*m_db, topic->id, "confirmed");
    if (!confirmed)
        return confirmed.error();
    Result<std::int64_t> pending = countSubscriptions(*m_db, topic->id, "pending");
    if (!pending)
        return pending.error();
    map["SubscriptionsConfirmed"] = std::to_string(*confirmed);
    map["SubscriptionsPending"] = std::to_string(*pending);
    map.insert_or_assign("SubscriptionsDeleted", std::string("0"));
    std::optional<DeliveryPolicy> topicPolicy;
    if (topic->attributes.deliveryPolicy)
        topicPolicy = topic->attributes.deliveryPolicy->policy;
    map["EffectiveDeliveryPolicy"] =
        writeEffectiveDeliveryPolicy(resolveEffectivePolicy(EndpointProtocol::Http, std::nullopt, topicPolicy));
    return map;
}

Status TopicCatalog::setTopicAttribute(std::string_view name, std::string_view attribute, std::string_view value,
                                       ClockTime now)
{
    Result<TopicRecord> topic = topic_records::require(*m_db, name);
    if (!topic)
        return topic.error();
    Result<TopicAttributes> changed = applyTopicAttribute(topic->attributes, attribute, value);
    if (!changed)
        return changed.error();
    return topic_records::update(*m_db, topic->id, *changed, now);
}

Status TopicCatalog::tagTopic(std::string_view name, const TopicTags &tags)
{
    Result<TopicRecord> topic = topic_records::require(*m_db, name);
    if (!topic)
        return topic.error();
    if (Status valid = validateTags(tags); !valid)
        return valid;
    Result<TopicTags> current = topicTags(name);
    if (!current)
        return current.error();
    TopicTags merged = *current;
    for (const auto &[key, value] : tags)
        merged[key] = value;
    if (merged.size() > kMaxTags)
        return BrokerError(Code::SnsInvalidParameter, "Invalid parameter: Tags Reason: Could not complete request: tag quota of per resource exceeded");
    return writeTags(*m_db, topic->id, tags);
}

Status TopicCatalog::untagTopic(std::string_view name, const std::vector<std::string> &keys)
{
    Result<TopicRecord> topic = topic_records::require(*m_db, name);
    if (!topic)
        return topic.error();
    for (const std::string &key : keys) {
        auto statement = m_db->prepareCached("DELETE FROM topic_tags WHERE topic_id = ? AND key = ?");
        if (!statement.ok())
            return queue_records::storeFailure(statement.status());
        StoreStatus status = (*statement)->bind(1, topic->id);
        if (status.ok())
            status = (*statement)->bind(2, key);
        if (status.ok())
            status = (*statement)->execute();
        if (!status.ok())
            return queue_records::storeFailure(status);
    }
    return {};
}

Result<TopicTags> TopicCatalog::topicTags(std::string_view name)
{
    Result<TopicRecord> topic = topic_records::require(*m_db, name);
    if (!topic)
        return topic.error();
    auto statement = m_db->prepareCached("SELECT key, value FROM topic_tags WHERE topic_id = ? ORDER BY key");
    if (!statement.ok())
        return queue_records::storeFailure(statement.status());
    if (StoreStatus bound = (*statement)->bind(1, topic->id); !bound.ok())
        return queue_records::storeFailure(bound);
    TopicTags tags;
    for (;;) {
        const StoreResult<Step> step = (*statement)->step();
        if (!step.ok())
            return queue_records::storeFailure(step.status());
        if (*step == Step::Done)
            break;
        tags[(*statement)->columnText(0)] = (*statement)->columnText(1);
    }
    return tags;
}

} // namespace relaydesk
