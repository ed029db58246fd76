// SPDX-License-Identifier: MIT
// AwsConnection's SQS message move tasks (docs/window.md "Connections"): a
// dead-letter queue's messages moved back to their source queues or to one
// queue, by StartMessageMoveTask and ListMessageMoveTasks. Both take ARNs:
// each queue's QueueArn is read first (GetQueueAttributes).
#include "connections/aws_connection.h"

#include <QJsonArray>

namespace relaydesk {

namespace {

MessageMoveLine moveLine(const QJsonObject &task)
{
    MessageMoveLine line;
    line.taskHandle = task.value(QStringLiteral("TaskHandle")).toString();
    line.status = task.value(QStringLiteral("Status")).toString();
    line.sourceArn = task.value(QStringLiteral("SourceArn")).toString();
    line.destinationArn = task.value(QStringLiteral("DestinationArn")).toString();
    line.moved = task.value(QStringLiteral("ApproximateNumberOfMessagesMoved")).toInteger();
    if (task.contains(QStringLiteral("ApproximateNumberOfMessagesToMove")))
        line.toMove = task.value(QStringLiteral("ApproximateNumberOfMessagesToMove")).toInteger();
    line.failureReason = task.value(QStringLiteral("FailureReason")).toString();
    return line;
}

} // namespace

Capability AwsConnection::moves(EntityKind kind) const
{
    if (kind != EntityKind::Queue)
        return Capability::no(QStringLiteral("Only an SQS queue's messages are moved (a dead-letter queue's)."));
    return Capability::yes();
}

void AwsConnection::queueArn(const QString &queueUrl, ConnectionCall *call, std::function<void(ConnectionResult<QString>)> reply)
{
    sqs(QStringLiteral("GetQueueAttributes"),
        {{QStringLiteral("QueueUrl"), queueUrl}, {QStringLiteral("AttributeNames"), QJsonArray{QStringLiteral("QueueArn")}}}, call,
        [reply = std::move(reply)](ConnectionResult<QJsonObject> answer) {
            if (!answer.ok)
                return reply(ConnectionResult<QString>::failure(answer.error));
            reply(ConnectionResult<QString>::success(
                answer.value.value(QStringLiteral("Attributes")).toObject().value(QStringLiteral("QueueArn")).toString()));
        });
}

ConnectionCall *AwsConnection::moveMessages(const EntityRef &deadLetterQueue, const EntityRef &destination, Reply<QString> reply)
{
    if (!moves(deadLetterQueue.kind).offered)
        return refuse(std::move(reply), ConnectionError::unsupported(moves(deadLetterQueue.kind).reason));
    ConnectionCall *call = newCall();
    const PendingCall<QString> pending(call, std::move(reply));
    const auto start = [this, call, pending](const QString &source, const QString &target) {
        QJsonObject input{{QStringLiteral("SourceArn"), source}};
        if (!target.isEmpty())
            input.insert(QStringLiteral("DestinationArn"), target);
        sqs(QStringLiteral("StartMessageMoveTask"), input, call, [pending](ConnectionResult<QJsonObject> answer) {
            if (!answer.ok)
                return pending.fail(answer.error);
            pending.succeed(answer.value.value(QStringLiteral("TaskHandle")).toString());
        });
    };
    queueArn(deadLetterQueue.address, call, [this, call, pending, start, destination](ConnectionResult<QString> source) {
        if (!source.ok)
            return pending.fail(source.error);
        if (destination.address.isEmpty())
            return start(source.value, {});
        queueArn(destination.address, call, [pending, start, sourceArn = source.value](ConnectionResult<QString> target) {
            if (!target.ok)
                return pending.fail(target.error);
            start(sourceArn, target.value);
        });
    });
    return call;
}

ConnectionCall *AwsConnection::messageMoves(const EntityRef &deadLetterQueue, Reply<std::vector<MessageMoveLine>> reply)
{
    if (!moves(deadLetterQueue.kind).offered)
        return refuse(std::move(reply), ConnectionError::unsupported(moves(deadLetterQueue.kind).reason));
    ConnectionCall *call = newCall();
    const PendingCall<std::vector<MessageMoveLine>> pending(call, std::move(reply));
    queueArn(deadLetterQueue.address, call, [this, call, pending](ConnectionResult<QString> source) {
        if (!source.ok)
            return pending.fail(source.error);
        sqs(QStringLiteral("ListMessageMoveTasks"), {{QStringLiteral("SourceArn"), source.value}, {QStringLiteral("MaxResults"), 10}},
            call, [pending](ConnectionResult<QJsonObject> answer) {
                if (!answer.ok)
                    return pending.fail(answer.error);
                std::vector<MessageMoveLine> lines;
                for (const QJsonValue task : answer.value.value(QStringLiteral("Results")).toArray())
                    lines.push_back(moveLine(task.toObject()));
                pending.succeed(std::move(lines));
            });
    });
    return call;
}

} // namespace relaydesk
