// SPDX-License-Identifier: MIT
#pragma once

#include "models/remote_entity.h"

#include <QGroupBox>

#include <vector>

class QLabel;
class QPushButton;
class QTableWidget;

namespace relaydesk {

class BrokerConnection;
class ConnectionCallBar;
class RemoteDeadLetterBar;
struct EntityRef;
struct MessageLine;

// A hidden, red, selectable, word-wrapped label for a remote action's error.
QLabel *errorLabel(const QString &objectName, QWidget *parent);
// Shows `text` (a ConnectionError's text) in an error label beside an
// action, or hides it when empty; the accessible name starts "Error:".
void showConnectionError(QLabel *label, const QString &text);
// Enables `action`, or disables it with `reason` as its tooltip and accessible description.
void offerAction(QWidget *action, bool offered, const QString &reason);

// The Messages part of a remote entity's page (docs/window.md "Connections"):
//  - where the connection offers peek: "Peek" lists the first messages
//    without changing them;
//  - else "Poll messages": receives up to ten with a visibility of
//    kPollVisibilitySeconds and says so above the list (the messages are
//    hidden from other receivers until then, their receive count goes up);
//  - where it offers both (Service Bus, Zaqar, another Relaydesk), "Poll"
//    beside Peek receives (locks, claims) up to ten the same way;
//  - "Delete message" deletes the selected polled message (settle) —
//    "Complete" where the connection has ConnectionFeature::DeadLetters;
//  - the dead-letter row (RemoteDeadLetterBar): Abandon, Dead-letter with a
//    reason, the "Dead-letter queue" box and Resubmit, disabled with the
//    reason where the connection has no dead-letter subqueue.
// The selected message is the table's selected row (so selecting it through
// the accessibility interface counts). Calls go through the page's call bar
// (progress and Cancel). GUI thread.
class RemoteMessagesPanel final : public QGroupBox {
    Q_OBJECT
public:
    static constexpr int kPollVisibilitySeconds = 30;

    RemoteMessagesPanel(BrokerConnection *connection, RemoteEntity entity, ConnectionCallBar *callBar,
                        QWidget *parent = nullptr);
    ~RemoteMessagesPanel() override;

    QPushButton *lookButton() const { return m_look; }
    QPushButton *deleteButton() const { return m_delete; }
    // Null unless the connection offers both peek and poll.
    QPushButton *pollButton() const { return m_poll; }
    RemoteDeadLetterBar *deadLetterBar() const { return m_deadLetters; }
    QTableWidget *table() const { return m_table; }
    QLabel *error() const { return m_error; }
    // Whether the look is a poll (no peek on this connection).
    bool polls() const { return !m_peek; }
    void setBusy(bool busy);

signals:
    void busyChanged(bool busy);

private:
    void look();
    void pollLines();
    void showLines(std::vector<MessageLine> messages);
    void deleteSelected();
    // The entity looked at: the page's, or its dead-letter subqueue.
    EntityRef target() const;
    // The selected polled message (it has a receipt), or null.
    const MessageLine *selectedPolled() const;
    void dropLine(const QString &messageId);

    BrokerConnection *m_connection = nullptr;
    RemoteEntity m_entity;
    ConnectionCallBar *m_callBar = nullptr;
    bool m_peek = false;
    QLabel *m_note = nullptr;
    QPushButton *m_look = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_poll = nullptr;
    RemoteDeadLetterBar *m_deadLetters = nullptr;
    QTableWidget *m_table = nullptr;
    QLabel *m_error = nullptr;
    std::vector<MessageLine> m_lines;
};

} // namespace relaydesk
