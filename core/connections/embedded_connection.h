// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "connections/broker_connection.h"

#include <memory>
#include <string>

namespace relaydesk {

class BrokerService;

// "This computer": the broker the window embeds, through the BrokerService
// calls the pages make today (docs/architecture.md §10). Names: a queue by its
// name (address: its URL), a topic by its name (address: its ARN), a
// subscription by its ARN. Replies come back on the connection's thread
// through the BrokerService's context (the ConnectionCall: a cancelled call
// drops its reply). Errors are the broker's codes in the SQS JSON (SQS) or
// query (SNS) spelling, service "SQS"/"SNS"/"Relaydesk".
//  - Peek is the broker's browse (every message in every state, paged);
//    poll receives without waiting; Counts come with attributes.
//  - createEntity(Subscription): attributes Protocol, Endpoint, AutoConfirm
//    ("true": an http/https subscription confirmed at once, as the window's
//    Create Subscription dialog offers), the rest the subscription's.
// Borrows the service, which must outlive the connection.
class EmbeddedConnection final : public BrokerConnection {
    Q_OBJECT
public:
    EmbeddedConnection(BrokerService &service, BrokerIdentity identity, QObject *parent = nullptr);

    QString displayName() const override;
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
    void listQueuePage(std::string token, std::shared_ptr<std::vector<EntitySummary>> found,
                       PendingCall<std::vector<EntitySummary>> pending);
    // embedded_connection_topics.cpp
    ConnectionCall *listTopicEntities(EntityKind kind, const QString &parent, Reply<std::vector<EntitySummary>> reply);
    void topicPage(bool subscriptions, const std::string &topic, std::string token,
                   std::shared_ptr<std::vector<EntitySummary>> found, PendingCall<std::vector<EntitySummary>> pending);
    ConnectionCall *topicAttributes(const EntityRef &entity, Reply<EntityAttributes> reply);
    ConnectionCall *setTopicAttributes(const EntityRef &entity, const EntityAttributes &changes, Reply<Done> reply);
    ConnectionCall *createTopicEntity(EntityKind kind, const QString &name, const QString &parent,
                                      const EntityAttributes &attributes, Reply<EntityRef> reply);
    ConnectionCall *deleteTopicEntity(const EntityRef &entity, Reply<Done> reply);
    ConnectionCall *publish(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply);
    // The topic name of a topic's (or a subscription's parent) ARN; the text itself when it is no ARN.
    std::string topicName(const QString &arnOrName) const;

    BrokerService *m_service = nullptr;
    BrokerIdentity m_identity;
};

} // namespace relaydesk
