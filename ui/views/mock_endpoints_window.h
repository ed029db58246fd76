// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>

#include <cstdint>
#include <limits>

class QLabel;
class QLineEdit;
class QPushButton;
class QTableView;
class QTimer;

namespace relaydesk {

class FieldError;
class MockEndpointListModel;
class MockEndpoints;
class MockRequestListModel;
class MockRequestViewer;

// Tools ▸ Mock Endpoints…: the broker's scriptable test endpoints
// (docs/behaviour.md §4.7) in a non-modal window. Above, the endpoints (name, URL, script,
// requests since the script was set) and a form to create one, set another
// script (the broker's parse error under the field; nothing changes) or
// delete one (confirmed). Below, the requests the selected endpoint received
// (number, broker-clock time, method, target, the answer step it took) and,
// for the selected request, its headers and body in monospace (JSON
// pretty-printed); Clear forgets them.
//
// Live: while visible, a 250 ms timer reads MockEndpoints::revision()
// (lock-free) and re-reads list()/received() — each a brief hold of the
// endpoints' mutex — only when it moved; the models change in place, so the
// selection and scroll stay (a request list scrolled to its end follows new
// requests).
//
// Ownership: borrows `mocks` (the BrokerHost's; the window must not outlive
// it — MainWindow deletes its dialogs before it stops a broker). Thread: GUI.
class MockEndpointsWindow final : public QDialog {
    Q_OBJECT
public:
    static constexpr int kFollowIntervalMs = 250;

    // `endpointUrl`: the broker's "http://HOST:PORT", for the URLs shown.
    MockEndpointsWindow(MockEndpoints &mocks, const QString &endpointUrl, QWidget *parent = nullptr);
    ~MockEndpointsWindow() override;

    // Re-reads the endpoints (and the selected one's requests) when anything
    // changed since the last read; what the timer calls.
    void refresh();
    // Selects endpoint `name` in the list; false when there is none.
    bool selectEndpoint(const QString &name);
    // The selected endpoint's name; empty when none is.
    QString selectedEndpoint() const;

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void buildEndpointPart(QWidget *part);
    void buildRequestPart(QWidget *part);
    void onEndpointSelected();
    void onNameEdited();
    void save();
    void confirmDelete();
    void clearRequests();
    void showRequests(bool reread);
    void say(const QString &message);

    MockEndpoints &m_mocks;
    MockEndpointListModel *m_endpoints = nullptr;
    MockRequestListModel *m_requests = nullptr;
    QTableView *m_endpointTable = nullptr;
    QTableView *m_requestTable = nullptr;
    MockRequestViewer *m_viewer = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_script = nullptr;
    FieldError *m_nameError = nullptr;
    FieldError *m_scriptError = nullptr;
    QPushButton *m_new = nullptr;
    QPushButton *m_save = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_copyUrl = nullptr;
    QPushButton *m_clear = nullptr;
    QLabel *m_requestsTitle = nullptr;
    QLabel *m_status = nullptr;
    QTimer *m_follow = nullptr;
    std::uint64_t m_seenRevision = std::numeric_limits<std::uint64_t>::max();
};

} // namespace relaydesk
