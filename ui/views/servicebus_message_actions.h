// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/servicebus_settlement.h"
#include "models/servicebus_message_model.h"

#include <QList>
#include <QObject>
#include <QString>

#include <map>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QMenu;
class QTableView;
class QWidget;

namespace relaydesk {

class BrokerService;
class ServiceBusMessageFilter;

// The per-message workflows of a Service Bus Messages page (docs/window.md
// "Service Bus"), in the service's terms, one QAction each in the page's
// tool row and the table's context menu, with its shortcut while the page
// has focus:
//  - Receive… takes the next messages peek-locked, as a receiver would
//    (BrokerService::receiveMessage with the entity's lock duration); this
//    page keeps their lock tokens, so Complete, Abandon, Dead-letter… and
//    Defer settle them (BrokerService::settleServiceBusMessage) — only
//    messages this page locked and whose lock holds. On an entity that
//    requires sessions, Receive… first accepts a session, as the SDKs'
//    acceptNextSession / acceptSession do (servicebus_message_calls::
//    acceptSession): the next available one, or the session id typed; the
//    page holds its lock for the receives and settlements that follow and
//    lets it go on Close Session, on accepting another, and when the page
//    goes (EntityPage::leave; releaseSession: its locked messages are
//    available again).
//  - Resubmit sends copies to the entity (servicebus_message_calls::resubmit);
//    a dead letter leaves the sub-queue in the same unit.
//  - Delete… (Del) asks, then removes the messages whatever their state
//    (BrokerService::deleteMessagesById on each queue).
//  - Export Selected… / Export All… write JSON lines (servicebus_message_lines)
//    of the selected messages, or of every message of the entity and of its
//    dead-letter sub-queue, read a page at a time with progress and Cancel
//    (PagedExport); Import… sends such a file to
//    the entity in one send (all or nothing), read on a pool thread.
//  - Copy Body, Copy Message ID, Copy as JSON (serviceBusMessageJson).
// Each broker call ends with a statusMessage in plural-correct words and
// `finished`. Ownership: borrows service, model, filter and table (they
// outlive it); a child of the page. GUI thread.
class ServiceBusMessageActions final : public QObject {
    Q_OBJECT
public:
    // `queue`: the page's broker queue (an entity's, or its dead-letter sub-queue).
    ServiceBusMessageActions(BrokerService &service, const QString &queue, ServiceBusMessageModel *model,
                             ServiceBusMessageFilter *filter, QTableView *table, QWidget *page);

    QAction *receive() const { return m_receive; }
    QAction *closeSession() const { return m_closeSession; }
    // Whether the entity requires sessions (known once the engine answered).
    bool sessionful() const { return m_sessionful; }
    // The session this page holds the lock of, if any.
    const std::optional<ServiceBusSessionHold> &session() const { return m_session; }
    QAction *complete() const { return m_complete; }
    QAction *abandon() const { return m_abandon; }
    QAction *deadLetter() const { return m_deadLetter; }
    QAction *defer() const { return m_defer; }
    QAction *resubmit() const { return m_resubmit; }
    QAction *deleteSelected() const { return m_delete; }
    QAction *exportSelected() const { return m_exportSelected; }
    QAction *exportAll() const { return m_exportAll; }
    QAction *importFile() const { return m_import; }
    QAction *copyBody() const { return m_copyBody; }
    QAction *copyMessageId() const { return m_copyId; }
    QAction *copyJson() const { return m_copyJson; }
    // The tool row's actions, in order (the copies are on the details pane).
    QList<QAction *> toolActions() const;
    // The table's context menu, with the actions that apply to the selection.
    QMenu *contextMenu(QWidget *parent);
    void updateEnabled();
    // The selected rows, in the table's order.
    std::vector<ServiceBusMessageRow> selectedRows() const;
    // Whether this page holds the lock of the message (it received it).
    bool holdsLock(const QString &storedId) const { return m_locks.count(storedId) > 0; }

public slots:
    void openReceiveDialog();
    void receiveMessages(int count);
    // Receives in a session: `sessionId`, or the next available one when
    // empty; the held session when it is that one (or none is named).
    void receiveInSession(int count, const QString &sessionId);
    void releaseSession();
    void settleSelected(ServiceBusSettlement::Kind kind, const QString &reason = {}, const QString &description = {});
    void openDeadLetterDialog();
    void resubmitSelected();
    void confirmDelete();
    void deleteMessages(const std::vector<ServiceBusMessageRow> &rows);
    void openExportDialog(bool selectedOnly);
    void exportMessages(const QString &path, bool selectedOnly);
    void openImportDialog();
    void importMessages(const QString &path);

signals:
    void sessionChanged();
    void statusMessage(const QString &message);
    void finished();

private:
    void report(const QString &message);
    QString entityQueue() const;
    void receiveLocked(int count, std::optional<ServiceBusSessionHold> session);
    bool askReceive(int &count, QString &sessionId);

    BrokerService *m_service = nullptr;
    QString m_queue;
    ServiceBusMessageModel *m_model = nullptr;
    ServiceBusMessageFilter *m_filter = nullptr;
    QTableView *m_table = nullptr;
    QWidget *m_page = nullptr;
    struct Lock {
        QString queue;
        std::string token;
        std::optional<ServiceBusSessionHold> session; // received in a session: settled under its lock
        // The model's reads begun before the lock was taken: what they show
        // may predate it, so only a later read can tell the lock is gone.
        quint64 readsBefore = 0;
    };
    std::map<QString, Lock> m_locks;   // stored id -> its lock
    bool m_sessionful = false;
    std::optional<ServiceBusSessionHold> m_session;
    QAction *m_closeSession = nullptr;
    QAction *m_receive = nullptr;
    QAction *m_complete = nullptr;
    QAction *m_abandon = nullptr;
    QAction *m_deadLetter = nullptr;
    QAction *m_defer = nullptr;
    QAction *m_resubmit = nullptr;
    QAction *m_delete = nullptr;
    QAction *m_exportSelected = nullptr;
    QAction *m_exportAll = nullptr;
    QAction *m_import = nullptr;
    QAction *m_copyBody = nullptr;
    QAction *m_copyId = nullptr;
    QAction *m_copyJson = nullptr;
};

} // namespace relaydesk
