// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>
#include <QWidget>

class QLabel;
class QProgressBar;
class QPushButton;

namespace relaydesk {

class ConnectionCall;

// A long call on a connection in progress (docs/window.md "Connections"):
// "Purging queue orders…", a busy bar (or done/total when the call reports a
// total) and Cancel, which cancels the call. Hidden while no call runs; one
// call at a time (the page disables its actions meanwhile). GUI thread.
class ConnectionCallBar final : public QWidget {
    Q_OBJECT
public:
    explicit ConnectionCallBar(QWidget *parent = nullptr);

    // Shows `what` until `call` finishes (or is cancelled).
    void track(ConnectionCall *call, const QString &what);
    // Cancels the call in flight, if any (its callback answers "Cancelled" now).
    void cancel();
    bool busy() const { return !m_call.isNull(); }
    QPushButton *cancelButton() const { return m_cancel; }

signals:
    // The tracked call finished (answered or cancelled): the page enables its actions again.
    void idle();

private:
    QPointer<ConnectionCall> m_call;
    QLabel *m_text = nullptr;
    QProgressBar *m_bar = nullptr;
    QPushButton *m_cancel = nullptr;
};

} // namespace relaydesk
