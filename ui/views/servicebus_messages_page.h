// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QTableView;

namespace relaydesk {

class BrokerEngine;
class BrokerService;
class ServiceBusMessageFilter;
class ServiceBusMessageActions;
class ServiceBusMessageModel;

// The Messages tab of a Service Bus queue, subscription or dead-letter
// sub-queue (docs/window.md "Service Bus"): every message in every state —
// active, locked, deferred, scheduled, dead-lettered with its reason and
// description — with its session, filtered by state and session id; the
// selected message below under headings (system properties, application
// properties with their AMQP types, the body, JSON pretty-printed) with Copy
// buttons; the per-message actions (ServiceBusMessageActions) in a tool row
// and the table's context menu; columns empty for every message
// (no sessions, no dead letters) hidden. Peeks only (browseQueue);
// reads again when the engine reports a change of its queues, and on
// Refresh (F5) for what time alone changes (a lock or schedule ending).
// Ownership: borrows service and engine. Thread: GUI.
class ServiceBusMessagesPage final : public QWidget {
    Q_OBJECT
public:
    ServiceBusMessagesPage(BrokerService &service, BrokerEngine &engine, const QString &queue, QWidget *parent = nullptr);

    ServiceBusMessageModel *model() const { return m_model; }
    ServiceBusMessageFilter *filter() const { return m_filter; }
    QComboBox *stateFilter() const { return m_state; }
    QLineEdit *sessionFilter() const { return m_session; }
    QTableView *table() const { return m_table; }
    QPlainTextEdit *details() const { return m_details; }
    ServiceBusMessageActions *actions() const { return m_actions; }
    QLabel *status() const { return m_status; }

private:
    void showSelected();
    void updateCount();
    void fitColumns();

    ServiceBusMessageModel *m_model = nullptr;
    ServiceBusMessageFilter *m_filter = nullptr;
    QComboBox *m_state = nullptr;
    QLineEdit *m_session = nullptr;
    QLabel *m_count = nullptr;
    QTableView *m_table = nullptr;
    QPlainTextEdit *m_details = nullptr;
    ServiceBusMessageActions *m_actions = nullptr;
    QLabel *m_status = nullptr;
    bool m_fitted = false;
};

} // namespace relaydesk
