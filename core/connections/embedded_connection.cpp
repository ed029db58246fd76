// SPDX-License-Identifier: MIT
#include "connections/embedded_connection.h"

#include "connections/embedded_reply.h"
#include "engine/broker_service.h"

#include <memory>

namespace relaydesk {

ConnectionError connectionErrorOf(const BrokerError &error)
{
    const BrokerErrorInfo &info = error.info();
    switch (info.service) {
    case ErrorService::Sqs:
        return {QStringLiteral("SQS"), QString::fromUtf8(info.jsonCode), QString::fromStdString(error.message), info.httpStatus};
    case ErrorService::Sns:
        return {QStringLiteral("SNS"), QString::fromUtf8(info.queryCode), QString::fromStdString(error.message), info.httpStatus};
    case ErrorService::Native:
        break;
    }
    return {QStringLiteral("Relaydesk"), QString::fromUtf8(info.name), QString::fromStdString(error.message), info.httpStatus};
}

EntityAttributes entityAttributesOf(const AttributeMap &map)
{
    EntityAttributes attributes;
    for (const auto &[name, value] : map)
        attributes.insert(QString::fromStdString(name), QString::fromStdString(value));
    return attributes;
}

namespace {

QDateTime timeOf(ClockTime time) { return QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(time), Qt::UTC); }

QMap<QString, QString> attributesOf(const MessageAttributes &attributes)
{
    QMap<QString, QString> texts;
    for (const auto &[name, value] : attributes)
        texts.insert(QString::fromStdString(name), QString::fromStdString(value.stringValue));
    return texts;
}

AttributeMap attributeMapOf(const EntityAttributes &attributes)
{
    AttributeMap map;
    for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute)
        map[attribute.key().toStdString()] = attribute.value().toStdString();
    return map;
}

MessageAttributes messageAttributesOf(const QMap<QString, QString> &attributes)
{
    MessageAttributes typed;
    for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute)
        typed[attribute.key().toStdString()] = {"String", attribute.value().toStdString(), {}};
    return typed;
}

} // namespace

EmbeddedConnection::EmbeddedConnection(BrokerService &service, BrokerIdentity identity, QObject *parent)
    : BrokerConnection(parent), m_service(&service), m_identity(std::move(identity))
{
}

QString EmbeddedConnection::displayName() const { return tr("This computer"); }

std::vector<EntityKind> EmbeddedConnection::entityKinds() const
{
    return {EntityKind::Queue, EntityKind::Topic, EntityKind::Subscription};
}

Capability EmbeddedConnection::capability(EntityKind kind, ConnectionFeature feature) const
{
    const bool queue = kind == EntityKind::Queue;
    if (!queue && kind != EntityKind::Topic && kind != EntityKind::Subscription)
        return Capability::no(tr("The boundary offers Service Bus and Zaqar entities of this computer later; "
                                 "the window's own pages show them."));
    switch (feature) {
    case ConnectionFeature::List:
    case ConnectionFeature::Attributes:
    case ConnectionFeature::Create:
    case ConnectionFeature::Delete:
        return Capability::yes();
    case ConnectionFeature::Send:
        return queue || kind == EntityKind::Topic ? Capability::yes() : Capability::no(tr("Publish to the subscription's topic."));
    case ConnectionFeature::Counts:
        return Capability::no(tr("Counts are among the queue's attributes."));
    case ConnectionFeature::Purge:
    case ConnectionFeature::Peek:
    case ConnectionFeature::Poll:
    case ConnectionFeature::Settle:
        return queue ? Capability::yes() : Capability::no(tr("Only queues keep messages."));
    case ConnectionFeature::AttemptLog:
    case ConnectionFeature::Mocks:
    case ConnectionFeature::Clock:
    case ConnectionFeature::DeadLetters:
        return Capability::no(tr("Not through the boundary yet: the window's own pages show it."));
    }
    return Capability::no({});
}

ConnectionCall *EmbeddedConnection::listEntities(EntityKind kind, const QString &parent, Reply<std::vector<EntitySummary>> reply)
{
    if (kind != EntityKind::Queue)
        return listTopicEntities(kind, parent, std::move(reply));
    ConnectionCall *call = newCall();
    listQueuePage({}, std::make_shared<std::vector<EntitySummary>>(), {call, std::move(reply)});
    return call;
}

void EmbeddedConnection::listQueuePage(std::string token, std::shared_ptr<std::vector<EntitySummary>> found,
                                       PendingCall<std::vector<EntitySummary>> pending)
{
    m_service->listQueues("", 1000, std::move(token), pending.call(), [this, found, pending](Result<QueuePage> result) {
        if (!result)
            return pending.fail(connectionErrorOf(result.error()));
        for (const std::string &url : result.value().queueUrls) {
            const Result<std::string> name = m_identity.queueNameFromUrl(url);
            found->push_back({{EntityKind::Queue, QString::fromStdString(name ? name.value() : url),
                               QString::fromStdString(url), {}}, {}, {}, {}});
        }
        const std::string next = result.value().nextToken;
        pending.call()->report(static_cast<qint64>(found->size()), next.empty() ? static_cast<qint64>(found->size()) : -1);
        if (next.empty())
            return pending.succeed(std::move(*found));
        listQueuePage(next, found, pending);
    });
}

ConnectionCall *EmbeddedConnection::attributes(const EntityRef &entity, Reply<EntityAttributes> reply)
{
    if (entity.kind != EntityKind::Queue)
        return topicAttributes(entity, std::move(reply));
    ConnectionCall *call = newCall();
    m_service->getQueueAttributes(entity.name.toStdString(), {"All"}, call,
                                  embeddedReply<EntityAttributes, AttributeMap>({call, std::move(reply)}, entityAttributesOf));
    return call;
}

ConnectionCall *EmbeddedConnection::setAttributes(const EntityRef &entity, const EntityAttributes &changes, Reply<Done> reply)
{
    if (entity.kind != EntityKind::Queue)
        return setTopicAttributes(entity, changes, std::move(reply));
    ConnectionCall *call = newCall();
    m_service->setQueueAttributes(entity.name.toStdString(), attributeMapOf(changes), call,
                                  embeddedDone({call, std::move(reply)}));
    return call;
}

ConnectionCall *EmbeddedConnection::createEntity(EntityKind kind, const QString &name, const QString &parent,
                                                 const EntityAttributes &attributes, Reply<EntityRef> reply)
{
    if (kind != EntityKind::Queue)
        return createTopicEntity(kind, name, parent, attributes, std::move(reply));
    ConnectionCall *call = newCall();
    m_service->createQueue(name.toStdString(), attributeMapOf(attributes), {}, call,
                           embeddedReply<EntityRef, std::string>({call, std::move(reply)}, [name](const std::string &url) {
                               return EntityRef{EntityKind::Queue, name, QString::fromStdString(url), {}};
                           }));
    return call;
}

ConnectionCall *EmbeddedConnection::deleteEntity(const EntityRef &entity, Reply<Done> reply)
{
    if (entity.kind != EntityKind::Queue)
        return deleteTopicEntity(entity, std::move(reply));
    ConnectionCall *call = newCall();
    m_service->deleteQueue(entity.name.toStdString(), call, embeddedDone({call, std::move(reply)}));
    return call;
}

ConnectionCall *EmbeddedConnection::purge(const EntityRef &entity, Reply<Done> reply)
{
    if (entity.kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Purge).reason));
    ConnectionCall *call = newCall();
    m_service->purgeQueue(entity.name.toStdString(), call, embeddedDone({call, std::move(reply)}));
    return call;
}

ConnectionCall *EmbeddedConnection::send(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply)
{
    if (entity.kind == EntityKind::Topic)
        return publish(entity, message, std::move(reply));
    if (entity.kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Send).reason));
    SendRequest request;
    request.body = message.body.toStdString();
    request.attributes = messageAttributesOf(message.attributes);
    request.delaySeconds = message.delaySeconds;
    if (!message.groupId.isEmpty())
        request.groupId = message.groupId.toStdString();
    if (!message.deduplicationId.isEmpty())
        request.deduplicationId = message.deduplicationId.toStdString();
    ConnectionCall *call = newCall();
    m_service->sendMessage(entity.name.toStdString(), std::move(request), call,
                           embeddedReply<QString, SendReceipt>({call, std::move(reply)}, [](const SendReceipt &receipt) {
                               return QString::fromStdString(receipt.messageId);
                           }));
    return call;
}

ConnectionCall *EmbeddedConnection::peek(const EntityRef &entity, const PeekRequest &request, Reply<MessagePage> reply)
{
    if (entity.kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Peek).reason));
    BrowseRequest browse;
    browse.after = request.after;
    browse.pageSize = request.count;
    ConnectionCall *call = newCall();
    m_service->browseQueue(entity.name.toStdString(), browse, call,
                           embeddedReply<MessagePage, BrowsePage>({call, std::move(reply)}, [](const BrowsePage &page) {
                               MessagePage lines;
                               for (const BrowsedMessage &message : page.messages) {
                                   MessageLine line;
                                   line.messageId = QString::fromStdString(message.messageId);
                                   line.body = QString::fromStdString(message.body);
                                   line.attributes = attributesOf(message.attributes);
                                   line.state = QString::fromUtf8(messageStateName(message.state));
                                   line.sent = timeOf(message.sent);
                                   line.receiveCount = message.receiveCount;
                                   line.sequenceNumber = message.sequenceNumber;
                                   lines.messages.push_back(std::move(line));
                               }
                               lines.next = page.nextPageToken;
                               lines.total = page.total;
                               return lines;
                           }));
    return call;
}

ConnectionCall *EmbeddedConnection::poll(const EntityRef &entity, const PollRequest &request, Reply<std::vector<MessageLine>> reply)
{
    if (entity.kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Poll).reason));
    ReceiveRequest receive;
    receive.maxNumberOfMessages = request.count;
    receive.visibilityTimeout = request.visibilitySeconds;
    receive.waitTimeSeconds = 0;
    ConnectionCall *call = newCall();
    m_service->receiveMessage(
        entity.name.toStdString(), receive, call,
        embeddedReply<std::vector<MessageLine>, ReceiveResult>({call, std::move(reply)}, [](const ReceiveResult &result) {
            std::vector<MessageLine> lines;
            for (const ReceivedMessage &message : result.messages) {
                MessageLine line;
                line.messageId = QString::fromStdString(message.messageId);
                line.body = QString::fromStdString(message.body);
                line.attributes = attributesOf(message.attributes);
                line.state = QStringLiteral("received");
                line.sent = timeOf(message.sentTimestamp);
                line.receiveCount = message.approximateReceiveCount;
                line.receiptHandle = QString::fromStdString(message.receiptHandle);
                line.sequenceNumber = message.sequenceNumber;
                lines.push_back(std::move(line));
            }
            return lines;
        }));
    return call;
}

ConnectionCall *EmbeddedConnection::settle(const EntityRef &entity, const MessageLine &message, Reply<Done> reply)
{
    if (entity.kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Settle).reason));
    ConnectionCall *call = newCall();
    m_service->deleteMessage(entity.name.toStdString(), message.receiptHandle.toStdString(), call,
                             embeddedDone({call, std::move(reply)}));
    return call;
}

} // namespace relaydesk
