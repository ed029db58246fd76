// SPDX-License-Identifier: MIT
#include "broker/topics/topic_catalog.h"

#include "broker/topics/effective_delivery_policy.h"
#include "broker/attribute_text.h"
#include "broker/entity_names.h"
#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"
#include "broker/topics/topic_attributes.h"
#include "broker/topics/topic_records.h"
#include "store/database.h"

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

Status validateTags(const TopicTags &tags)
{
    for (const auto &[key, value] : tags) {
        if (std::optional<std::string> problem = tagProblem(key, value))
            return BrokerError(Code::SnsInvalidParameter, "Invalid parameter: Tags Reason: " + *problem);
    }
    return {};
}

Status writeTags(Database &db, std::int64_t topicId, const TopicTags &tags)
{
    for (const auto &[key, value] : tags)
        if (Status written = executeStatement(
                db, "INSERT OR REPLACE INTO topic_tags (topic_id, key, value) VALUES (?, ?, ?)", topicId, key, value);
            !written)
            return written;
    return {};
}

Result<std::int64_t> countSubscriptions(Database &db, std::int64_t topicId, std::string_view state)
{
    // count(*) always gives one row, never NULL.
    Result<std::optional<std::int64_t>> count =
        selectOptionalInt64(db, "SELECT count(*) FROM subscriptions WHERE topic_id = ? AND state = ?", topicId, state);
    if (!count)
        return count.error();
    return count->value_or(0);
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
    return executeStatement(*m_db, "DELETE FROM topics WHERE name = ?", name);
}

Result<std::vector<std::string>> TopicCatalog::subscriptionArns(std::string_view name)
{
    Result<std::vector<std::string>> uuids = selectColumn<std::string>(
        *m_db, "SELECT s.uuid FROM subscriptions s JOIN topics t ON t.id = s.topic_id WHERE t.name = ? ORDER BY s.id",
        name);
    if (!uuids)
        return uuids.error();
    std::vector<std::string> arns;
    for (const std::string &uuid : *uuids)
        arns.push_back(m_identity->subscriptionArn(name, uuid));
    return arns;
}

Result<TopicPage> TopicCatalog::listTopics(std::string_view nextToken)
{
    Result<std::vector<std::string>> found = selectColumn<std::string>(
        *m_db, "SELECT name FROM topics WHERE name > ? ORDER BY name LIMIT ?", nextToken,
        static_cast<std::int64_t>(kPageSize + 1));
    if (!found)
        return found.error();
    TopicPage page;
    std::vector<std::string> &names = *found;
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
    for (const std::string &key : keys)
        if (Status removed = executeStatement(*m_db, "DELETE FROM topic_tags WHERE topic_id = ? AND key = ?",
                                              topic->id, key);
            !removed)
            return removed;
    return {};
}

Result<TopicTags> TopicCatalog::topicTags(std::string_view name)
{
    Result<TopicRecord> topic = topic_records::require(*m_db, name);
    if (!topic)
        return topic.error();
    Result<CachedStatement> statement =
        prepareBound(*m_db, "SELECT key, value FROM topic_tags WHERE topic_id = ? ORDER BY key", topic->id);
    if (!statement)
        return statement.error();
    TopicTags tags;
    if (Status read = forEachRow(**statement, [&](Statement &row) { tags[row.columnText(0)] = row.columnText(1); });
        !read)
        return read.error();
    return tags;
}

} // namespace relaydesk
