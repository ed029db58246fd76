// SPDX-License-Identifier: MIT
#include "models/entity_attribute_calls.h"

#include "broker/topics/subscription_attributes.h"
#include "broker/topics/topic_attributes.h"
#include "engine/broker_service.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <vector>

namespace relaydesk {
namespace {

using Entity = EntityChange::Entity;

// The settable attributes of `current` (what Get…Attributes adds is left out),
// so the broker's parser can rebuild the stored value.
AttributeMap settable(const AttributeMap &current, std::initializer_list<std::string_view> names)
{
    AttributeMap out;
    for (std::string_view name : names) {
        if (const auto it = current.find(std::string(name)); it != current.end())
            out.insert(*it);
    }
    return out;
}

Status precheckTopic(const QString &name, const AttributeMap &current, const AttributeMap &changes)
{
    Result<TopicAttributes> topic = parseTopicAttributes(
        name.toStdString(), settable(current, {"FifoTopic", "DisplayName", "DeliveryPolicy", "Policy", "KmsMasterKeyId",
                                               "SignatureVersion", "ContentBasedDeduplication",
                                               "DefaultMessageTimeToLive", "AutoDeleteOnIdle"}));
    if (!topic)
        return {};   // the stored state is the broker's to judge; let the calls report
    for (const auto &[attribute, value] : changes) {
        Result<TopicAttributes> next = applyTopicAttribute(*topic, attribute, value);
        if (!next)
            return next.error();
        topic = std::move(next);
    }
    return {};
}

Status precheckSubscription(const AttributeMap &current, const AttributeMap &changes)
{
    const auto protocolIt = current.find("Protocol");
    if (protocolIt == current.end())
        return {};
    Result<EndpointProtocol> protocol = parseSubscriptionProtocol(protocolIt->second);
    if (!protocol)
        return {};
    Result<SubscriptionAttributes> subscription = parseSubscriptionAttributes(
        *protocol, settable(current, {"RawMessageDelivery", "FilterPolicy", "FilterPolicyScope", "DeliveryPolicy",
                                      "RedrivePolicy", "DefaultMessageTimeToLive", "AutoDeleteOnIdle"}));
    if (!subscription)
        return {};
    for (const auto &[attribute, value] : changes) {
        Result<SubscriptionAttributes> next = applySubscriptionAttribute(*protocol, *subscription, attribute, value);
        if (!next)
            return next.error();
        subscription = std::move(next);
    }
    return {};
}

// Runs `calls` one after the other (each gets the continuation), stopping at the first error.
using Step = std::function<void(std::function<void(Status)>)>;
void runInOrder(std::shared_ptr<std::vector<Step>> steps, std::size_t index, std::function<void(Status)> done)
{
    if (index >= steps->size()) {
        done({});
        return;
    }
    (*steps)[index]([steps, index, done](Status status) {
        if (!status)
            done(status);
        else
            runInOrder(steps, index + 1, done);
    });
}

} // namespace

void loadEntityAttributes(BrokerService &service, Entity kind, const QString &nameOrArn, QObject *context,
                          std::function<void(Result<AttributeMap>)> done)
{
    switch (kind) {
    case Entity::Queue:
        service.getQueueAttributes(nameOrArn.toStdString(), {"All"}, context, std::move(done));
        return;
    case Entity::Topic:
        service.getTopicAttributes(nameOrArn.toStdString(), context, std::move(done));
        return;
    case Entity::Subscription:
        service.getSubscriptionAttributes(nameOrArn.toStdString(), context, std::move(done));
        return;
    }
}

void applyEntityAttributes(BrokerService &service, Entity kind, const QString &nameOrArn, const AttributeMap &current,
                           const AttributeMap &changes, QObject *context, std::function<void(Status)> done)
{
    if (kind == Entity::Queue) {
        service.setQueueAttributes(nameOrArn.toStdString(), changes, context, std::move(done));
        return;
    }
    Status checked = kind == Entity::Topic ? precheckTopic(nameOrArn, current, changes)
                                           : precheckSubscription(current, changes);
    if (!checked) {
        // Replies always come back queued, as the service's do.
        QMetaObject::invokeMethod(
            context, [done, checked] { done(checked); }, Qt::QueuedConnection);
        return;
    }
    auto steps = std::make_shared<std::vector<Step>>();
    const std::string target = nameOrArn.toStdString();
    QPointer<QObject> guard(context);
    for (const auto &[attribute, value] : changes) {
        steps->push_back([&service, kind, target, attribute, value, guard](std::function<void(Status)> next) {
            if (!guard)
                return;
            if (kind == Entity::Topic)
                service.setTopicAttribute(target, attribute, value, guard, std::move(next));
            else
                service.setSubscriptionAttribute(target, attribute, value, guard, std::move(next));
        });
    }
    runInOrder(steps, 0, std::move(done));
}

void loadEntityTags(BrokerService &service, Entity kind, const QString &name, QObject *context,
                    std::function<void(Result<EntityTags>)> done)
{
    if (kind == Entity::Queue)
        service.listQueueTags(name.toStdString(), context, std::move(done));
    else
        service.listTopicTags(name.toStdString(), context, std::move(done));
}

void applyEntityTags(BrokerService &service, Entity kind, const QString &name, const EntityTags &before,
                     const EntityTags &after, QObject *context, std::function<void(Status)> done)
{
    std::vector<std::string> removed;
    for (const auto &[key, value] : before) {
        if (!after.count(key))
            removed.push_back(key);
    }
    EntityTags set;
    for (const auto &[key, value] : after) {
        const auto it = before.find(key);
        if (it == before.end() || it->second != value)
            set.insert({key, value});
    }
    auto steps = std::make_shared<std::vector<Step>>();
    const std::string target = name.toStdString();
    QPointer<QObject> guard(context);
    if (!removed.empty()) {
        steps->push_back([&service, kind, target, removed, guard](std::function<void(Status)> next) {
            if (!guard)
                return;
            if (kind == Entity::Queue)
                service.untagQueue(target, removed, guard, std::move(next));
            else
                service.untagTopic(target, removed, guard, std::move(next));
        });
    }
    if (!set.empty()) {
        steps->push_back([&service, kind, target, set, guard](std::function<void(Status)> next) {
            if (!guard)
                return;
            if (kind == Entity::Queue)
                service.tagQueue(target, set, guard, std::move(next));
            else
                service.tagTopic(target, set, guard, std::move(next));
        });
    }
    runInOrder(steps, 0, std::move(done));
}

void loadQueueChoices(BrokerService &service, QObject *context,
                      std::function<void(Result<QList<QPair<QString, QString>>>)> done)
{
    QPointer<QObject> guard(context);
    service.listQueues({}, std::nullopt, {}, context, [&service, guard, done](Result<QueuePage> page) {
        if (!page) {
            done(page.error());
            return;
        }
        QStringList names;
        for (const std::string &url : page->queueUrls)
            names << QString::fromStdString(url).section(QLatin1Char('/'), -1);
        names.sort();
        if (names.isEmpty() || !guard) {
            if (guard)
                done(QList<QPair<QString, QString>>{});
            return;
        }
        // Every queue ARN is arn:aws:sqs:REGION:ACCOUNT:NAME (docs/behaviour.md §1): one lookup gives the prefix.
        service.getQueueAttributes(names.first().toStdString(), {"QueueArn"}, guard,
                                   [names, done](Result<AttributeMap> attributes) {
                                       if (!attributes) {
                                           done(attributes.error());
                                           return;
                                       }
                                       const auto found = attributes->find("QueueArn");
                                       const QString arn = found == attributes->end()
                                                               ? QString()
                                                               : QString::fromStdString(found->second);
                                       const QString prefix = arn.left(arn.lastIndexOf(QLatin1Char(':')) + 1);
                                       QList<QPair<QString, QString>> queues;
                                       for (const QString &name : names)
                                           queues.append({name, prefix + name});
                                       done(queues);
                                   });
    });
}

QString nameFromArn(const QString &arn)
{
    return arn.section(QLatin1Char(':'), -1);
}

} // namespace relaydesk
