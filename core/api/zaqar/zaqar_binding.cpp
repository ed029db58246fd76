// SPDX-License-Identifier: MIT
#include "api/zaqar/zaqar_binding.h"

#include "broker/zaqar/zaqar_store.h"

#include "api/wire/action_input.h"
#include "broker/queues/queue_catalog.h"
#include "broker/topics/subscription_catalog.h"
#include "broker/topics/topic_catalog.h"
#include "engine/unit_context.h"

namespace relaydesk::zaqar_binding {

namespace {

EntityChange change(EntityChange::Kind kind, EntityChange::Entity entity, const std::string &name)
{
    return {kind, entity, QString::fromStdString(name)};
}

// The queue attributes the metadata sets: the redrive policy.
AttributeMap redriveAttributes(const BrokerIdentity &identity, const nlohmann::json &metadata)
{
    AttributeMap attributes;
    if (metadata.contains("_dead_letter_queue") && metadata.contains("_max_claim_count")) {
        const nlohmann::json redrive = {
            {"deadLetterTargetArn", identity.queueArn(metadata["_dead_letter_queue"].get<std::string>())},
            {"maxReceiveCount", metadata["_max_claim_count"].get<std::int64_t>()}};
        attributes["RedrivePolicy"] = jsonText(redrive);
    }
    return attributes;
}

const AttributeMap &queueAttributes()
{
    static const AttributeMap attributes = {{"MessageRetentionPeriod", "1209600"}, {"MaximumMessageSize", "262144"}};
    return attributes;
}

} // namespace

std::string notificationTopic(const std::string &queueName) { return "zaqar-" + queueName; }

std::string topicDeliveryPolicy(const nlohmann::json &metadata)
{
    nlohmann::json policy = metadata.contains("_retry_policy") ? metadata["_retry_policy"] : nlohmann::json::object();
    return jsonText({{"_retry_policy", policy}});
}

Result<std::int64_t> ensureQueue(UnitContext &unit, const BrokerIdentity &identity, const std::string &name,
                                 const nlohmann::json &metadata, const std::string &project, bool &created)
{
    Result<std::optional<std::int64_t>> existing = zaqar_store::queueId(unit.database(), name);
    if (!existing)
        return existing.error();
    created = !*existing;
    if (*existing)
        return **existing;
    if (auto made = QueueCatalog(unit.database(), identity).createQueue(name, queueAttributes(), {}, unit.now()); !made)
        return made.error();
    unit.reportChange(change(EntityChange::Kind::Created, EntityChange::Entity::Queue, name));
    Result<std::optional<std::int64_t>> id = zaqar_store::queueId(unit.database(), name);
    if (!id)
        return id.error();
    if (Status applied = applyMetadata(unit, identity, name, **id, metadata, project); !applied)
        return applied.error();
    return **id;
}

Status applyMetadata(UnitContext &unit, const BrokerIdentity &identity, const std::string &name, std::int64_t queueId,
                     const nlohmann::json &metadata, const std::string &project)
{
    Database &db = unit.database();
    if (Status stored = zaqar_store::putMetadata(db, queueId, metadata, project); !stored)
        return stored;
    if (metadata.contains("_dead_letter_queue")) {
        bool dlqCreated = false;
        const std::string dlq = metadata["_dead_letter_queue"].get<std::string>();
        if (dlq != name) {
            if (auto made = ensureQueue(unit, identity, dlq, nlohmann::json::object(), project, dlqCreated); !made)
                return made.error();
        }
    }
    QueueCatalog queues(db, identity);
    AttributeMap redrive = redriveAttributes(identity, metadata);
    if (redrive.empty()) {
        // A redrive policy the metadata no longer names goes.
        auto current = queues.queueAttributes(name, {"RedrivePolicy"}, unit.now());
        if (current && current->count("RedrivePolicy") && !current->at("RedrivePolicy").empty())
            redrive["RedrivePolicy"] = "";
    }
    if (!redrive.empty()) {
        if (Status set = queues.setQueueAttributes(name, redrive, unit.now()); !set)
            return set;
    }
    TopicCatalog topics(db, identity);
    if (topics.topicAttributes(notificationTopic(name)).ok()) {
        if (Status set = topics.setTopicAttribute(notificationTopic(name), "DeliveryPolicy", topicDeliveryPolicy(metadata),
                                                  unit.now());
            !set)
            return set;
    }
    unit.reportChange(change(EntityChange::Kind::Changed, EntityChange::Entity::Queue, name));
    return {};
}

Status dropExpiredSubscriptions(UnitContext &unit, const BrokerIdentity &identity, IdSource &ids,
                                const std::string &name, std::int64_t queueId)
{
    auto expired = zaqar_store::expiredSubscriptions(unit.database(), queueId, unit.now());
    if (!expired)
        return expired.error();
    SubscriptionCatalog subscriptions(unit.database(), identity, ids);
    for (const std::string &uuid : *expired) {
        const std::string arn = identity.subscriptionArn(notificationTopic(name), uuid);
        if (Status gone = subscriptions.unsubscribe(arn); !gone)
            return gone;
        unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Subscription, arn));
    }
    return {};
}

Status deleteQueue(UnitContext &unit, const BrokerIdentity &identity, const std::string &name)
{
    TopicCatalog topics(unit.database(), identity);
    if (topics.topicAttributes(notificationTopic(name)).ok()) {
        if (Status deleted = topics.deleteTopic(notificationTopic(name)); !deleted)
            return deleted;
        unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Topic, notificationTopic(name)));
    }
    if (Status deleted = QueueCatalog(unit.database(), identity).deleteQueue(name); !deleted)
        return deleted;
    unit.reportChange(change(EntityChange::Kind::Deleted, EntityChange::Entity::Queue, name));
    return {};
}

} // namespace relaydesk::zaqar_binding
