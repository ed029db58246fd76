// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_entities.h"
#include "models/remote_entity.h"

#include <QGroupBox>

class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

namespace relaydesk {

class BrokerConnection;
class ConnectionCallBar;

// The Subscriptions part of a remote topic's page (docs/window.md
// "Connections"): the topic's subscriptions as the connection lists them
// (SNS: "PROTOCOL ENDPOINT" and the subscription ARN; Service Bus: the name
// and its address), and a form that adds one — SNS: a protocol and an
// endpoint (Subscribe, as the AWS console asks); Service Bus: a name (the
// service's defaults; its properties are set on its page). The list is read
// when the page opens (untracked) and after each add, which goes through the
// page's call bar; a refusal shows beside the button in the service's words.
// GUI thread.
class RemoteSubscriptionsPanel final : public QGroupBox {
    Q_OBJECT
public:
    RemoteSubscriptionsPanel(BrokerConnection *connection, RemoteEntity topic, ConnectionCallBar *callBar,
                             QWidget *parent = nullptr);

    void setBusy(bool busy);
    void list();

    QTableWidget *table() const { return m_table; }
    QComboBox *protocolBox() const { return m_protocol; }   // SNS only, else null
    QLineEdit *endpointEdit() const { return m_endpoint; }  // SNS: the endpoint; Service Bus: the name
    QPushButton *addButton() const { return m_add; }
    QLabel *error() const { return m_error; }

signals:
    void busyChanged(bool busy);

private:
    void add();
    EntityKind subscriptionKind() const;

    BrokerConnection *m_connection = nullptr;
    RemoteEntity m_topic;
    ConnectionCallBar *m_callBar = nullptr;
    QTableWidget *m_table = nullptr;
    QComboBox *m_protocol = nullptr;
    QLineEdit *m_endpoint = nullptr;
    QPushButton *m_add = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace relaydesk
