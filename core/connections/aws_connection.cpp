// SPDX-License-Identifier: MIT
#include "connections/aws_connection.h"

#include "connections/sqs_query_form.h"

#include <QJsonArray>
#include <QUrl>

#include <memory>

namespace relaydesk {

namespace {

struct Missing {
    EntityKind kind;
    ConnectionFeature feature;
    const char *reason;
};

// What an AWS profile's services do not offer, and why (docs/window.md).
constexpr Missing kMissing[] = {
    {EntityKind::Queue, ConnectionFeature::Counts,
     "Amazon SQS lists queue URLs only: a queue's counts are among its attributes (one GetQueueAttributes each)."},
    {EntityKind::Queue, ConnectionFeature::Peek,
     "Amazon SQS cannot show messages without receiving them: Poll messages receives them with a short visibility, "
     "and each counts as a receive."},
    {EntityKind::Queue, ConnectionFeature::AttemptLog, "Amazon SQS keeps no attempt log."},
    {EntityKind::Topic, ConnectionFeature::Counts, "Amazon SNS keeps no messages to count."},
    {EntityKind::Topic, ConnectionFeature::Purge, "Amazon SNS keeps no messages to purge."},
    {EntityKind::Topic, ConnectionFeature::Peek, "Amazon SNS keeps no messages to show."},
    {EntityKind::Topic, ConnectionFeature::Poll, "Amazon SNS keeps no messages to receive."},
    {EntityKind::Topic, ConnectionFeature::Settle, "Amazon SNS keeps no messages to receive."},
    {EntityKind::Topic, ConnectionFeature::AttemptLog,
     "Amazon SNS has no attempt log (its delivery status logging writes to CloudWatch Logs)."},
    {EntityKind::Subscription, ConnectionFeature::Counts, "An SNS subscription keeps no messages."},
    {EntityKind::Subscription, ConnectionFeature::Purge, "An SNS subscription keeps no messages."},
    {EntityKind::Subscription, ConnectionFeature::Send, "Publish to the subscription's topic."},
    {EntityKind::Subscription, ConnectionFeature::Peek, "An SNS subscription keeps no messages."},
    {EntityKind::Subscription, ConnectionFeature::Poll, "An SNS subscription keeps no messages."},
    {EntityKind::Subscription, ConnectionFeature::Settle, "An SNS subscription keeps no messages."},
    {EntityKind::Subscription, ConnectionFeature::AttemptLog,
     "Amazon SNS has no attempt log (its delivery status logging writes to CloudWatch Logs)."},
};

QJsonObject attributesJson(const EntityAttributes &attributes)
{
    QJsonObject object;
    for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute)
        object.insert(attribute.key(), attribute.value());
    return object;
}

MessageLine polledLine(const QJsonObject &message)
{
    MessageLine line;
    line.messageId = message.value(QStringLiteral("MessageId")).toString();
    line.body = message.value(QStringLiteral("Body")).toString();
    line.receiptHandle = message.value(QStringLiteral("ReceiptHandle")).toString();
    line.state = QStringLiteral("received");
    const QJsonObject system = message.value(QStringLiteral("Attributes")).toObject();
    line.receiveCount = system.value(QStringLiteral("ApproximateReceiveCount")).toString().toInt();
    const QString sent = system.value(QStringLiteral("SentTimestamp")).toString();
    if (!sent.isEmpty())
        line.sent = QDateTime::fromMSecsSinceEpoch(sent.toLongLong(), Qt::UTC);
    const QString sequence = system.value(QStringLiteral("SequenceNumber")).toString();
    if (!sequence.isEmpty())
        line.sequenceNumber = sequence.toLongLong();
    const QJsonObject attributes = message.value(QStringLiteral("MessageAttributes")).toObject();
    for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute)
        line.attributes.insert(attribute.key(), attribute.value().toObject().value(QStringLiteral("StringValue")).toString());
    return line;
}

} // namespace

QString queueNameOfUrl(const QString &url) { return QUrl(url).path().section(QLatin1Char('/'), -1); }

QString nameOfArn(const QString &arn) { return arn.section(QLatin1Char(':'), -1); }

AwsConnection::AwsConnection(AwsProfile profile, QObject *parent)
    : BrokerConnection(parent), m_client(new AwsClient(std::move(profile), this))
{
}

QString AwsConnection::displayName() const
{
    const AwsProfile &profile = m_client->profile();
    return profile.region.isEmpty() ? profile.name : QStringLiteral("%1 (%2)").arg(profile.name, profile.region);
}

std::vector<EntityKind> AwsConnection::entityKinds() const
{
    return {EntityKind::Queue, EntityKind::Topic, EntityKind::Subscription};
}

Capability AwsConnection::capability(EntityKind kind, ConnectionFeature feature) const
{
    const std::vector<EntityKind> kinds = entityKinds();
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
        return Capability::no(QStringLiteral("An AWS profile has SQS queues and SNS topics only."));
    if (feature == ConnectionFeature::Mocks)
        return Capability::no(QStringLiteral("Mock endpoints are Relaydesk's own."));
    if (feature == ConnectionFeature::Clock)
        return Capability::no(QStringLiteral("An AWS service keeps the wall clock."));
    if (feature == ConnectionFeature::DeadLetters)
        return Capability::no(QStringLiteral("An SQS dead-letter queue is a queue of its own (the redrive policy names it)."));
    for (const Missing &missing : kMissing)
        if (missing.kind == kind && missing.feature == feature)
            return Capability::no(QString::fromUtf8(missing.reason));
    return Capability::yes();
}

void AwsConnection::sqs(const QString &action, const QJsonObject &input, ConnectionCall *call, AwsClient::JsonReply reply)
{
    const QString queue = input.value(QStringLiteral("QueueUrl")).toString();
    if (!queue.isEmpty() && !queue.contains(QStringLiteral("://"))) {
        // A listing that gave names, not URLs (sqslite): the URL first, by GetQueueUrl.
        return sqs(QStringLiteral("GetQueueUrl"), {{QStringLiteral("QueueName"), queue}}, call,
                   [this, action, input, call, reply](ConnectionResult<QJsonObject> found) {
                       const QString url = found.value.value(QStringLiteral("QueueUrl")).toString();
                       if (!found.ok || !url.contains(QStringLiteral("://")))
                           return reply(found.ok ? ConnectionResult<QJsonObject>::failure(
                                                       {QStringLiteral("SQS"), QStringLiteral("QueueDoesNotExist"),
                                                        QStringLiteral("GetQueueUrl gave no URL for ") +
                                                            input.value(QStringLiteral("QueueUrl")).toString(), 0})
                                                 : found);
                       QJsonObject resolved = input;
                       resolved.insert(QStringLiteral("QueueUrl"), url);
                       sqs(action, resolved, call, reply);
                   });
    }
    const auto asQuery = [this, action, input, call, reply] {
        m_client->query(QStringLiteral("sqs"), action, sqsQueryForm(input), call,
                        [action, reply](ConnectionResult<XmlNode> answer) {
                            if (!answer.ok)
                                return reply(ConnectionResult<QJsonObject>::failure(answer.error));
                            reply(ConnectionResult<QJsonObject>::success(sqsQueryAnswer(action, answer.value)));
                        });
    };
    if (m_sqsQuery)
        return asQuery();
    m_client->sqsJson(action, input, call, [this, asQuery, reply](ConnectionResult<QJsonObject> answer) {
        if (!answer.ok && answer.error.code == AwsClient::kQueryProtocolOnly) {
            m_sqsQuery = true;
            return asQuery();
        }
        reply(std::move(answer));
    });
}

namespace {

// An SQS action whose answer the caller turns into T.
template <class T, class Make>
AwsClient::JsonReply answerWith(PendingCall<T> pending, Make make)
{
    return [pending, make](ConnectionResult<QJsonObject> answer) {
        if (!answer.ok)
            return pending.fail(answer.error);
        pending.succeed(make(answer.value));
    };
}

template <class T>
AwsClient::JsonReply answerDone(PendingCall<T> pending)
{
    return answerWith(pending, [](const QJsonObject &) { return Done{}; });
}

} // namespace

void AwsConnection::listQueuePage(const QString &token, std::shared_ptr<std::vector<EntitySummary>> found,
                                  PendingCall<std::vector<EntitySummary>> pending)
{
    QJsonObject input{{QStringLiteral("MaxResults"), 1000}};
    if (!token.isEmpty())
        input.insert(QStringLiteral("NextToken"), token);
    sqs(QStringLiteral("ListQueues"), input, pending.call(), [this, found, pending](ConnectionResult<QJsonObject> answer) {
        if (!answer.ok)
            return pending.fail(answer.error);
        for (const QJsonValue url : answer.value.value(QStringLiteral("QueueUrls")).toArray()) {
            const QString address = url.toString();
            found->push_back({{EntityKind::Queue, queueNameOfUrl(address), address, {}}, {}, {}, {}});
        }
        const QString next = answer.value.value(QStringLiteral("NextToken")).toString();
        if (!pending.live())
            return;
        pending.call()->report(static_cast<qint64>(found->size()), next.isEmpty() ? static_cast<qint64>(found->size()) : -1);
        if (next.isEmpty())
            return pending.succeed(std::move(*found));
        listQueuePage(next, found, pending);
    });
}

ConnectionCall *AwsConnection::listEntities(EntityKind kind, const QString &parent, Reply<std::vector<EntitySummary>> reply)
{
    if (kind == EntityKind::Topic || kind == EntityKind::Subscription)
        return listTopics(parent, kind == EntityKind::Subscription, std::move(reply));
    if (kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(kind, ConnectionFeature::List).reason));
    ConnectionCall *call = newCall();
    listQueuePage({}, std::make_shared<std::vector<EntitySummary>>(), {call, std::move(reply)});
    return call;
}

ConnectionCall *AwsConnection::attributes(const EntityRef &entity, Reply<EntityAttributes> reply)
{
    if (entity.kind != EntityKind::Queue)
        return topicAttributes(entity, std::move(reply));
    ConnectionCall *call = newCall();
    sqs(QStringLiteral("GetQueueAttributes"),
        {{QStringLiteral("QueueUrl"), entity.address}, {QStringLiteral("AttributeNames"), QJsonArray{QStringLiteral("All")}}},
        call, answerWith(PendingCall<EntityAttributes>(call, std::move(reply)), [](const QJsonObject &answer) {
            EntityAttributes attributes;
            const QJsonObject all = answer.value(QStringLiteral("Attributes")).toObject();
            for (auto attribute = all.constBegin(); attribute != all.constEnd(); ++attribute)
                attributes.insert(attribute.key(), attribute.value().toString());
            return attributes;
        }));
    return call;
}

ConnectionCall *AwsConnection::setAttributes(const EntityRef &entity, const EntityAttributes &changes, Reply<Done> reply)
{
    if (entity.kind != EntityKind::Queue) {
        // SNS sets one attribute a call; the window changes one at a time.
        if (changes.size() != 1)
            return refuse(std::move(reply), ConnectionError::unsupported(
                                                QStringLiteral("Amazon SNS sets one attribute at a time.")));
        const bool topic = entity.kind == EntityKind::Topic;
        return snsAction(topic ? QStringLiteral("SetTopicAttributes") : QStringLiteral("SetSubscriptionAttributes"),
                         {{topic ? QStringLiteral("TopicArn") : QStringLiteral("SubscriptionArn"), entity.address},
                          {QStringLiteral("AttributeName"), changes.firstKey()},
                          {QStringLiteral("AttributeValue"), changes.first()}},
                         std::move(reply));
    }
    ConnectionCall *call = newCall();
    sqs(QStringLiteral("SetQueueAttributes"),
        {{QStringLiteral("QueueUrl"), entity.address}, {QStringLiteral("Attributes"), attributesJson(changes)}}, call,
        answerDone(PendingCall<Done>(call, std::move(reply))));
    return call;
}

ConnectionCall *AwsConnection::createEntity(EntityKind kind, const QString &name, const QString &parent,
                                            const EntityAttributes &attributes, Reply<EntityRef> reply)
{
    if (kind != EntityKind::Queue)
        return createTopicEntity(kind, name, parent, attributes, std::move(reply));
    QJsonObject input{{QStringLiteral("QueueName"), name}};
    if (!attributes.isEmpty())
        input.insert(QStringLiteral("Attributes"), attributesJson(attributes));
    ConnectionCall *call = newCall();
    sqs(QStringLiteral("CreateQueue"), input, call,
        answerWith(PendingCall<EntityRef>(call, std::move(reply)), [name](const QJsonObject &answer) {
            return EntityRef{EntityKind::Queue, name, answer.value(QStringLiteral("QueueUrl")).toString(), {}};
        }));
    return call;
}

ConnectionCall *AwsConnection::deleteEntity(const EntityRef &entity, Reply<Done> reply)
{
    if (entity.kind == EntityKind::Topic)
        return snsAction(QStringLiteral("DeleteTopic"), {{QStringLiteral("TopicArn"), entity.address}}, std::move(reply));
    if (entity.kind == EntityKind::Subscription)
        return snsAction(QStringLiteral("Unsubscribe"), {{QStringLiteral("SubscriptionArn"), entity.address}},
                         std::move(reply));
    ConnectionCall *call = newCall();
    sqs(QStringLiteral("DeleteQueue"), {{QStringLiteral("QueueUrl"), entity.address}}, call,
        answerDone(PendingCall<Done>(call, std::move(reply))));
    return call;
}

ConnectionCall *AwsConnection::purge(const EntityRef &entity, Reply<Done> reply)
{
    if (entity.kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Purge).reason));
    ConnectionCall *call = newCall();
    sqs(QStringLiteral("PurgeQueue"), {{QStringLiteral("QueueUrl"), entity.address}}, call,
        answerDone(PendingCall<Done>(call, std::move(reply))));
    return call;
}

ConnectionCall *AwsConnection::send(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply)
{
    if (entity.kind == EntityKind::Topic)
        return publish(entity, message, std::move(reply));
    if (entity.kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Send).reason));
    QJsonObject input{{QStringLiteral("QueueUrl"), entity.address}, {QStringLiteral("MessageBody"), message.body}};
    if (message.delaySeconds)
        input.insert(QStringLiteral("DelaySeconds"), *message.delaySeconds);
    if (!message.groupId.isEmpty())
        input.insert(QStringLiteral("MessageGroupId"), message.groupId);
    if (!message.deduplicationId.isEmpty())
        input.insert(QStringLiteral("MessageDeduplicationId"), message.deduplicationId);
    QJsonObject attributes;
    for (auto attribute = message.attributes.constBegin(); attribute != message.attributes.constEnd(); ++attribute)
        attributes.insert(attribute.key(), QJsonObject{{QStringLiteral("DataType"), QStringLiteral("String")},
                                                       {QStringLiteral("StringValue"), attribute.value()}});
    if (!attributes.isEmpty())
        input.insert(QStringLiteral("MessageAttributes"), attributes);
    ConnectionCall *call = newCall();
    sqs(QStringLiteral("SendMessage"), input, call,
        answerWith(PendingCall<QString>(call, std::move(reply)),
                   [](const QJsonObject &answer) { return answer.value(QStringLiteral("MessageId")).toString(); }));
    return call;
}

ConnectionCall *AwsConnection::peek(const EntityRef &entity, const PeekRequest &, Reply<MessagePage> reply)
{
    return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Peek).reason));
}

ConnectionCall *AwsConnection::poll(const EntityRef &entity, const PollRequest &request, Reply<std::vector<MessageLine>> reply)
{
    if (entity.kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Poll).reason));
    ConnectionCall *call = newCall();
    sqs(QStringLiteral("ReceiveMessage"),
        {{QStringLiteral("QueueUrl"), entity.address},
         {QStringLiteral("MaxNumberOfMessages"), request.count},
         {QStringLiteral("VisibilityTimeout"), request.visibilitySeconds},
         {QStringLiteral("WaitTimeSeconds"), 0},
         {QStringLiteral("AttributeNames"), QJsonArray{QStringLiteral("All")}},
         {QStringLiteral("MessageAttributeNames"), QJsonArray{QStringLiteral("All")}}},
        call, answerWith(PendingCall<std::vector<MessageLine>>(call, std::move(reply)), [](const QJsonObject &answer) {
            std::vector<MessageLine> lines;
            for (const QJsonValue message : answer.value(QStringLiteral("Messages")).toArray())
                lines.push_back(polledLine(message.toObject()));
            return lines;
        }));
    return call;
}

ConnectionCall *AwsConnection::settle(const EntityRef &entity, const MessageLine &message, Reply<Done> reply)
{
    if (entity.kind != EntityKind::Queue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Settle).reason));
    ConnectionCall *call = newCall();
    sqs(QStringLiteral("DeleteMessage"),
        {{QStringLiteral("QueueUrl"), entity.address}, {QStringLiteral("ReceiptHandle"), message.receiptHandle}}, call,
        answerDone(PendingCall<Done>(call, std::move(reply))));
    return call;
}

} // namespace relaydesk
