// SPDX-License-Identifier: MIT
#pragma once

#include "connections/aws_client.h"
#include "connections/broker_connection.h"

namespace relaydesk {

// An AWS profile as a connection (docs/window.md "What each connection
// offers"): SQS queues over the SQS JSON protocol, SNS topics and their
// subscriptions over the SNS query protocol, at the profile's endpoints,
// signed with its credentials (AwsClient).
//  - Listings page with NextToken (ListQueues 1000 a page); progress after
//    each page. SQS lists no counts: a queue's counts are its attributes.
//  - No peek (SQS cannot look without receiving): poll receives with the
//    request's visibility; settle deletes by receipt handle.
//  - A service that answers the JSON protocol in XML (it speaks only the
//    query protocol, as sqslite) is spoken to in the query protocol from
//    then on, the failed call made again in it (sqs_query_form.h).
class AwsConnection : public BrokerConnection {
    Q_OBJECT
public:
    explicit AwsConnection(AwsProfile profile, QObject *parent = nullptr);

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
    // StartMessageMoveTask / ListMessageMoveTasks by the queues' ARNs (aws_connection_moves.cpp).
    Capability moves(EntityKind kind) const override;
    ConnectionCall *moveMessages(const EntityRef &deadLetterQueue, const EntityRef &destination, Reply<QString> reply) override;
    ConnectionCall *messageMoves(const EntityRef &deadLetterQueue, Reply<std::vector<MessageMoveLine>> reply) override;

    // Whether SQS is spoken in the query protocol (after a JSON request was answered in XML).
    bool speaksSqsQuery() const { return m_sqsQuery; }

protected:
    AwsClient *client() const { return m_client; }
    // One SQS action in the JSON protocol's shapes, whichever protocol the service speaks.
    void sqs(const QString &action, const QJsonObject &input, ConnectionCall *call, AwsClient::JsonReply reply);
    // SNS (aws_connection_sns.cpp).
    ConnectionCall *listTopics(const QString &parent, bool subscriptions, Reply<std::vector<EntitySummary>> reply);
    ConnectionCall *snsAction(const QString &action, const AwsClient::Form &form, Reply<Done> reply);

private:
    void listQueuePage(const QString &token, std::shared_ptr<std::vector<EntitySummary>> found,
                       PendingCall<std::vector<EntitySummary>> pending);
    void snsPage(const QString &parent, bool subscriptions, const QString &token,
                 std::shared_ptr<std::vector<EntitySummary>> found, PendingCall<std::vector<EntitySummary>> pending);
    ConnectionCall *topicAttributes(const EntityRef &entity, Reply<EntityAttributes> reply);
    ConnectionCall *createTopicEntity(EntityKind kind, const QString &name, const QString &parent,
                                      const EntityAttributes &attributes, Reply<EntityRef> reply);
    ConnectionCall *publish(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply);
    // The queue's QueueArn (GetQueueAttributes), for the move tasks.
    void queueArn(const QString &queueUrl, ConnectionCall *call, std::function<void(ConnectionResult<QString>)> reply);

    AwsClient *m_client = nullptr;
    bool m_sqsQuery = false;
};

// The names of a queue URL and of a topic or subscription ARN.
QString queueNameOfUrl(const QString &url);
QString nameOfArn(const QString &arn);

} // namespace relaydesk
