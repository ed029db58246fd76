// SPDX-License-Identifier: MIT
// EntityActions: the Service Bus rows of the tree (docs/window.md "Service
// Bus") — their New… dialogs, Send, and Delete of queues, topics and
// subscriptions; the SQS actions that do not apply are disabled there.
#include "views/entity_actions.h"

#include "broker/servicebus/servicebus_topic.h"
#include "dialogs/servicebus_create_dialog.h"
#include "engine/servicebus_admin_calls.h"
#include "connections/embedded/embedded_broker.h"
#include "models/entity_tree_model.h"
#include "views/entity_dialogs.h"

#include <QAction>
#include <QLocale>
#include <QMenu>

namespace relaydesk {

namespace {

using Entity = EntityChange::Entity;
using Kind = EntityActions::ServiceBusKind;

} // namespace

void EntityActions::makeServiceBusActions()
{
    m_newSbQueue = make(tr("New Service Bus Queu&e…"), QStringLiteral("newServiceBusQueueAction"), {},
                        &EntityActions::runNewServiceBusQueue);
    m_newSbTopic = make(tr("New Service Bus To&pic…"), QStringLiteral("newServiceBusTopicAction"), {},
                        &EntityActions::runNewServiceBusTopic);
    m_newSbSubscription = make(tr("New Service Bus Subscr&iption…"), QStringLiteral("newServiceBusSubscriptionAction"), {},
                               &EntityActions::runNewServiceBusSubscription);
    m_sendSb = make(tr("Se&nd Service Bus Message…"), QStringLiteral("sendServiceBusAction"), {},
                    &EntityActions::runSendServiceBus);
}

EntityActions::ServiceBusKind EntityActions::serviceBusKind(const LocalEntity &ref) const
{
    if (ref.isNull())
        return Kind::None;
    if (ref.serviceBus && ref.kind == Entity::Topic)
        return Kind::Topic;
    const QueueOverview *queue = ref.kind == Entity::Queue && m_model ? m_model->queue(ref.name) : nullptr;
    if (!queue)
        return Kind::None;
    if (!queue->serviceBusDeadLetterOf.empty())
        return Kind::DeadLetters;
    if (!queue->serviceBus)
        return Kind::None;
    return queue->serviceBusTopic.empty() ? Kind::Queue : Kind::Subscription;
}

QString EntityActions::currentServiceBusTopic() const
{
    switch (serviceBusKind(m_current)) {
    case Kind::Topic:
        return m_current.name;
    case Kind::Subscription:
        return QString::fromStdString(m_model->queue(m_current.name)->serviceBusTopic);
    default:
        return {};
    }
}

void EntityActions::updateServiceBusEnabled()
{
    const bool broker = m_host != nullptr;
    const Kind kind = broker ? serviceBusKind(m_current) : Kind::None;
    m_newSbQueue->setEnabled(broker);
    m_newSbTopic->setEnabled(broker);
    m_newSbSubscription->setEnabled(kind == Kind::Topic || kind == Kind::Subscription);
    m_sendSb->setEnabled(kind == Kind::Queue || kind == Kind::Topic);
    if (kind == Kind::None)
        return;
    // The SQS and SNS operations would store what no Service Bus receiver reads.
    for (QAction *sqsOnly : {m_send, m_publish, m_subscribe, m_copyUrl, m_copyArn})
        sqsOnly->setEnabled(false);
    m_purge->setEnabled(kind != Kind::Topic);
    m_delete->setEnabled(kind != Kind::DeadLetters);   // a sub-queue goes with its entity
}

void EntityActions::addServiceBusItems(QMenu *menu, const LocalEntity &ref)
{
    switch (serviceBusKind(ref)) {
    case Kind::None:   // the group
        menu->addAction(m_newSbQueue);
        menu->addAction(m_newSbTopic);
        return;
    case Kind::Queue:
        menu->addAction(m_sendSb);
        menu->addAction(m_purge);
        menu->addSeparator();
        menu->addAction(m_newSbQueue);
        break;
    case Kind::Topic:
        menu->addAction(m_sendSb);
        menu->addAction(m_newSbSubscription);
        menu->addSeparator();
        menu->addAction(m_newSbTopic);
        break;
    case Kind::Subscription:
        menu->addAction(m_purge);
        menu->addSeparator();
        menu->addAction(m_newSbSubscription);
        break;
    case Kind::DeadLetters:
        menu->addAction(m_purge);
        if (m_moveBack->isEnabled())
            menu->addAction(m_moveBack);
        return;
    }
    menu->addSeparator();
    menu->addAction(m_delete);
}

bool EntityActions::deleteServiceBus(const LocalEntity &ref)
{
    const Kind kind = serviceBusKind(ref);
    if (kind == Kind::None)
        return false;
    if (kind == Kind::DeadLetters)
        return true;
    auto report = [this, ref](Status status) {
        emit statusMessage(status ? tr("Deleted %1.").arg(ref.name)
                                  : tr("Delete of %1 refused: %2").arg(ref.name, brokerErrorText(status.error())));
    };
    BrokerService &service = m_host->service();
    const QueueOverview *queue = m_model->queue(ref.name);
    const qint64 count = queue ? queue->counts.available + queue->counts.inFlight + queue->counts.delayed +
                                     queue->counts.scheduled
                               : 0;
    switch (kind) {
    case Kind::Queue:
        if (confirm(tr("Delete Service Bus queue %1 and its %2 messages?\nIts dead-letter sub-queue goes with it.")
                        .arg(ref.name, QLocale().toString(count)),
                    tr("Delete")))
            servicebus_admin_calls::deleteQueue(service, ref.name.toStdString(), this, report);
        break;
    case Kind::Topic:
        if (confirm(tr("Delete Service Bus topic %1 and its subscriptions with their messages?").arg(ref.name),
                    tr("Delete")))
            servicebus_admin_calls::deleteTopic(service, ref.name.toStdString(), this, report);
        break;
    case Kind::Subscription: {
        const QString topic = QString::fromStdString(queue->serviceBusTopic);
        const QString name = ref.name.section(QLatin1Char('/'), -1);
        if (confirm(tr("Delete subscription %1 of topic %2 and its %3 messages?")
                        .arg(name, topic, QLocale().toString(count)),
                    tr("Delete")))
            servicebus_admin_calls::deleteSubscription(service, topic.toStdString(), name.toStdString(), this, report);
        break;
    }
    default:
        break;
    }
    return true;
}

void EntityActions::runNewServiceBusQueue()
{
    if (m_host)
        openServiceBusCreateDialog(*m_host, int(ServiceBusCreateDialog::Kind::Queue), {}, m_parent,
                                   [this](const QString &name) { requestOpen(LocalEntity{Entity::Queue, name}); });
}

void EntityActions::runNewServiceBusTopic()
{
    if (m_host)
        openServiceBusCreateDialog(*m_host, int(ServiceBusCreateDialog::Kind::Topic), {}, m_parent,
                                   [this](const QString &name) { requestOpen(LocalEntity{Entity::Topic, name, true}); });
}

void EntityActions::runNewServiceBusSubscription()
{
    const QString topic = currentServiceBusTopic();
    if (m_host && !topic.isEmpty())
        openServiceBusCreateDialog(*m_host, int(ServiceBusCreateDialog::Kind::Subscription), topic, m_parent,
                                   [this](const QString &queue) { requestOpen(LocalEntity{Entity::Queue, queue}); });
}

void EntityActions::runSendServiceBus()
{
    const Kind kind = m_host ? serviceBusKind(m_current) : Kind::None;
    if (kind == Kind::Queue || kind == Kind::Topic)
        openServiceBusSendDialog(*m_host, m_current.name, kind == Kind::Topic, m_parent);
}

} // namespace relaydesk
