// SPDX-License-Identifier: MIT
#pragma once

#include "connections/aws_xml.h"
#include "connections/broker_connection.h"
#include "connections/servicebus_connection_string.h"

#include <QUrl>

class QNetworkAccessManager;

namespace relaydesk {

// A Service Bus namespace (Azure's, the emulator, or Relaydesk's) as a
// connection, from its connection string. This first version manages
// entities through the management API (ATOM over HTTP(S), as
// ServiceBusAdministrationClient does; docs/api.md "Service Bus management"):
//  - queues, topics, a topic's subscriptions: listed ($top=100 a page,
//    following the feed's `next` link) with their counts (CountDetails:
//    available = ActiveMessageCount, delayed = ScheduledMessageCount);
//  - attributes: the description's elements by name (LockDuration,
//    MaxDeliveryCount, …, the counts among them); setting them sends the
//    whole description back with the changed values (If-Match: *);
//  - create (a description with the given elements, in the given order:
//    Relaydesk takes any order, Azure wants its schema's) and delete.
// Every request carries `Authorization: SharedAccessSignature …` signed with
// the string's key for the management URL (an hour's validity). Messages
// (send, peek, receive, settle) go over AMQP and are not written yet: those
// features say so. Errors are the service's <Error><Code>, <Detail>
// (service "Service Bus").
class ServiceBusConnection final : public BrokerConnection {
    Q_OBJECT
public:
    struct Settings {
        QString name;
        QString connectionString;
        QUrl managementUrl;   // empty: the string's (ServiceBusConnectionString::managementUrl)
    };

    explicit ServiceBusConnection(Settings settings, QObject *parent = nullptr);

    // Empty when the connection string reads; else why not (every call then answers it).
    const QString &settingsError() const { return m_string.error; }

    QString displayName() const override { return m_settings.name; }
    std::vector<EntityKind> entityKinds() const override;
    Capability capability(EntityKind kind, ConnectionFeature feature) const override;

    ConnectionCall *listEntities(EntityKind kind, const QString &parent, Reply<std::vector<EntitySummary>> reply) override;
    ConnectionCall *attributes(const EntityRef &entity, Reply<EntityAttributes> reply) override;
    ConnectionCall *setAttributes(const EntityRef &entity, const EntityAttributes &changes, Reply<Done> reply) override;
    ConnectionCall *createEntity(EntityKind kind, const QString &name, const QString &parent,
                                 const EntityAttributes &attributes, Reply<EntityRef> reply) override;
    ConnectionCall *deleteEntity(const EntityRef &entity, Reply<Done> reply) override;
    ConnectionCall *purge(const EntityRef &entity, Reply<Done> reply) override;
    ConnectionCall *send(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply) override;
    ConnectionCall *peek(const EntityRef &entity, const PeekRequest &request, Reply<MessagePage> reply) override;
    ConnectionCall *poll(const EntityRef &entity, const PollRequest &request,
                         Reply<std::vector<MessageLine>> reply) override;
    ConnectionCall *settle(const EntityRef &entity, const MessageLine &message, Reply<Done> reply) override;

private:
    using Answer = std::function<void(ConnectionResult<XmlNode>)>;
    // `update`: a PUT with If-Match: * (change an entity, never create one).
    void request(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body, ConnectionCall *call,
                 Answer answer, bool update = false);
    void listPage(EntityKind kind, const QString &parent, const QString &pathAndQuery,
                  std::shared_ptr<std::vector<EntitySummary>> found, PendingCall<std::vector<EntitySummary>> pending);
    QString authorization() const;
    template <class T>
    ConnectionCall *notYet(EntityKind kind, ConnectionFeature feature, Reply<T> reply);

    Settings m_settings;
    ServiceBusConnectionString m_string;
    QUrl m_management;
    QNetworkAccessManager *m_network = nullptr;
};

} // namespace relaydesk
