// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_entities.h"

#include <QGroupBox>
#include <QStringList>

class QLabel;
class QTableWidget;

namespace relaydesk {

class AttemptChart;
class BrokerConnection;
class ConnectionCallBar;

// The remote pages' read-only tables: whole rows selected one at a time, no row numbers.
QTableWidget *readOnlyTable(const QString &objectName, const QString &accessibleName, const QStringList &headers,
                            QWidget *parent);
void setRowTexts(QTableWidget *table, int row, const QStringList &cells);

// The Deliveries part of a remote topic's page, where the connection offers
// the attempt log (another Relaydesk: docs/window.md "Connections"): for the
// subscription chosen in the page's Subscriptions list, its deliveries
// (BrokerConnection::deliveries: message, attempts, last outcome, how it
// ended); choosing one reads its attempts (BrokerConnection::attempts) into
// the attempt table and the four-phase chart (AttemptChart, fed from the
// connection, not from an engine). Both reads go through the page's call bar
// (progress, Cancel); an error shows in the broker's words. GUI thread.
class RemoteDeliveriesPanel final : public QGroupBox {
    Q_OBJECT
public:
    RemoteDeliveriesPanel(BrokerConnection *connection, ConnectionCallBar *callBar, QWidget *parent = nullptr);

    // Reads the deliveries of `subscription` (an SNS subscription's ARN as its address).
    void showSubscription(const EntityRef &subscription);

    QTableWidget *deliveries() const { return m_deliveries; }
    QTableWidget *attempts() const { return m_attempts; }
    AttemptChart *chart() const { return m_chart; }
    QLabel *error() const { return m_error; }

signals:
    void busyChanged(bool busy);

private:
    void showAttempts(const QString &messageId);

    BrokerConnection *m_connection = nullptr;
    ConnectionCallBar *m_callBar = nullptr;
    EntityRef m_subscription;
    QTableWidget *m_deliveries = nullptr;
    QTableWidget *m_attempts = nullptr;
    AttemptChart *m_chart = nullptr;
    QLabel *m_error = nullptr;
};

} // namespace relaydesk
