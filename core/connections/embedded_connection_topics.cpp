// SPDX-License-Identifier: MIT
// EmbeddedConnection's topics and subscriptions.
#include "connections/embedded_connection.h"

#include "connections/embedded_reply.h"
#include "engine/broker_service.h"

namespace relaydesk {

std::string EmbeddedConnection::topicName(const QString &arnOrName) const
{
    const Result<std::string> name = m_identity.topicNameFromArn(arnOrName.toStdString());
    return name ? name.value() : arnOrName.toStdString();
}

ConnectionCall *EmbeddedConnection::listTopicEntities(EntityKind kind, const QString &parent,
                                                      Reply<std::vector<EntitySummary>> reply)
{
    if (kind != EntityKind::Topic && kind != EntityKind::Subscription)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(kind, ConnectionFeature::List).reason));
    ConnectionCall *call = newCall();
    const std::string topic = parent.isEmpty() ? std::string() : topicName(parent);
    topicPage(kind == EntityKind::Subscription, topic, {}, std::make_shared<std::vector<EntitySummary>>(),
              {call, std::move(reply)});
    return call;
}

void EmbeddedConnection::topicPage(bool subscriptions, const std::string &topic, std::string token,
                                   std::shared_ptr<std::vector<EntitySummary>> found,
                                   PendingCall<std::vector<EntitySummary>> pending)
{
    const auto then = [this, subscriptions, topic, found, pending](const std::string &next) {
        pending.call()->report(static_cast<qint64>(found->size()), next.empty() ? static_cast<qint64>(found->size()) : -1);
        if (next.empty())
            return pending.succeed(std::move(*found));
        topicPage(subscriptions, topic, next, found, pending);
    };
    if (!subscriptions) {
        m_service->listTopics(std::move(token), pending.call(), [this, found, pending, then](Result<TopicPage> page) {
            if (!page)
                return pending.fail(connectionErrorOf(page.error()));
            for (const std::string &arn : page.value().topicArns)
                found->push_back({{EntityKind::Topic, QString::fromStdString(topicName(QString::fromStdString(arn))),
                                   QString::fromStdString(arn), {}}, {}, {}, {}});
            then(page.value().nextToken);
        });
        return;
    }
    m_service->listSubscriptions(topic, std::move(token), pending.call(), [found, pending, then](Result<SubscriptionPage> page) {
        if (!page)
            return pending.fail(connectionErrorOf(page.error()));
        for (const SubscriptionSummary &subscription : page.value().subscriptions)
            found->push_back({{EntityKind::Subscription, QString::fromStdString(subscription.protocol + " " + subscription.endpoint),
                               QString::fromStdString(subscription.subscriptionArn), QString::fromStdString(subscription.topicArn)},
                              {}, {}, {}});
        then(page.value().nextToken);
    });
}

ConnectionCall *EmbeddedConnection::topicAttributes(const EntityRef &entity, Reply<EntityAttributes> reply)
{
    ConnectionCall *call = newCall();
    const PendingCall<EntityAttributes> pending(call, std::move(reply));
    if (entity.kind == EntityKind::Topic)
        m_service->getTopicAttributes(topicName(entity.address.isEmpty() ? entity.name : entity.address), call,
                                      embeddedReply<EntityAttributes, AttributeMap>(pending, entityAttributesOf));
    else
        m_service->getSubscriptionAttributes(entity.address.toStdString(), call,
                                             embeddedReply<EntityAttributes, AttributeMap>(pending, entityAttributesOf));
    return call;
}

ConnectionCall *EmbeddedConnection::setTopicAttributes(const EntityRef &entity, const EntityAttributes &changes,
                                                       Reply<Done> reply)
{
    if (changes.size() != 1)
        return refuse(std::move(reply), ConnectionError::unsupported(tr("Topics and subscriptions set one attribute at a time.")));
    ConnectionCall *call = newCall();
    const std::string name = changes.firstKey().toStdString();
    const std::string value = changes.first().toStdString();
    if (entity.kind == EntityKind::Topic)
        m_service->setTopicAttribute(topicName(entity.address.isEmpty() ? entity.name : entity.address), name, value, call,
                                     embeddedDone({call, std::move(reply)}));
    else
        m_service->setSubscriptionAttribute(entity.address.toStdString(), name, value, call,
                                            embeddedDone({call, std::move(reply)}));
    return call;
}

ConnectionCall *EmbeddedConnection::createTopicEntity(EntityKind kind, const QString &name, const QString &parent,
                                                      const EntityAttributes &attributes, Reply<EntityRef> reply)
{
    if (kind != EntityKind::Topic && kind != EntityKind::Subscription)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(kind, ConnectionFeature::Create).reason));
    ConnectionCall *call = newCall();
    const PendingCall<EntityRef> pending(call, std::move(reply));
    AttributeMap map;
    for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute)
        map[attribute.key().toStdString()] = attribute.value().toStdString();
    if (kind == EntityKind::Topic) {
        m_service->createTopic(name.toStdString(), std::move(map), {}, call,
                               embeddedReply<EntityRef, std::string>(pending, [name](const std::string &arn) {
                                   return EntityRef{EntityKind::Topic, name, QString::fromStdString(arn), {}};
                               }));
        return call;
    }
    const std::string protocol = map["Protocol"];
    const std::string endpoint = map["Endpoint"];
    const bool autoConfirm = map["AutoConfirm"] == "true";
    for (const char *own : {"Protocol", "Endpoint", "AutoConfirm"})
        map.erase(own);
    m_service->subscribe(topicName(parent), protocol, endpoint, std::move(map), autoConfirm, call,
                         embeddedReply<EntityRef, SubscribeReceipt>(pending, [name, parent](const SubscribeReceipt &receipt) {
                             return EntityRef{EntityKind::Subscription, name, QString::fromStdString(receipt.subscriptionArn), parent};
                         }));
    return call;
}

ConnectionCall *EmbeddedConnection::deleteTopicEntity(const EntityRef &entity, Reply<Done> reply)
{
    if (entity.kind != EntityKind::Topic && entity.kind != EntityKind::Subscription)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Delete).reason));
    ConnectionCall *call = newCall();
    if (entity.kind == EntityKind::Topic)
        m_service->deleteTopic(topicName(entity.address.isEmpty() ? entity.name : entity.address), call,
                               embeddedDone({call, std::move(reply)}));
    else
        m_service->unsubscribe(entity.address.toStdString(), call, embeddedDone({call, std::move(reply)}));
    return call;
}

ConnectionCall *EmbeddedConnection::publish(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply)
{
    PublishRequest request;
    request.message = message.body.toStdString();
    for (auto attribute = message.attributes.constBegin(); attribute != message.attributes.constEnd(); ++attribute)
        request.attributes[attribute.key().toStdString()] = {"String", attribute.value().toStdString(), {}};
    if (!message.groupId.isEmpty())
        request.groupId = message.groupId.toStdString();
    if (!message.deduplicationId.isEmpty())
        request.deduplicationId = message.deduplicationId.toStdString();
    ConnectionCall *call = newCall();
    m_service->publish(topicName(entity.address.isEmpty() ? entity.name : entity.address), std::move(request), call,
                       embeddedReply<QString, PublishReceipt>({call, std::move(reply)}, [](const PublishReceipt &receipt) {
                           return QString::fromStdString(receipt.messageId);
                       }));
    return call;
}

} // namespace relaydesk
