// SPDX-License-Identifier: MIT
#pragma once

#include "models/remote_entity.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTabWidget;
class QTableWidget;

namespace relaydesk {

class BrokerConnection;
class ConnectionCallBar;
class RemoteClockBar;
class RemoteDeliveriesPanel;
class RemoteMessagesPanel;
class RemoteSubscriptionsPanel;

// The page of a queue or topic of a connection other than This computer
// (docs/window.md "Connections", "A remote entity's page"). It works only
// through the BrokerConnection boundary:
//  - Attributes: every attribute the service gives, editable where the
//    connection offers setting them (Apply sends the changed ones);
//  - Messages (RemoteMessagesPanel): Peek and Poll, else "Poll messages";
//    settle, and Service Bus's dead-letter row (RemoteDeadLetterBar);
//  - Send (a queue) or Publish (a topic) of the body typed on the page;
//  - a topic's subscriptions, listed and added (RemoteSubscriptionsPanel),
//    and where the connection keeps an attempt log the chosen subscription's
//    deliveries and their attempts (RemoteDeliveriesPanel);
//  - Move messages… of a dead-letter queue back to the queues its messages
//    came from (SQS StartMessageMoveTask), where the connection moves them;
//  - the broker's clock (RemoteClockBar), where the connection has one;
//  - Purge…, Delete…, Move messages…: confirmed first (ConfirmNameDialog; the name typed on a
//    "production" connection).
// Each action is disabled with the connection's reason (its tooltip and
// accessible description) where the backend cannot do it; its error shows
// beside it in the service's own words; a call in flight shows in the call
// bar with Cancel, the actions disabled meanwhile.
//
// Ownership: borrows the connection (the window closes the page before the
// registry replaces its connections). GUI thread.
class RemoteEntityPage final : public QWidget {
    Q_OBJECT
public:
    RemoteEntityPage(BrokerConnection *connection, RemoteEntity entity, QString connectionName, bool production,
                     QWidget *parent = nullptr);
    ~RemoteEntityPage() override;

    const RemoteEntity &entity() const { return m_entity; }
    QPushButton *sendButton() const { return m_send; }
    QPushButton *purgeButton() const { return m_purge; }
    QPushButton *deleteButton() const { return m_delete; }
    QPushButton *moveButton() const { return m_move; }
    // The last move task's status ("COMPLETED: 3 messages moved"), or empty.
    QLabel *moveStatus() const { return m_moveStatus; }
    // A topic's deliveries (null where the connection keeps no attempt log, and on a queue's page).
    RemoteDeliveriesPanel *deliveries() const { return m_deliveries; }
    QPlainTextEdit *bodyEdit() const { return m_body; }
    QLabel *actionError() const { return m_actionError; }
    QTableWidget *attributeTable() const { return m_attributes; }
    RemoteMessagesPanel *messages() const { return m_messages; }
    // Null where the connection has no clock (capability Clock).
    RemoteClockBar *clockBar() const { return m_clock; }
    // A topic's subscriptions (null on a queue's page).
    RemoteSubscriptionsPanel *subscriptions() const { return m_subscriptions; }
    ConnectionCallBar *callBar() const { return m_callBar; }
    // Messages or Subscriptions (with Deliveries), then Attributes.
    QTabWidget *parts() const { return m_parts; }

signals:
    // The entity was deleted: the tree lists the connection again.
    void entityDeleted();

private:
    void loadAttributes();
    void applyAttributes();
    void sendBody();
    // Asks (ConfirmNameDialog), then purges or deletes.
    void confirmThen(const QString &question, const QString &action, std::function<void()> run);
    void purge();
    void deleteEntity();
    void moveMessages();
    void showMoves();
    void setBusy(bool busy);

    BrokerConnection *m_connection = nullptr;
    RemoteEntity m_entity;
    bool m_production = false;
    ConnectionCallBar *m_callBar = nullptr;
    QTableWidget *m_attributes = nullptr;
    QPushButton *m_apply = nullptr;
    QLabel *m_attributeError = nullptr;
    QPlainTextEdit *m_body = nullptr;
    QPushButton *m_send = nullptr;
    QPushButton *m_purge = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_move = nullptr;
    QLabel *m_moveStatus = nullptr;
    QLabel *m_actionError = nullptr;
    QTabWidget *m_parts = nullptr;
    RemoteMessagesPanel *m_messages = nullptr;
    RemoteClockBar *m_clock = nullptr;
    RemoteSubscriptionsPanel *m_subscriptions = nullptr;
    RemoteDeliveriesPanel *m_deliveries = nullptr;
};

} // namespace relaydesk
