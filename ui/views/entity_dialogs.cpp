// SPDX-License-Identifier: MIT
#include "views/entity_dialogs.h"

#include "broker/broker_error.h"
#include "dialogs/create_queue_dialog.h"
#include "dialogs/create_subscription_dialog.h"
#include "dialogs/create_topic_dialog.h"
#include "dialogs/quick_entity_dialog.h"
#include "engine/broker_service.h"
#include "net/broker_host.h"

#include <QDialog>

namespace relaydesk {

namespace {

using Done = std::function<void(const QString &)>;

std::optional<std::string> optionalText(const QString &text)
{
    return text.trimmed().isEmpty() ? std::nullopt : std::optional<std::string>(text.trimmed().toStdString());
}

template <class T>
std::function<void(Result<T>)> finish(Done done)
{
    return [done = std::move(done)](Result<T> result) { done(result ? QString() : brokerErrorText(result.error())); };
}

QDialog *show(QuickEntityDialog *dialog)
{
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}

} // namespace

QString brokerErrorText(const BrokerError &error)
{
    return QStringLiteral("%1: %2").arg(QLatin1String(brokerErrorInfo(error.code).name), QString::fromStdString(error.message));
}

namespace {

// A full dialog (attributes branch) shown like the quick ones.
QDialog *showDialog(QDialog *dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}

} // namespace

QDialog *openCreateQueueDialog(BrokerHost &host, QWidget *parent)
{
    return showDialog(new CreateQueueDialog(host.service(), parent));
}

QDialog *openCreateTopicDialog(BrokerHost &host, QWidget *parent)
{
    return showDialog(new CreateTopicDialog(host.service(), parent));
}

QDialog *openSubscribeDialog(BrokerHost &host, const QString &topicName, QWidget *parent)
{
    return showDialog(new CreateSubscriptionDialog(host.service(), &host.mocks(), host.endpointUrl(), topicName, parent));
}

QDialog *openSendDialog(BrokerHost &host, const QString &queueName, QWidget *parent)
{
    BrokerService &service = host.service();
    const bool fifo = queueName.endsWith(QLatin1String(".fifo"));
    QList<QuickEntityDialog::Field> fields{{QObject::tr("&Body:"), QString(), true, {}}};
    if (fifo)
        fields << QuickEntityDialog::Field{QObject::tr("&Group id:"), QStringLiteral("default"), false, {}};
    else
        fields << QuickEntityDialog::Field{QObject::tr("&Delay (seconds, 0–900):"), QStringLiteral("0"), false, {}};
    return show(new QuickEntityDialog(
        QObject::tr("Send to %1").arg(queueName), QString(), fields,
        [&service, parent, fifo, queue = queueName.toStdString()](const QStringList &values, Done done) {
            SendRequest request;
            request.body = values.value(0).toStdString();
            if (fifo) {
                request.groupId = optionalText(values.value(1));
            } else if (const QString delay = values.value(1).trimmed(); !delay.isEmpty() && delay != QLatin1String("0")) {
                bool ok = false;
                request.delaySeconds = delay.toInt(&ok);
                if (!ok)
                    return done(QObject::tr("Delay: '%1' is not a whole number of seconds.").arg(delay));
            }
            service.sendMessage(queue, request, parent, finish<SendReceipt>(std::move(done)));
        },
        parent));
}

QDialog *openPublishDialog(BrokerHost &host, const QString &topicName, QWidget *parent)
{
    BrokerService &service = host.service();
    const bool fifo = topicName.endsWith(QLatin1String(".fifo"));
    QList<QuickEntityDialog::Field> fields{{QObject::tr("&Message:"), QString(), true, {}},
                                           {QObject::tr("&Subject:"), QString(), false, {}}};
    if (fifo)
        fields << QuickEntityDialog::Field{QObject::tr("&Group id:"), QStringLiteral("default"), false, {}};
    return show(new QuickEntityDialog(
        QObject::tr("Publish to %1").arg(topicName), QString(), fields,
        [&service, parent, fifo, topic = topicName.toStdString()](const QStringList &values, Done done) {
            PublishRequest request;
            request.message = values.value(0).toStdString();
            request.subject = optionalText(values.value(1));
            if (fifo)
                request.groupId = optionalText(values.value(2));
            service.publish(topic, request, parent, finish<PublishReceipt>(std::move(done)));
        },
        parent));
}

QDialog *openMoveDeadLettersDialog(BrokerHost &host, const QString &deadLetterQueueName, QWidget *parent)
{
    BrokerService &service = host.service();
    const std::string sourceArn = host.identity().queueArn(deadLetterQueueName.toStdString());
    const BrokerIdentity identity = host.identity();
    return show(new QuickEntityDialog(
        QObject::tr("Move Dead Letters Back from %1").arg(deadLetterQueueName),
        QObject::tr("Moves every message of %1 back to the queue it came from, or to the queue named here.")
            .arg(deadLetterQueueName),
        {{QObject::tr("&Destination queue (empty: each message's source):"), QString(), false, {}}},
        [&service, parent, sourceArn, identity](const QStringList &values, Done done) {
            const QString destination = values.value(0).trimmed();
            std::optional<std::string> destinationArn;
            if (!destination.isEmpty())
                destinationArn = identity.queueArn(destination.toStdString());
            service.startMessageMoveTask(sourceArn, destinationArn, std::nullopt, parent,
                                         finish<std::string>(std::move(done)));
        },
        parent));
}

} // namespace relaydesk
