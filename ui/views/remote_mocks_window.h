// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;

namespace relaydesk {

class BrokerConnection;
class ConnectionCallBar;

// A connection's Mock Endpoints… (another Relaydesk: docs/window.md
// "Connections"), a non-modal window as Tools ▸ Mock Endpoints… is for this
// computer's broker. Above, the mocks (name, URL, script, requests since the
// script was set) and a form: Set Script makes the mock or replaces its
// script (the broker's parse error shown beside it in its words; nothing
// changes), Delete… removes it (confirmed, the name typed on a production
// connection). Below, the selected mock's requests (received, method, target,
// the answer it got) and the chosen request's body; Clear Requests forgets
// them. Everything goes through BrokerConnection (mockEndpoints, mockRequests,
// setMock, deleteMock, clearMockRequests), one call at a time behind the
// window's call bar (progress, Cancel). Not live: the remote broker is read
// when the window opens, after each change and on Refresh (F5).
//
// Ownership: borrows `connection` (the registry's; the window closes with
// the registry's change). Thread: GUI.
class RemoteMocksWindow final : public QDialog {
    Q_OBJECT
public:
    RemoteMocksWindow(BrokerConnection *connection, const QString &connectionName, bool production,
                      QWidget *parent = nullptr);

    // Reads the mocks again, then the selected one's requests.
    void refresh();
    // Selects mock `name` (and reads its requests); false when it is not listed.
    bool selectEndpoint(const QString &name);

    QTableWidget *endpoints() const { return m_endpoints; }
    QTableWidget *requests() const { return m_requests; }
    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *scriptEdit() const { return m_script; }
    QPushButton *setScriptButton() const { return m_set; }
    QPushButton *deleteButton() const { return m_delete; }
    QPushButton *clearButton() const { return m_clear; }
    QLabel *error() const { return m_error; }
    ConnectionCallBar *callBar() const { return m_callBar; }

private:
    QString selectedName() const;
    void readRequests();
    void setScript();
    void confirmDelete();
    void clearRequests();
    void updateButtons();

    BrokerConnection *m_connection = nullptr;
    bool m_production = false;
    QTableWidget *m_endpoints = nullptr;
    QTableWidget *m_requests = nullptr;
    QPlainTextEdit *m_body = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_script = nullptr;
    QPushButton *m_set = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_clear = nullptr;
    QPushButton *m_refresh = nullptr;
    QLabel *m_error = nullptr;
    ConnectionCallBar *m_callBar = nullptr;
    QStringList m_bodies;   // the shown requests' bodies, by row
};

} // namespace relaydesk
