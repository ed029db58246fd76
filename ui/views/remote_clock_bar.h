// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;
class QSpinBox;

namespace relaydesk {

class BrokerConnection;
class ConnectionCallBar;
struct BrokerClock;

// The broker's clock on a remote entity's page, where the connection offers
// it (another Relaydesk: docs/window.md "Connections"): "Broker time:
// 2026-11-28 21:40:00 UTC — virtual", and for a virtual clock a number of
// seconds with "Advance" (everything due up to the new time happens on that
// broker). Read when the page opens (untracked: the page's actions stay
// enabled) and answered by each advance, which goes through the page's call
// bar; an error shows beside the button in the broker's words. The page
// has one only where the connection offers the clock. GUI thread.
class RemoteClockBar final : public QWidget {
    Q_OBJECT
public:
    RemoteClockBar(BrokerConnection *connection, ConnectionCallBar *callBar, QWidget *parent = nullptr);

    // Disables Advance while another call of the page is in flight.
    void setBusy(bool busy);
    void read();

    QLabel *timeLabel() const { return m_time; }
    QSpinBox *secondsBox() const { return m_seconds; }
    QPushButton *advanceButton() const { return m_advance; }
    QLabel *error() const { return m_error; }

signals:
    void busyChanged(bool busy);

private:
    void advance();
    void show(const BrokerClock &clock);

    BrokerConnection *m_connection = nullptr;
    ConnectionCallBar *m_callBar = nullptr;
    QLabel *m_time = nullptr;
    QSpinBox *m_seconds = nullptr;
    QPushButton *m_advance = nullptr;
    QLabel *m_error = nullptr;
    bool m_virtual = false;
    bool m_busy = false;
};

} // namespace relaydesk
