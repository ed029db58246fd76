// SPDX-License-Identifier: MIT
// The broker configuration file: exporting the current state, and apply /
// export as engine units (format and rules in broker_config.h).
#include "config/broker_config.h"

#include "broker/queues/queue_attributes.h"
#include "broker/queues/queue_catalog.h"
#include "broker/queues/queue_records.h"
#include "broker/topics/subscription_attributes.h"
#include "broker/topics/subscription_records.h"
#include "broker/topics/topic_attributes.h"
#include "broker/topics/topic_catalog.h"
#include "broker/topics/topic_records.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "engine/unit_context.h"
#include "policy/policy_validation.h"

#include <algorithm>
#include <future>
#include <memory>

namespace relaydesk {

namespace {

// The entries of `current` that a fresh entity (attributes `defaults`) does
// not have; `keep` names entries kept anyway.
AttributeMap differing(const AttributeMap &current, const AttributeMap &defaults, std::string_view keep)
{
    AttributeMap out;
    for (const auto &[name, value] : current) {
        const auto it = defaults.find(name);
        if (name == keep || it == defaults.end() || it->second != value)
            out[name] = value;
    }
    return out;
}

Result<QueueDeclaration> exportQueue(Database &db, const BrokerIdentity &identity, const std::string &name)
{
    auto record = queue_records::require(db, name);
    if (!record)
        return record.error();
    const AttributeMap fresh = record->isFifo() ? AttributeMap{{"FifoQueue", "true"}} : AttributeMap{};
    auto defaults = parseQueueAttributes(name, fresh);
    if (!defaults)
        return defaults.error();
    QueueDeclaration queue;
    queue.name = name;
    queue.attributes = differing(writeQueueAttributes(record->attributes), writeQueueAttributes(*defaults),
                                 record->isFifo() ? "FifoQueue" : "");
    auto tags = QueueCatalog(db, identity).queueTags(name);
    if (!tags)
        return tags.error();
    queue.tags = *tags;
    return queue;
}

Result<TopicDeclaration> exportTopic(Database &db, const BrokerIdentity &identity, const std::string &name)
{
    auto record = topic_records::require(db, name);
    if (!record)
        return record.error();
    const AttributeMap fresh = record->isFifo() ? AttributeMap{{"FifoTopic", "true"}} : AttributeMap{};
    auto defaults = parseTopicAttributes(name, fresh);
    if (!defaults)
        return defaults.error();
    TopicDeclaration topic;
    topic.name = name;
    topic.attributes = differing(writeTopicAttributes(record->attributes), writeTopicAttributes(*defaults),
                                 record->isFifo() ? "FifoTopic" : "");
    auto tags = TopicCatalog(db, identity).topicTags(name);
    if (!tags)
        return tags.error();
    topic.tags = *tags;
    auto subscriptions = subscription_records::ofTopic(db, record->id, false);
    if (!subscriptions)
        return subscriptions.error();
    for (const SubscriptionRecord &found : *subscriptions) {
        auto fresh = parseSubscriptionAttributes(found.protocol, {});
        if (!fresh)
            return fresh.error();
        topic.subscriptions.push_back({std::string(endpointProtocolName(found.protocol)), found.endpoint,
                                       differing(writeSubscriptionAttributes(found.attributes),
                                                 writeSubscriptionAttributes(*fresh), "")});
    }
    std::sort(topic.subscriptions.begin(), topic.subscriptions.end(),
              [](const SubscriptionDeclaration &a, const SubscriptionDeclaration &b) {
                  return std::tie(a.protocol, a.endpoint) < std::tie(b.protocol, b.endpoint);
              });
    return topic;
}

} // namespace

Result<BrokerConfig> exportBrokerConfig(Database &db, const BrokerIdentity &identity)
{
    BrokerConfig config;
    // Service Bus queues and their dead-letter sub-queues are not of this
    // format (docs/behaviour.md §8.6: the emulator's Config.json declares them).
    auto queues = queue_records::configQueueNames(db);
    if (!queues)
        return queues.error();
    for (const std::string &name : *queues) {
        auto queue = exportQueue(db, identity, name);
        if (!queue)
            return queue.error();
        config.queues.push_back(std::move(queue).value());
    }
    auto topics = topic_records::names(db);
    if (!topics)
        return topics.error();
    for (const std::string &name : *topics) {
        auto topic = exportTopic(db, identity, name);
        if (!topic)
            return topic.error();
        config.topics.push_back(std::move(topic).value());
    }
    auto mocks = mock_endpoint_records::list(db);
    if (!mocks)
        return mocks.error();
    config.mocks = std::move(mocks).value();
    return config;
}

void applyBrokerConfig(BrokerEngine &engine, BrokerService &service, const BrokerIdentity &identity,
                       BrokerConfig config, QObject *context, std::function<void(Result<ConfigApplied>)> reply)
{
    auto shared = std::make_shared<const BrokerConfig>(std::move(config));
    BrokerService *servicePointer = &service;
    engine.execute(
        [shared, identity](UnitContext &unit) { return applyBrokerConfig(unit, identity, *shared); }, context,
        [servicePointer, reply = std::move(reply)](Result<ConfigApplied> applied) {
            // Any service operation re-arms the lifetime timer after its commit.
            if (applied)
                servicePointer->listTopics({}, nullptr, [](Result<TopicPage>) {});
            reply(std::move(applied));
        });
}

void exportBrokerConfig(BrokerEngine &engine, const BrokerIdentity &identity, QObject *context,
                        std::function<void(Result<BrokerConfig>)> reply)
{
    engine.execute([identity](Database &db, ClockTime) { return exportBrokerConfig(db, identity); }, context,
                   std::move(reply));
}

Result<ConfigApplied> applyBrokerConfigAndWait(BrokerEngine &engine, BrokerService &service,
                                               const BrokerIdentity &identity, BrokerConfig config)
{
    auto promise = std::make_shared<std::promise<Result<ConfigApplied>>>();
    std::future<Result<ConfigApplied>> future = promise->get_future();
    applyBrokerConfig(engine, service, identity, std::move(config), nullptr,
                      [promise](Result<ConfigApplied> applied) { promise->set_value(std::move(applied)); });
    return future.get();
}

} // namespace relaydesk
