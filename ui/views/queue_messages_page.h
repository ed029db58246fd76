// SPDX-License-Identifier: MIT
#pragma once

#include "engine/entity_change.h"

#include <QList>
#include <QString>
#include <QWidget>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace relaydesk {

class BrokerEngine;
class BrokerService;
class MessageBrowseModel;
class MessagePositionBar;
class MessageViewer;
class QueueMessageActions;

// The Messages tab of a queue (docs/behaviour.md §8.4): its messages in every state,
// browsed without receiving (MessageBrowseModel: paged, live, searchable on
// Enter with a bounded scan per page — "Search further" reads on — and
// sortable by Sent over the whole queue), the selected message in a
// MessageViewer, and the actions on them: Send…, Purge… (confirmed with the
// count and the queue's name), Cancel scheduled (the selected scheduled
// message), and — on a dead-letter queue — Move dead letters back…; and the
// per-message workflows of QueueMessageActions (Receive…, Delete…, Resend…,
// Edit and Resend…, Redrive to Source, Export…, Import…) in a tool row and
// the table's context menu, over a multi-row selection.
// One timer (1 s) ticks the countdowns of the rows in view.
// Self-contained: keeps itself current from BrokerEngine::changesPublished;
// every broker call is asynchronous. Ownership: borrows the service and the
// engine (they outlive the page). GUI thread.
class QueueMessagesPage final : public QWidget {
    Q_OBJECT
public:
    QueueMessagesPage(BrokerService &service, BrokerEngine &engine, const QString &queueName, QWidget *parent = nullptr);
    ~QueueMessagesPage() override;

    MessageBrowseModel *model() const { return m_model; }
    QTableView *table() const { return m_table; }
    MessageViewer *viewer() const { return m_viewer; }
    QueueMessageActions *messageActions() const { return m_actions; }
    // "Row N of M", End of Queue (Ctrl+End), Start of Queue (Ctrl+Home).
    MessagePositionBar *positionBar() const { return m_positionBar; }
    // Selects the message with this id when it is loaded; false otherwise.
    bool selectMessage(const QString &messageId);
    // Whether the queue is some queue's dead-letter queue (as last learned).
    bool isDeadLetterQueue() const { return m_deadLetterQueue; }

public slots:
    void openSendDialog();
    // Asks for the count, then confirms "Purge N messages from NAME?".
    void purge();
    void cancelSelectedScheduled();
    void openMoveDeadLettersDialog();
    // Repaints the countdowns of the visible rows (the timer calls it; tests may too).
    void tick();

signals:
    // A status line for the window (errors of actions, "Purged orders").
    void statusMessage(const QString &message);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override; // the table's resizes

private:
    // Columns at their font-based widths, narrowed (countdown, id, sent) when
    // the table is too narrow for the body to keep a third of it.
    void keepRoomForBody();

    void onChanges(const QList<relaydesk::EntityChange> &changes);
    void checkDeadLetterQueue();
    void updateActions();
    void updateStatus();
    void showSelected();
    int selectedSourceRow() const;

    BrokerService *m_service = nullptr;
    BrokerEngine *m_engine = nullptr;
    QString m_queueName;
    bool m_deadLetterQueue = false;
    MessageBrowseModel *m_model = nullptr;
    QLineEdit *m_search = nullptr;
    QPushButton *m_send = nullptr;
    QPushButton *m_purge = nullptr;
    QPushButton *m_cancelScheduled = nullptr;
    QPushButton *m_moveBack = nullptr;
    QPushButton *m_searchFurther = nullptr;   // shown while a search is paused at its scan limit
    QTableView *m_table = nullptr;
    QList<int> m_columnWidths;               // by column: the font-based widths
    MessageViewer *m_viewer = nullptr;
    QLabel *m_status = nullptr;
    QTimer *m_ticker = nullptr;
    QueueMessageActions *m_actions = nullptr;
    MessagePositionBar *m_positionBar = nullptr;
    QString m_actionNote;   // the last per-message action's outcome, shown in the status line
};

} // namespace relaydesk
