// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>

class QComboBox;
class QDialogButtonBox;
class QLabel;
class QProgressBar;
class QRadioButton;

namespace relaydesk {

class BrokerEngine;
class BrokerService;

// Moves the messages of a dead-letter queue back to the queues they came
// from, or all of them to a chosen queue (StartMessageMoveTask, SPEC 5.3),
// after saying how many will move. Progress comes from ListMessageMoveTasks
// (moved of to-move); the broker runs a move as one commit unit, so the bar
// is busy until the task reports, then full. Cancel closes the dialog; a
// move under way is not undone (the engine offers no cancel of a running
// unit). The dialog stays open when the broker refuses, with its message.
// Ownership: borrows the service and the engine. GUI thread.
class MoveDeadLettersDialog final : public QDialog {
    Q_OBJECT
public:
    MoveDeadLettersDialog(BrokerService &service, BrokerEngine &engine, const QString &deadLetterQueueName,
                          QWidget *parent = nullptr);
    ~MoveDeadLettersDialog() override;

    // How many messages the last move moved; -1 before one finished.
    qint64 movedCount() const { return m_moved; }
    // Picks the destination: empty = back to their sources (tests, keyboard).
    void setDestination(const QString &queueName);

signals:
    // The move finished (the dialog then shows the result and a Close button).
    void moveFinished(qint64 moved, qint64 toMove);

private:
    void loadQueues();
    void start();
    void startWith(const QString &sourceArn, const QString &destinationArn);
    void fail(const QString &message);

    BrokerService *m_service = nullptr;
    QString m_queueName;
    qint64 m_moved = -1;
    qint64 m_count = 0;
    QLabel *m_summary = nullptr;
    QRadioButton *m_toSources = nullptr;
    QRadioButton *m_toQueue = nullptr;
    QComboBox *m_destination = nullptr;
    QProgressBar *m_progress = nullptr;
    QLabel *m_outcome = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
};

} // namespace relaydesk
