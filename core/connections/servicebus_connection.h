// SPDX-License-Identifier: MIT
#pragma once

#include "connections/aws_xml.h"
#include "connections/broker_connection.h"
#include "connections/servicebus_connection_string.h"

#include <QUrl>

#include <memory>

class QNetworkAccessManager;

namespace relaydesk {

class AmqpSession;
class ServiceBusAmqpClient;

// A Service Bus namespace (Azure's, the emulator, or Relaydesk's) as a
// connection, from its connection string. This first version manages
// entities through the management API (ATOM over HTTP(S), as
// ServiceBusAdministrationClient does; docs/api.md "Service Bus management"):
//  - queues, topics, a topic's subscriptions: listed ($top=100 a page,
//    following the feed's `next` link) with their counts (CountDetails:
//    available = ActiveMessageCount, delayed = ScheduledMessageCount);
//  - attributes: the description's elements by name (LockDuration,
//    MaxDeliveryCount, …, the counts among them); set: the whole description
//    read now sent back with the changes (PUT, If-Match: *);
//  - create (a description with the given elements, in the given order:
//    Relaydesk takes any order, Azure wants its schema's) and delete.
// Every request carries `Authorization: SharedAccessSignature …` signed with
// the string's key for the management URL (an hour's validity). Errors are
// the service's <Error><Code>, <Detail> (service "Service Bus").
//
// Messages go over AMQP 1.0 (servicebus_amqp_client.h: Qpid Proton on a
// thread of its own; AMQPS to the string's host, port 5671 or the
// Endpoint's, with the system's CAs and `caFile`; plain AMQP, port 5672 or
// the Endpoint's, with UseDevelopmentEmulator=true), each entity authorized
// by a CBS put-token (servicebus_connection_messages.cpp):
//  - send: one message (body as a data section, string application
//    properties, MessageId, SessionId = groupId, Subject, ContentType);
//  - peek: com.microsoft:peek-message on ENTITY/$management, a page from the
//    sequence number after `after`;
//  - poll: a peek-lock receive of what is there (the link drained); the
//    locks stay with the connection until settled (the entity's LockDuration,
//    not renewed); receiptHandle is the lock token;
//  - settle/settleAs: complete (accepted), abandon (modified), dead-letter
//    (rejected, com.microsoft:dead-letter, the reason as the condition's
//    DeadLetterReason) on the receiving link;
//  - purge: receive-and-delete 100 at a time until a drain finds none
//    (progress after each batch; cancel stops between and within batches);
//  - deadLetters(): ENTITY/$DeadLetterQueue, peeked and polled as an entity;
//    resubmit sends a copy of a polled dead-lettered message (without the
//    service's annotations) to its entity, then completes it.
// AMQP errors are the condition and description the service sent
// (amqp:unauthorized-access, com.microsoft:entity-not-found, …). A cancel
// drops the AMQP connection (the next call opens another): messages it held
// locked go back to their entity when their locks expire.
class ServiceBusConnection final : public BrokerConnection {
    Q_OBJECT
public:
    struct Settings {
        QString name;
        QString connectionString;
        QUrl managementUrl;   // empty: the string's (ServiceBusConnectionString::managementUrl)
        QString caFile;       // a CA trusted for AMQPS besides the system's; empty: none
    };

    explicit ServiceBusConnection(Settings settings, QObject *parent = nullptr);
    ~ServiceBusConnection() override;

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
    ConnectionCall *settleAs(const EntityRef &entity, const MessageLine &message, Settlement how,
                             const QString &deadLetterReason, Reply<Done> reply) override;
    EntityRef deadLetters(const EntityRef &entity) const override;
    ConnectionCall *resubmit(const EntityRef &deadLetters, const MessageLine &message, Reply<QString> reply) override;

private:
    using Progress = std::function<void(qint64 done, qint64 total)>;
    template <class T>
    using Work = std::function<ConnectionResult<T>(AmqpSession &, const Progress &)>;
    // Runs `work` on the AMQP client's thread; its result answers the call here.
    template <class T>
    ConnectionCall *overAmqp(Reply<T> reply, Work<T> work);
    ServiceBusAmqpClient &amqpClient();

    using Answer = std::function<void(ConnectionResult<XmlNode>)>;
    // `update`: If-Match: * (a PUT that replaces an entity's description).
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
    std::unique_ptr<ServiceBusAmqpClient> m_amqp;   // made on the first message call
};

} // namespace relaydesk
