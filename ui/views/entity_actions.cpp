// SPDX-License-Identifier: MIT
#include "views/entity_actions.h"

#include "engine/broker_service.h"
#include "models/entity_tree_model.h"
#include "broker/broker_identity.h"
#include "connections/embedded/embedded_broker.h"
#include "views/entity_dialogs.h"

#include <QAction>
#include <QClipboard>
#include <QCoreApplication>
#include <QGuiApplication>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QWidget>

namespace relaydesk {

namespace {

using Entity = EntityChange::Entity;

} // namespace

EntityActions::EntityActions(QWidget *dialogParent)
    : QObject(dialogParent)
    , m_parent(dialogParent)
{
    m_newQueue = make(tr("New &Queue…"), QStringLiteral("newQueueAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Q),
                      &EntityActions::runNewQueue);
    m_newTopic = make(tr("New &Topic…"), QStringLiteral("newTopicAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_T),
                      &EntityActions::runNewTopic);
    m_subscribe = make(tr("&Subscribe…"), QStringLiteral("subscribeAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                       &EntityActions::runSubscribe);
    m_send = make(tr("Se&nd Message…"), QStringLiteral("sendAction"), QKeySequence(Qt::CTRL | Qt::Key_Return),
                  &EntityActions::runSend);
    m_publish = make(tr("&Publish…"), QStringLiteral("publishAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Return),
                     &EntityActions::runPublish);
    m_purge = make(tr("P&urge…"), QStringLiteral("purgeAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Delete),
                   &EntityActions::runPurge);
    m_delete = make(tr("&Delete…"), QStringLiteral("deleteAction"), QKeySequence::Delete, &EntityActions::runDelete);
    m_moveBack = make(tr("&Move Dead Letters Back…"), QStringLiteral("moveDeadLettersAction"),
                      QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_M), &EntityActions::runMoveDeadLetters);
    m_copyUrl = make(tr("Copy &URL"), QStringLiteral("copyUrlAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_U),
                     &EntityActions::runCopyUrl);
    m_copyArn = make(tr("Copy &ARN"), QStringLiteral("copyArnAction"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_A),
                     &EntityActions::runCopyArn);
    m_delete->setShortcutContext(Qt::WidgetWithChildrenShortcut); // Delete in a text field stays a text edit
    makeServiceBusActions();
    updateEnabled();
}

QAction *EntityActions::make(const QString &text, const QString &objectName, const QKeySequence &shortcut,
                             void (EntityActions::*run)())
{
    auto *action = new QAction(text, this);
    action->setObjectName(objectName);
    action->setShortcut(shortcut);
    connect(action, &QAction::triggered, this, run);
    return action;
}

void EntityActions::setBroker(EmbeddedBroker *host, EntityTreeModel *model)
{
    m_host = host;
    m_model = model;
    m_current = {};
    if (model)
        connect(model, &EntityTreeModel::refreshed, this, &EntityActions::updateEnabled);
    updateEnabled();
}

void EntityActions::setCurrent(const LocalEntity &ref)
{
    m_current = ref;
    updateEnabled();
}

void EntityActions::updateEnabled()
{
    const bool broker = m_host != nullptr;
    const bool queue = broker && !m_current.isNull() && m_current.kind == Entity::Queue;
    const bool topic = broker && !m_current.isNull() && m_current.kind == Entity::Topic;
    const QueueOverview *overview = queue && m_model ? m_model->queue(m_current.name) : nullptr;
    m_newQueue->setEnabled(broker);
    m_newTopic->setEnabled(broker);
    m_subscribe->setEnabled(topic);
    m_publish->setEnabled(topic);
    m_send->setEnabled(queue);
    m_purge->setEnabled(queue);
    m_moveBack->setEnabled(overview && overview->isDeadLetterQueue);
    m_delete->setEnabled(broker && !m_current.isNull());
    m_copyUrl->setEnabled(queue);
    m_copyArn->setEnabled(broker && !m_current.isNull());
    updateServiceBusEnabled();
}

QMenu *EntityActions::contextMenu(const LocalEntity &ref, EntityChange::Entity group, QWidget *parent)
{
    setCurrent(ref);
    auto *menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("entityContextMenu"));
    if (ref.serviceBus || serviceBusKind(ref) != ServiceBusKind::None) {
        addServiceBusItems(menu, ref);
        return menu;
    }
    if (ref.isNull()) {
        menu->addAction(group == Entity::Queue ? m_newQueue : m_newTopic);
        return menu;
    }
    switch (ref.kind) {
    case Entity::Queue:
        menu->addAction(m_send);
        menu->addAction(m_purge);
        if (m_moveBack->isEnabled())
            menu->addAction(m_moveBack);
        menu->addSeparator();
        menu->addAction(m_copyUrl);
        menu->addAction(m_copyArn);
        menu->addSeparator();
        menu->addAction(m_newQueue);
        break;
    case Entity::Topic:
        menu->addAction(m_publish);
        menu->addAction(m_subscribe);
        menu->addSeparator();
        menu->addAction(m_copyArn);
        menu->addSeparator();
        menu->addAction(m_newTopic);
        break;
    case Entity::Subscription:
        menu->addAction(m_copyArn);
        break;
    }
    menu->addSeparator();
    menu->addAction(m_delete);
    return menu;
}

bool EntityActions::confirm(const QString &question, const QString &acceptText)
{
    if (m_confirm)
        return m_confirm(question);
    QMessageBox box(QMessageBox::Warning, tr("Relaydesk"), question, QMessageBox::Cancel, m_parent);
    QPushButton *accept = box.addButton(acceptText, QMessageBox::DestructiveRole);
    box.setDefaultButton(QMessageBox::Cancel);
    box.exec();
    return box.clickedButton() == static_cast<QAbstractButton *>(accept);
}

QString EntityActions::arnOf(const LocalEntity &ref) const
{
    if (!m_host || ref.isNull())
        return {};
    switch (ref.kind) {
    case Entity::Queue:
        return QString::fromStdString(m_host->identity().queueArn(ref.name.toStdString()));
    case Entity::Topic:
        return QString::fromStdString(m_host->identity().topicArn(ref.name.toStdString()));
    case Entity::Subscription:
        return ref.name;
    }
    return {};
}

void EntityActions::runNewQueue()
{
    // The new entity's page opens once the broker made it (when it reaches the tree).
    if (m_host)
        openCreateQueueDialog(*m_host, m_parent,
                              [this](const QString &name) { requestOpen(LocalEntity{Entity::Queue, name}); });
}

void EntityActions::runNewTopic()
{
    if (m_host)
        openCreateTopicDialog(*m_host, m_parent,
                              [this](const QString &name) { requestOpen(LocalEntity{Entity::Topic, name}); });
}

void EntityActions::runSubscribe()
{
    if (m_host && m_current.kind == Entity::Topic && !m_current.isNull())
        openSubscribeDialog(*m_host, m_current.name, m_parent,
                            [this](const QString &arn) { requestOpen(LocalEntity{Entity::Subscription, arn}); });
}

void EntityActions::runSend()
{
    if (m_host && m_current.kind == Entity::Queue && !m_current.isNull())
        openSendDialog(*m_host, m_current.name, m_parent);
}

void EntityActions::runPublish()
{
    if (m_host && m_current.kind == Entity::Topic && !m_current.isNull())
        openPublishDialog(*m_host, m_current.name, m_parent);
}

void EntityActions::runMoveDeadLetters()
{
    if (m_host && m_current.kind == Entity::Queue && !m_current.isNull())
        openMoveDeadLettersDialog(*m_host, m_current.name, m_parent);
}

void EntityActions::runPurge()
{
    if (!m_host || m_current.kind != Entity::Queue || m_current.isNull())
        return;
    const QString name = m_current.name;
    const QueueOverview *queue = m_model ? m_model->queue(name) : nullptr;
    const qint64 count = queue ? queue->counts.available + queue->counts.inFlight + queue->counts.delayed +
                                     queue->counts.scheduled
                               : 0;
    if (!confirm(tr("Purge %1 messages from %2?\nEvery message in the queue is deleted; this cannot be undone.")
                     .arg(QLocale().toString(count), name),
                 tr("Purge")))
        return;
    m_host->service().purgeQueue(name.toStdString(), this, [this, name](Status status) {
        emit statusMessage(status ? tr("Purged %1.").arg(name)
                                  : tr("Purge of %1 refused: %2").arg(name, brokerErrorText(status.error())));
    });
}

void EntityActions::runDelete()
{
    if (!m_host || m_current.isNull() || deleteServiceBus(m_current))
        return;
    const LocalEntity ref = m_current;
    BrokerService &service = m_host->service();
    auto report = [this, ref](Status status) {
        emit statusMessage(status ? tr("Deleted %1 %2.").arg(entityKindWord(ref.kind), ref.name)
                                  : tr("Delete of %1 refused: %2").arg(ref.name, brokerErrorText(status.error())));
    };
    switch (ref.kind) {
    case Entity::Queue: {
        if (!confirm(deleteQueueQuestion(m_model ? m_model->overview() : EntityOverview{}, ref.name), tr("Delete")))
            return;
        service.deleteQueue(ref.name.toStdString(), this, report);
        return;
    }
    case Entity::Topic:
        if (!confirm(tr("Delete topic %1 and its subscriptions?").arg(ref.name), tr("Delete")))
            return;
        service.deleteTopic(ref.name.toStdString(), this, report);
        return;
    case Entity::Subscription:
        if (!confirm(tr("Delete subscription %1?").arg(ref.name), tr("Delete")))
            return;
        service.unsubscribe(ref.name.toStdString(), this, report);
        return;
    }
}

void EntityActions::runCopyUrl()
{
    if (!m_host || m_current.kind != Entity::Queue || m_current.isNull())
        return;
    const QueueOverview *queue = m_model ? m_model->queue(m_current.name) : nullptr;
    const QString url = queue && queue->zaqar   // a Zaqar queue is addressed through the Zaqar API
                            ? m_host->endpointUrl() + QStringLiteral("/v2/queues/") + m_current.name
                            : QString::fromStdString(m_host->identity().queueUrl(m_current.name.toStdString()));
    QGuiApplication::clipboard()->setText(url);
    emit statusMessage(tr("Copied %1").arg(url));
}

void EntityActions::runCopyArn()
{
    const QString arn = arnOf(m_current);
    if (arn.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(arn);
    emit statusMessage(tr("Copied %1").arg(arn));
}

QString deleteQueueQuestion(const EntityOverview &overview, const QString &name)
{
    const auto tr = [](const char *text, int n = -1) {
        return QCoreApplication::translate("relaydesk::EntityActions", text, nullptr, n);
    };
    qint64 count = 0;
    QStringList users;
    for (const QueueOverview &queue : overview.queues) {
        if (QString::fromStdString(queue.name) == name)
            count = queue.counts.available + queue.counts.inFlight + queue.counts.delayed + queue.counts.scheduled;
        if (queue.deadLetterQueue && QString::fromStdString(*queue.deadLetterQueue) == name)
            users << QString::fromStdString(queue.name);
    }
    QString question = tr("Delete queue %1 and its %Ln message(s)?", int(count)).arg(name);
    if (!users.isEmpty())
        question += QLatin1Char('\n')
                    + tr("It is the dead-letter queue of %1: dead letters from there would have nowhere to go.")
                          .arg(users.join(QStringLiteral(", ")));
    return question;
}

} // namespace relaydesk
