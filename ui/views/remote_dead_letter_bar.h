// SPDX-License-Identifier: MIT
#pragma once

#include "connections/broker_connection.h"

#include <QWidget>

#include <functional>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;

namespace relaydesk {

class ConnectionCallBar;

// The dead-letter row of a remote queue's Messages part (docs/window.md
// "Connections"), for connections with ConnectionFeature::DeadLetters
// (Service Bus); elsewhere each control is disabled with that capability's
// reason:
//  - "Dead-letter queue": the part looks at the entity's dead-letter
//    subqueue (BrokerConnection::deadLetters) instead of the entity;
//  - "Abandon": unlocks the selected polled message for the next receive;
//  - "Dead-letter" moves it to the subqueue with the reason typed beside it
//    (empty: none); disabled while looking at the subqueue itself;
//  - "Resubmit" sends a message polled from the subqueue back to its entity
//    and completes it there.
// Errors go to the part's error label in the service's words; calls through
// the page's call bar. GUI thread.
class RemoteDeadLetterBar final : public QWidget {
    Q_OBJECT
public:
    // `selected` answers the selected polled message, or null.
    RemoteDeadLetterBar(BrokerConnection *connection, EntityRef entity, ConnectionCallBar *callBar, QLabel *error,
                        std::function<const MessageLine *()> selected, QWidget *parent = nullptr);
    ~RemoteDeadLetterBar() override;

    // The entity looked at: the page's, or its dead-letter subqueue.
    EntityRef target() const;
    bool inSubqueue() const;
    void setBusy(bool busy);

    QCheckBox *subqueueBox() const { return m_subqueue; }
    QPushButton *abandonButton() const { return m_abandon; }
    QPushButton *deadLetterButton() const { return m_deadLetter; }
    QLineEdit *reasonEdit() const { return m_reason; }
    QPushButton *resubmitButton() const { return m_resubmit; }

signals:
    void busyChanged(bool busy);
    // The message left the list looked at (abandoned, dead-lettered, resubmitted).
    void settled(const QString &messageId);
    // "Dead-letter queue" was toggled: the list is of the other entity now.
    void subqueueChanged();

private:
    void settleSelected(Settlement how);
    void resubmitSelected();

    BrokerConnection *m_connection = nullptr;
    EntityRef m_entity;
    ConnectionCallBar *m_callBar = nullptr;
    QLabel *m_error = nullptr;
    std::function<const MessageLine *()> m_selected;
    QCheckBox *m_subqueue = nullptr;
    QPushButton *m_abandon = nullptr;
    QPushButton *m_deadLetter = nullptr;
    QLineEdit *m_reason = nullptr;
    QPushButton *m_resubmit = nullptr;
};

} // namespace relaydesk
