// SPDX-License-Identifier: MIT
// The broker configuration file: applying one inside a unit (format and
// rules in broker_config.h).
#include "config/broker_config.h"
#include "config/config_locations.h"

#include "config/broker_config_mocks.h"

#include "broker/id_source.h"
#include "broker/queues/queue_attributes.h"
#include "broker/queues/queue_catalog.h"
#include "broker/queues/queue_records.h"
#include "broker/topics/subscription_attributes.h"
#include "broker/topics/subscription_catalog.h"
#include "broker/topics/subscription_records.h"
#include "broker/topics/topic_attributes.h"
#include "broker/topics/topic_catalog.h"
#include "broker/topics/topic_records.h"
#include "engine/entity_change.h"
#include "engine/unit_context.h"
#include "policy/policy_validation.h"

#include <QString>

#include <set>

namespace relaydesk {

namespace {

constexpr const char *kRedrivePolicy = "RedrivePolicy";

// The tags of `wanted` that `current` lacks or holds with another value.
std::map<std::string, std::string> changedTags(const std::map<std::string, std::string> &current,
                                               const std::map<std::string, std::string> &wanted)
{
    std::map<std::string, std::string> changed;
    for (const auto &[key, value] : wanted) {
        if (const auto it = current.find(key); it == current.end() || it->second != value)
            changed[key] = value;
    }
    return changed;
}

class ConfigApply final {
public:
    ConfigApply(UnitContext &unit, const BrokerIdentity &identity)
        : m_unit(unit), m_db(unit.database()), m_identity(identity), m_queues(m_db, identity), m_topics(m_db, identity),
          m_subscriptions(m_db, identity, m_ids)
    {
    }

    Status deletions(const BrokerConfig &config);
    Status queue(const QueueDeclaration &queue, const std::string &where);
    Status redrive(const QueueDeclaration &queue, const std::set<std::string> &declared, const std::string &where);
    Status topic(const TopicDeclaration &topic, const std::string &where);

    ConfigApplied applied;

private:
    void report(EntityChange::Kind kind, EntityChange::Entity what, const std::string &name)
    {
        m_unit.reportChange({kind, what, QString::fromStdString(name)});
        (kind == EntityChange::Kind::Created ? applied.created
                                             : kind == EntityChange::Kind::Deleted ? applied.deleted : applied.changed)++;
    }
    Status subscription(const TopicDeclaration &topic, const SubscriptionDeclaration &subscription,
                        const std::string &where);

    UnitContext &m_unit;
    Database &m_db;
    const BrokerIdentity &m_identity;
    RandomIdSource m_ids;
    QueueCatalog m_queues;
    TopicCatalog m_topics;
    SubscriptionCatalog m_subscriptions;
};

Status ConfigApply::deletions(const BrokerConfig &config)
{
    for (std::size_t index = 0; index < config.deleteSubscriptions.size(); ++index) {
        const SubscriptionReference &reference = config.deleteSubscriptions[index];
        const std::string where = "delete.subscriptions[" + std::to_string(index) + "]";
        auto topic = topic_records::find(m_db, reference.topic);
        if (!topic)
            return locatedConfigError(where, topic.error());
        if (!topic->has_value())
            continue;
        auto existing = subscription_records::ofTopic(m_db, (*topic)->id, false);
        if (!existing)
            return locatedConfigError(where, existing.error());
        for (const SubscriptionRecord &record : *existing) {
            if (endpointProtocolName(record.protocol) != reference.protocol || record.endpoint != reference.endpoint)
                continue;
            const std::string arn = m_identity.subscriptionArn(reference.topic, record.uuid);
            if (Status gone = m_subscriptions.unsubscribe(arn); !gone)
                return locatedConfigError(where, gone.error());
            report(EntityChange::Kind::Deleted, EntityChange::Entity::Subscription, arn);
        }
    }
    for (std::size_t index = 0; index < config.deleteTopics.size(); ++index) {
        const std::string &name = config.deleteTopics[index];
        auto topic = topic_records::find(m_db, name);
        if (!topic)
            return locatedConfigError("delete.topics[" + std::to_string(index) + "]", topic.error());
        if (!topic->has_value())
            continue;
        if (Status gone = m_topics.deleteTopic(name); !gone)
            return locatedConfigError("delete.topics[" + std::to_string(index) + "] (" + name + ")", gone.error());
        report(EntityChange::Kind::Deleted, EntityChange::Entity::Topic, name);
    }
    for (std::size_t index = 0; index < config.deleteQueues.size(); ++index) {
        const std::string &name = config.deleteQueues[index];
        auto queue = queue_records::find(m_db, name);
        if (!queue)
            return locatedConfigError("delete.queues[" + std::to_string(index) + "]", queue.error());
        if (!queue->has_value())
            continue;
        if (Status gone = m_queues.deleteQueue(name); !gone)
            return locatedConfigError("delete.queues[" + std::to_string(index) + "] (" + name + ")", gone.error());
        report(EntityChange::Kind::Deleted, EntityChange::Entity::Queue, name);
    }
    return {};
}

// Creates the queue without its RedrivePolicy, or sets the declared
// attributes (but RedrivePolicy) and tags that differ.
Status ConfigApply::queue(const QueueDeclaration &queue, const std::string &where)
{
    AttributeMap attributes = queue.attributes;
    attributes.erase(kRedrivePolicy);
    auto existing = queue_records::find(m_db, queue.name);
    if (!existing)
        return locatedConfigError(where, existing.error());
    if (!existing->has_value()) {
        if (auto created = m_queues.createQueue(queue.name, attributes, queue.tags, m_unit.now()); !created)
            return locatedConfigError(where, created.error());
        report(EntityChange::Kind::Created, EntityChange::Entity::Queue, queue.name);
        return {};
    }
    const QueueAttributes &current = (*existing)->attributes;
    const AttributeMap currentText = writeQueueAttributes(current);
    AttributeMap changes;
    for (const auto &[name, value] : attributes) {
        if (name == "FifoQueue") {
            if (parseAttributeBoolean(value) != current.fifoQueue)
                return BrokerError(BrokerErrorCode::InvalidAttributeValue,
                                   where + ": attributes.FifoQueue: cannot be changed after the queue is created");
            continue;
        }
        auto candidate = applyQueueAttributes(current, {{name, value}});
        if (!candidate)
            return locatedConfigError(where + ": attributes." + name, candidate.error());
        if (writeQueueAttributes(*candidate) != currentText)
            changes[name] = value;
    }
    bool changed = false;
    if (!changes.empty()) {
        if (Status set = m_queues.setQueueAttributes(queue.name, changes, m_unit.now()); !set)
            return locatedConfigError(where + ": attributes", set.error());
        changed = true;
    }
    auto tags = m_queues.queueTags(queue.name);
    if (!tags)
        return locatedConfigError(where + ": tags", tags.error());
    if (const auto newTags = changedTags(*tags, queue.tags); !newTags.empty()) {
        if (Status tagged = m_queues.tagQueue(queue.name, newTags); !tagged)
            return locatedConfigError(where + ": tags", tagged.error());
        changed = true;
    }
    if (changed)
        report(EntityChange::Kind::Changed, EntityChange::Entity::Queue, queue.name);
    return {};
}

// The RedrivePolicy, once every declared queue exists.
Status ConfigApply::redrive(const QueueDeclaration &queue, const std::set<std::string> &declared,
                            const std::string &where)
{
    const auto policy = queue.attributes.find(kRedrivePolicy);
    if (policy == queue.attributes.end())
        return {};
    const std::string field = where + ": attributes.RedrivePolicy";
    auto record = queue_records::require(m_db, queue.name);
    if (!record)
        return locatedConfigError(where, record.error());
    auto candidate = applyQueueAttributes(record->attributes, {{policy->first, policy->second}});
    if (!candidate)
        return locatedConfigError(field, candidate.error());
    if (writeQueueAttributes(*candidate) == writeQueueAttributes(record->attributes))
        return {};
    QueueRecord target;
    target.attributes = *candidate;
    const std::string dlq = target.deadLetterQueueName();
    auto exists = queue_records::find(m_db, dlq);
    if (!exists)
        return locatedConfigError(field, exists.error());
    if (!exists->has_value() && !declared.count(dlq))
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           field + ": the dead-letter queue " + dlq + " neither exists nor is declared");
    if (Status set = m_queues.setQueueAttributes(queue.name, {{policy->first, policy->second}}, m_unit.now()); !set)
        return locatedConfigError(field, set.error());
    report(EntityChange::Kind::Changed, EntityChange::Entity::Queue, queue.name);
    return {};
}

Status ConfigApply::topic(const TopicDeclaration &topic, const std::string &where)
{
    auto existing = topic_records::find(m_db, topic.name);
    if (!existing)
        return locatedConfigError(where, existing.error());
    if (!existing->has_value()) {
        if (auto created = m_topics.createTopic(topic.name, topic.attributes, topic.tags, m_unit.now()); !created)
            return locatedConfigError(where, created.error());
        report(EntityChange::Kind::Created, EntityChange::Entity::Topic, topic.name);
    } else {
        TopicAttributes current = (*existing)->attributes;
        bool changed = false;
        for (const auto &[name, value] : topic.attributes) {
            if (name == "FifoTopic") {
                if (parseAttributeBoolean(value) != current.fifoTopic)
                    return BrokerError(BrokerErrorCode::SnsInvalidParameter,
                                       where + ": attributes.FifoTopic: cannot be changed after the topic is created");
                continue;
            }
            auto candidate = applyTopicAttribute(current, name, value);
            if (!candidate)
                return locatedConfigError(where + ": attributes." + name, candidate.error());
            if (writeTopicAttributes(*candidate) == writeTopicAttributes(current))
                continue;
            if (Status set = m_topics.setTopicAttribute(topic.name, name, value, m_unit.now()); !set)
                return locatedConfigError(where + ": attributes." + name, set.error());
            current = *candidate;
            changed = true;
        }
        auto tags = m_topics.topicTags(topic.name);
        if (!tags)
            return locatedConfigError(where + ": tags", tags.error());
        if (const auto newTags = changedTags(*tags, topic.tags); !newTags.empty()) {
            if (Status tagged = m_topics.tagTopic(topic.name, newTags); !tagged)
                return locatedConfigError(where + ": tags", tagged.error());
            changed = true;
        }
        if (changed)
            report(EntityChange::Kind::Changed, EntityChange::Entity::Topic, topic.name);
    }
    for (std::size_t index = 0; index < topic.subscriptions.size(); ++index) {
        const SubscriptionDeclaration &subscription = topic.subscriptions[index];
        const std::string at = where + ": subscriptions[" + std::to_string(index) + "] (" + subscription.protocol + " " +
                               subscription.endpoint + ")";
        if (Status done = this->subscription(topic, subscription, at); !done)
            return done;
    }
    return {};
}

Status ConfigApply::subscription(const TopicDeclaration &topic, const SubscriptionDeclaration &subscription,
                                 const std::string &where)
{
    auto record = topic_records::require(m_db, topic.name);
    if (!record)
        return locatedConfigError(where, record.error());
    auto existing = subscription_records::ofTopic(m_db, record->id, false);
    if (!existing)
        return locatedConfigError(where, existing.error());
    for (const SubscriptionRecord &found : *existing) {
        if (endpointProtocolName(found.protocol) != subscription.protocol || found.endpoint != subscription.endpoint)
            continue;
        const std::string arn = m_identity.subscriptionArn(topic.name, found.uuid);
        SubscriptionAttributes current = found.attributes;
        bool changed = false;
        for (const auto &[name, value] : subscription.attributes) {
            auto candidate = applySubscriptionAttribute(found.protocol, current, name, value);
            if (!candidate)
                return locatedConfigError(where + ": attributes." + name, candidate.error());
            if (writeSubscriptionAttributes(*candidate) == writeSubscriptionAttributes(current))
                continue;
            if (Status set = m_subscriptions.setSubscriptionAttribute(arn, name, value); !set)
                return locatedConfigError(where + ": attributes." + name, set.error());
            current = *candidate;
            changed = true;
        }
        if (changed)
            report(EntityChange::Kind::Changed, EntityChange::Entity::Subscription, arn);
        return {};
    }
    auto receipt = m_subscriptions.subscribe(topic.name, subscription.protocol, subscription.endpoint,
                                             subscription.attributes, true, m_unit.now());
    if (!receipt)
        return locatedConfigError(where, receipt.error());
    report(EntityChange::Kind::Created, EntityChange::Entity::Subscription, receipt->subscriptionArn);
    return {};
}

} // namespace

Result<ConfigApplied> applyBrokerConfig(UnitContext &unit, const BrokerIdentity &identity, const BrokerConfig &config)
{
    ConfigApply apply(unit, identity);
    if (Status done = apply.deletions(config); !done)
        return done.error();
    if (Status done = config_mocks::apply(unit.database(), config.mocks, apply.applied); !done)
        return done.error();
    std::set<std::string> declared;
    for (const QueueDeclaration &queue : config.queues)
        declared.insert(queue.name);
    for (std::size_t index = 0; index < config.queues.size(); ++index) {
        if (Status done = apply.queue(config.queues[index], configEntityPath("queues", index, config.queues[index].name)); !done)
            return done.error();
    }
    for (std::size_t index = 0; index < config.queues.size(); ++index) {
        if (Status done = apply.redrive(config.queues[index], declared, configEntityPath("queues", index, config.queues[index].name));
            !done)
            return done.error();
    }
    for (std::size_t index = 0; index < config.topics.size(); ++index) {
        if (Status done = apply.topic(config.topics[index], configEntityPath("topics", index, config.topics[index].name)); !done)
            return done.error();
    }
    return apply.applied;
}

} // namespace relaydesk
