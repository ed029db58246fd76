// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QProgressBar;
class QRadioButton;
class QSpinBox;
class QTimer;

namespace relaydesk {

class BrokerEngine;
class BrokerService;
struct EntityChange;
struct MessageMoveTask;

// Moves the messages of a dead-letter queue back to the queues they came
// from, or all of them to a chosen queue (StartMessageMoveTask, docs/behaviour.md §5.3),
// after saying how many will move, at an optional rate (messages per
// second). The broker moves in chunks; the bar shows moved of to-move from
// ListMessageMoveTasks, re-read whenever the engine reports the queue's
// counts changed (every chunk does) and four times a second while the task
// runs. While it runs, Cancel becomes "Stop moving": CancelMessageMoveTask
// stops it before its next chunk; what was moved stays moved, and the dialog
// says how many. The dialog stays open when the broker refuses, with its
// message. Ownership: borrows the service and the engine. GUI thread.
class MoveDeadLettersDialog final : public QDialog {
    Q_OBJECT
public:
    MoveDeadLettersDialog(BrokerService &service, BrokerEngine &engine, const QString &deadLetterQueueName,
                          QWidget *parent = nullptr);
    ~MoveDeadLettersDialog() override;

    // How many messages the move has moved so far; -1 before one started.
    qint64 movedCount() const { return m_moved; }
    // RUNNING while the move goes on, then COMPLETED, FAILED or CANCELLED; empty before.
    const QString &taskStatus() const { return m_status; }
    // Picks the destination: empty = back to their sources (tests, keyboard).
    void setDestination(const QString &queueName);
    // Messages per second (0: as fast as the broker moves them).
    void setRate(int messagesPerSecond);

signals:
    // The move ended — completed, failed or stopped (the dialog then shows the result and a Close button).
    void moveFinished(qint64 moved, qint64 toMove);
    // The bar moved (a chunk committed).
    void progressed(qint64 moved, qint64 toMove);

protected:
    void reject() override;

private:
    void loadQueues();
    void start();
    void startWith(const QString &sourceArn, const QString &destinationArn);
    void refresh();
    void showTask(const MessageMoveTask &task);
    void stopMoving();
    void end(const QString &text);
    void fail(const QString &message);
    void onChanges(const QList<relaydesk::EntityChange> &changes);

    BrokerService *m_service = nullptr;
    QString m_queueName;
    QString m_sourceArn;
    std::optional<QString> m_taskHandle;   // while the task runs
    QString m_status;
    bool m_refreshing = false;
    bool m_stopping = false;
    qint64 m_moved = -1;
    qint64 m_toMove = 0;
    qint64 m_count = 0;
    QLabel *m_summary = nullptr;
    QRadioButton *m_toSources = nullptr;
    QRadioButton *m_toQueue = nullptr;
    QComboBox *m_destination = nullptr;
    QSpinBox *m_rate = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_outcome = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QTimer *m_poll = nullptr;
};

} // namespace relaydesk
