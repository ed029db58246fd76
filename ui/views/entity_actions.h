// SPDX-License-Identifier: MIT
#pragma once

#include "models/entity_ref.h"

#include <QObject>

#include <functional>

class QAction;
class QMenu;
class QWidget;

namespace relaydesk {

class EmbeddedBroker;
class EntityTreeModel;
struct EntityOverview;

// The operations on entities, one QAction each, shared by the menus, the
// toolbar, the context menus and the pages (docs/window.md "How the window should feel": one action object,
// many places): New Queue/Topic, Subscribe, Send, Publish, Purge, Delete,
// Move Dead Letters Back, Copy URL, Copy ARN. They act on the current entity
// (setCurrent) — or, from a context menu, on the node under the mouse — and
// are enabled only where they apply. Destructive ones confirm with the
// object's name and what will happen ("Purge 1 204 messages from orders?");
// every call is asynchronous, its outcome goes to statusMessage.
//
// Ownership: borrows the host and the model (null: no broker, everything
// disabled); the actions are children of this object. Thread: GUI.
class EntityActions final : public QObject {
    Q_OBJECT
public:
    explicit EntityActions(QWidget *dialogParent);

    void setBroker(EmbeddedBroker *host, EntityTreeModel *model);
    void setCurrent(const LocalEntity &ref);
    const LocalEntity &current() const { return m_current; }

    // A menu for a tree node (`ref` null: the group of `group`); caller owns it.
    QMenu *contextMenu(const LocalEntity &ref, EntityChange::Entity group, QWidget *parent);

    QAction *newQueue() const { return m_newQueue; }
    QAction *newTopic() const { return m_newTopic; }
    QAction *subscribe() const { return m_subscribe; }
    QAction *send() const { return m_send; }
    QAction *publish() const { return m_publish; }
    QAction *purge() const { return m_purge; }
    QAction *deleteEntity() const { return m_delete; }
    QAction *moveDeadLetters() const { return m_moveBack; }
    QAction *copyUrl() const { return m_copyUrl; }
    QAction *copyArn() const { return m_copyArn; }
    // Service Bus (entity_actions_servicebus.cpp; docs/window.md "Service
    // Bus"): on the Service Bus group, its queues, topics, subscriptions and
    // dead-letter sub-queues. Delete, Purge and Move Dead Letters Back are
    // the shared actions above, which know a Service Bus entity.
    QAction *newServiceBusQueue() const { return m_newSbQueue; }
    QAction *newServiceBusTopic() const { return m_newSbTopic; }
    QAction *newServiceBusSubscription() const { return m_newSbSubscription; }
    QAction *sendServiceBus() const { return m_sendSb; }

    // What kind of Service Bus entity `ref` is in the tree now.
    enum class ServiceBusKind { None, Queue, Topic, Subscription, DeadLetters };
    ServiceBusKind serviceBusKind(const LocalEntity &ref) const;

    // Asks the window to show `ref`'s page, on the tab whose objectName is
    // `tab` when given (e.g. "deliveriesPage"): emits openRequested.
    void requestOpen(const LocalEntity &ref, const QString &tab = {}) { emit openRequested(ref, tab); }

    // Test hook: answers confirmations instead of a message box.
    void setConfirmForTesting(std::function<bool(const QString &question)> confirm) { m_confirm = std::move(confirm); }

signals:
    void statusMessage(const QString &message);
    // A page wants another entity shown (requestOpen).
    void openRequested(const relaydesk::LocalEntity &ref, const QString &tab);

private:
    QAction *make(const QString &text, const QString &objectName, const QKeySequence &shortcut, void (EntityActions::*run)());
    void updateEnabled();
    bool confirm(const QString &question, const QString &acceptText);
    void runNewQueue();
    void runNewTopic();
    void runSubscribe();
    void runSend();
    void runPublish();
    void runPurge();
    void runDelete();
    void runMoveDeadLetters();
    void runCopyUrl();
    void runCopyArn();
    QString arnOf(const LocalEntity &ref) const;
    void makeServiceBusActions();
    void updateServiceBusEnabled();
    void addServiceBusItems(QMenu *menu, const LocalEntity &ref);
    bool deleteServiceBus(const LocalEntity &ref);
    void runNewServiceBusQueue();
    void runNewServiceBusTopic();
    void runNewServiceBusSubscription();
    void runSendServiceBus();
    // The topic of the current Service Bus topic or subscription (empty otherwise).
    QString currentServiceBusTopic() const;

    QWidget *m_parent = nullptr;
    EmbeddedBroker *m_host = nullptr;
    EntityTreeModel *m_model = nullptr;
    LocalEntity m_current;
    std::function<bool(const QString &)> m_confirm;
    QAction *m_newQueue = nullptr;
    QAction *m_newTopic = nullptr;
    QAction *m_subscribe = nullptr;
    QAction *m_send = nullptr;
    QAction *m_publish = nullptr;
    QAction *m_purge = nullptr;
    QAction *m_delete = nullptr;
    QAction *m_moveBack = nullptr;
    QAction *m_copyUrl = nullptr;
    QAction *m_copyArn = nullptr;
    QAction *m_newSbQueue = nullptr;
    QAction *m_newSbTopic = nullptr;
    QAction *m_newSbSubscription = nullptr;
    QAction *m_sendSb = nullptr;
};

// The question before deleting queue `name`: its messages counted ("and its
// 1 message", "and its 1,209 messages", in the system's locale) and the
// queues whose redrive policy names it as their dead-letter queue (their
// dead letters would have nowhere to go). Pure; GUI thread (translations).
QString deleteQueueQuestion(const EntityOverview &overview, const QString &name);

} // namespace relaydesk
