// SPDX-License-Identifier: MIT
#include "views/entity_dialogs.h"

#include "broker/broker_error.h"
#include "dialogs/create_queue_dialog.h"
#include "dialogs/create_subscription_dialog.h"
#include "dialogs/create_topic_dialog.h"
#include "dialogs/move_dead_letters_dialog.h"
#include "dialogs/publish_dialog.h"
#include "dialogs/send_message_dialog.h"
#include "dialogs/servicebus_create_dialog.h"
#include "dialogs/servicebus_send_dialog.h"
#include "dialogs/try_policy_dialog.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "broker/broker_identity.h"
#include "connections/embedded/embedded_broker.h"
#include "mock/policy_trial.h"
#include "views/entity_actions.h"

#include <QDialog>

#include <utility>

namespace relaydesk {

QString brokerErrorText(const BrokerError &error)
{
    return QStringLiteral("%1: %2").arg(QLatin1String(brokerErrorInfo(error.code).name), QString::fromStdString(error.message));
}

namespace {

// A dialog that deletes itself when closed, modal to its window.
QDialog *showDialog(QDialog *dialog)
{
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    return dialog;
}

} // namespace

namespace {

// Calls `created` with what `dialog` made, once the broker made it.
template <class Dialog, class Name>
QDialog *reportingCreation(Dialog *dialog, Name createdName, CreatedCallback created)
{
    if (created) {
        QObject::connect(dialog, &Dialog::answered, dialog, [dialog, createdName, created] {
            const QString name = (dialog->*createdName)();
            if (!name.isEmpty())
                created(name);
        });
    }
    return showDialog(dialog);
}

} // namespace

QDialog *openCreateQueueDialog(EmbeddedBroker &host, QWidget *parent, CreatedCallback created)
{
    return reportingCreation(new CreateQueueDialog(host.service(), parent), &CreateQueueDialog::createdName,
                             std::move(created));
}

QDialog *openCreateTopicDialog(EmbeddedBroker &host, QWidget *parent, CreatedCallback created)
{
    return reportingCreation(new CreateTopicDialog(host.service(), parent), &CreateTopicDialog::createdName,
                             std::move(created));
}

QDialog *openSubscribeDialog(EmbeddedBroker &host, const QString &topicName, QWidget *parent, CreatedCallback created)
{
    return reportingCreation(
        new CreateSubscriptionDialog(host.service(), &host.mocks(), host.endpointUrl(), topicName, parent),
        &CreateSubscriptionDialog::createdArn, std::move(created));
}

QDialog *openSendDialog(EmbeddedBroker &host, const QString &queueName, QWidget *parent)
{
    auto *dialog = new SendMessageDialog(host.service(), queueName, parent);
    dialog->setClock(&host.engine().clock());
    return showDialog(dialog);
}

QDialog *openPublishDialog(EmbeddedBroker &host, const QString &topicName, QWidget *parent)
{
    return showDialog(new PublishDialog(host.service(), topicName, parent));
}

QDialog *openMoveDeadLettersDialog(EmbeddedBroker &host, const QString &deadLetterQueueName, QWidget *parent)
{
    return showDialog(new MoveDeadLettersDialog(host.service(), host.engine(), deadLetterQueueName, parent));
}

QDialog *openServiceBusCreateDialog(EmbeddedBroker &host, int kind, const QString &topic, QWidget *parent,
                                    CreatedCallback created)
{
    return reportingCreation(
        new ServiceBusCreateDialog(host.service(), ServiceBusCreateDialog::Kind(kind), topic, parent),
        &ServiceBusCreateDialog::createdName, std::move(created));
}

QDialog *openServiceBusSendDialog(EmbeddedBroker &host, const QString &entity, bool toTopic, QWidget *parent)
{
    return showDialog(new ServiceBusSendDialog(host.service(), entity, toTopic, &host.engine().clock(), parent));
}

QDialog *openTryPolicyDialog(EmbeddedBroker &host, EntityActions &actions, const QString &policyJson, QWidget *parent)
{
    auto *dialog = new TryPolicyDialog(host.endpointUrl(), parent);
    QObject::connect(dialog, &TryPolicyDialog::tryRequested, dialog, [&host, &actions, dialog, policyJson] {
        PolicyTrialRequest request;
        request.deliveryPolicy = policyJson.toStdString();
        request.script = dialog->script().toStdString();
        policy_trial::start(host.service(), host.mocks(), host.identity(), request, dialog,
                            [dialog, &actions](Result<PolicyTrial> trial) {
                                if (!trial)
                                    return dialog->showFailure(brokerErrorText(trial.error()));
                                dialog->accept();
                                actions.requestOpen({EntityChange::Entity::Subscription,
                                                     QString::fromStdString(trial->subscriptionArn)},
                                                    QStringLiteral("deliveriesPage"));
                            });
    });
    return showDialog(dialog);
}

} // namespace relaydesk
