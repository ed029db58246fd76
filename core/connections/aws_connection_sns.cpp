// SPDX-License-Identifier: MIT
// AwsConnection's SNS half: topics and subscriptions over the query protocol.
#include "connections/aws_connection.h"

#include <memory>

namespace relaydesk {

namespace {

AwsClient::XmlReply doneReply(PendingCall<Done> pending)
{
    return [pending](ConnectionResult<XmlNode> answer) {
        if (!answer.ok)
            return pending.fail(answer.error);
        pending.succeed({});
    };
}

} // namespace

ConnectionCall *AwsConnection::snsAction(const QString &action, const AwsClient::Form &form, Reply<Done> reply)
{
    ConnectionCall *call = newCall();
    m_client->query(QStringLiteral("sns"), action, form, call, doneReply({call, std::move(reply)}));
    return call;
}

ConnectionCall *AwsConnection::listTopics(const QString &parent, bool subscriptions, Reply<std::vector<EntitySummary>> reply)
{
    ConnectionCall *call = newCall();
    snsPage(parent, subscriptions, {}, std::make_shared<std::vector<EntitySummary>>(), {call, std::move(reply)});
    return call;
}

void AwsConnection::snsPage(const QString &parent, bool subscriptions, const QString &token,
                            std::shared_ptr<std::vector<EntitySummary>> found, PendingCall<std::vector<EntitySummary>> pending)
{
    AwsClient::Form form;
    if (subscriptions && !parent.isEmpty())
        form.append({QStringLiteral("TopicArn"), parent});
    if (!token.isEmpty())
        form.append({QStringLiteral("NextToken"), token});
    const QString action = !subscriptions ? QStringLiteral("ListTopics")
                           : parent.isEmpty() ? QStringLiteral("ListSubscriptions")
                                              : QStringLiteral("ListSubscriptionsByTopic");
    m_client->query(QStringLiteral("sns"), action, form, pending.call(),
                    [this, parent, subscriptions, found, pending](ConnectionResult<XmlNode> answer) {
        if (!answer.ok)
            return pending.fail(answer.error);
        for (const XmlNode *member : answer.value.all(QStringLiteral("member"))) {
            if (!subscriptions) {
                const QString arn = member->textOf(QStringLiteral("TopicArn"));
                found->push_back({{EntityKind::Topic, nameOfArn(arn), arn, {}}, {}, {}, {}});
                continue;
            }
            const QString name = member->textOf(QStringLiteral("Protocol")) + QLatin1Char(' ') +
                                 member->textOf(QStringLiteral("Endpoint"));
            found->push_back({{EntityKind::Subscription, name, member->textOf(QStringLiteral("SubscriptionArn")),
                               member->textOf(QStringLiteral("TopicArn"))},
                              {}, {}, {}});
        }
        const QString next = answer.value.textOf(QStringLiteral("NextToken"));
        if (!pending.live())
            return;
        pending.call()->report(static_cast<qint64>(found->size()), next.isEmpty() ? static_cast<qint64>(found->size()) : -1);
        if (next.isEmpty())
            return pending.succeed(std::move(*found));
        snsPage(parent, subscriptions, next, found, pending);
    });
}

ConnectionCall *AwsConnection::topicAttributes(const EntityRef &entity, Reply<EntityAttributes> reply)
{
    if (entity.kind != EntityKind::Topic && entity.kind != EntityKind::Subscription)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Attributes).reason));
    const bool topic = entity.kind == EntityKind::Topic;
    ConnectionCall *call = newCall();
    PendingCall<EntityAttributes> pending(call, std::move(reply));
    m_client->query(QStringLiteral("sns"), topic ? QStringLiteral("GetTopicAttributes") : QStringLiteral("GetSubscriptionAttributes"),
                    {{topic ? QStringLiteral("TopicArn") : QStringLiteral("SubscriptionArn"), entity.address}}, call,
                    [pending](ConnectionResult<XmlNode> answer) {
                        if (!answer.ok)
                            return pending.fail(answer.error);
                        EntityAttributes attributes;
                        for (const XmlNode *entry : answer.value.all(QStringLiteral("entry")))
                            attributes.insert(entry->textOf(QStringLiteral("key")), entry->textOf(QStringLiteral("value")));
                        pending.succeed(attributes);
                    });
    return call;
}

ConnectionCall *AwsConnection::createTopicEntity(EntityKind kind, const QString &name, const QString &parent,
                                                 const EntityAttributes &attributes, Reply<EntityRef> reply)
{
    AwsClient::Form form;
    QString action;
    QString answerElement;
    if (kind == EntityKind::Topic) {
        action = QStringLiteral("CreateTopic");
        answerElement = QStringLiteral("TopicArn");
        form.append({QStringLiteral("Name"), name});
        int n = 0;
        for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute) {
            const QString prefix = QStringLiteral("Attributes.entry.%1.").arg(++n);
            form.append({prefix + QStringLiteral("key"), attribute.key()});
            form.append({prefix + QStringLiteral("value"), attribute.value()});
        }
    } else if (kind == EntityKind::Subscription) {
        // A subscription is made from its topic, Protocol and Endpoint (as SNS names them).
        action = QStringLiteral("Subscribe");
        answerElement = QStringLiteral("SubscriptionArn");
        form = {{QStringLiteral("TopicArn"), parent},
                {QStringLiteral("Protocol"), attributes.value(QStringLiteral("Protocol"))},
                {QStringLiteral("Endpoint"), attributes.value(QStringLiteral("Endpoint"))},
                {QStringLiteral("ReturnSubscriptionArn"), QStringLiteral("true")}};
    } else {
        return refuse(std::move(reply), ConnectionError::unsupported(capability(kind, ConnectionFeature::Create).reason));
    }
    ConnectionCall *call = newCall();
    PendingCall<EntityRef> pending(call, std::move(reply));
    m_client->query(QStringLiteral("sns"), action, form, call,
                    [pending, kind, name, parent, answerElement](ConnectionResult<XmlNode> answer) {
                        if (!answer.ok)
                            return pending.fail(answer.error);
                        pending.succeed({kind, name, answer.value.textOf(answerElement), parent});
                    });
    return call;
}

ConnectionCall *AwsConnection::publish(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply)
{
    AwsClient::Form form{{QStringLiteral("TopicArn"), entity.address}, {QStringLiteral("Message"), message.body}};
    if (!message.groupId.isEmpty())
        form.append({QStringLiteral("MessageGroupId"), message.groupId});
    if (!message.deduplicationId.isEmpty())
        form.append({QStringLiteral("MessageDeduplicationId"), message.deduplicationId});
    int n = 0;
    for (auto attribute = message.attributes.constBegin(); attribute != message.attributes.constEnd(); ++attribute) {
        const QString prefix = QStringLiteral("MessageAttributes.entry.%1.").arg(++n);
        form.append({prefix + QStringLiteral("Name"), attribute.key()});
        form.append({prefix + QStringLiteral("Value.DataType"), QStringLiteral("String")});
        form.append({prefix + QStringLiteral("Value.StringValue"), attribute.value()});
    }
    ConnectionCall *call = newCall();
    PendingCall<QString> pending(call, std::move(reply));
    m_client->query(QStringLiteral("sns"), QStringLiteral("Publish"), form, call, [pending](ConnectionResult<XmlNode> answer) {
        if (!answer.ok)
            return pending.fail(answer.error);
        pending.succeed(answer.value.textOf(QStringLiteral("MessageId")));
    });
    return call;
}

} // namespace relaydesk
