// SPDX-License-Identifier: MIT
#include "views/remote_deliveries_panel.h"

#include "charts/attempt_chart.h"
#include "connections/broker_connection.h"
#include "views/remote_messages_panel.h"
#include "widgets/connection_call_bar.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QString timeText(const QDateTime &time) { return time.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz")); }

} // namespace

QTableWidget *readOnlyTable(const QString &objectName, const QString &accessibleName, const QStringList &headers, QWidget *parent)
{
    auto *table = new QTableWidget(0, static_cast<int>(headers.size()), parent);
    table->setObjectName(objectName);
    table->setAccessibleName(accessibleName);
    table->setHorizontalHeaderLabels(headers);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    table->verticalHeader()->hide();
    table->horizontalHeader()->setStretchLastSection(true);
    return table;
}

void setRowTexts(QTableWidget *table, int row, const QStringList &cells)
{
    for (int column = 0; column < cells.size(); ++column)
        table->setItem(row, column, new QTableWidgetItem(cells[column]));
}

RemoteDeliveriesPanel::RemoteDeliveriesPanel(BrokerConnection *connection, ConnectionCallBar *callBar, QWidget *parent)
    : QGroupBox(tr("Deliveries"), parent), m_connection(connection), m_callBar(callBar)
{
    setObjectName(QStringLiteral("remoteDeliveries"));
    m_deliveries = readOnlyTable(QStringLiteral("remoteDeliveryTable"), tr("Deliveries"),
                         {tr("Message"), tr("Attempts"), tr("Last outcome"), tr("End"), tr("Last attempt")}, this);
    m_attempts = readOnlyTable(QStringLiteral("remoteAttemptTable"), tr("Attempts"),
                       {tr("Attempt"), tr("Phase"), tr("Status"), tr("Outcome"), tr("Started"), tr("Duration"), tr("Final")}, this);
    m_chart = new AttemptChart(nullptr, this);   // the remote clock is not ours: the newest row is "now"
    m_chart->setObjectName(QStringLiteral("remoteAttemptChart"));
    m_error = errorLabel(QStringLiteral("remoteDeliveriesError"), this);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_deliveries);
    split->addWidget(m_attempts);
    auto *layout = new QVBoxLayout(this);
    auto *hint = new QLabel(tr("Choose a subscription in Subscriptions, then one of its messages here."), this);
    hint->setWordWrap(true);
    layout->addWidget(hint);
    layout->addWidget(m_error);
    layout->addWidget(split, 1);
    layout->addWidget(m_chart, 1);
    connect(m_deliveries, &QTableWidget::currentCellChanged, this, [this](int row) {
        if (const QTableWidgetItem *message = row >= 0 ? m_deliveries->item(row, 0) : nullptr)
            showAttempts(message->text());
    });
}

void RemoteDeliveriesPanel::showSubscription(const EntityRef &subscription)
{
    m_subscription = subscription;
    m_attempts->setRowCount(0);
    m_chart->clear();
    emit busyChanged(true);
    ConnectionCall *call = m_connection->deliveries(subscription, [this](ConnectionResult<std::vector<DeliverySummary>> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        const QSignalBlocker quiet(m_deliveries);   // a new list chooses no message by itself
        m_deliveries->setRowCount(result.ok ? static_cast<int>(result.value.size()) : 0);
        for (int row = 0; row < m_deliveries->rowCount(); ++row) {
            const DeliverySummary &delivery = result.value[static_cast<std::size_t>(row)];
            setRowTexts(m_deliveries, row, {delivery.messageId, QString::number(delivery.attempts), delivery.lastOutcome,
                                       delivery.end, timeText(delivery.lastAttemptAt)});
        }
    });
    m_callBar->track(call, tr("Reading the deliveries of %1…").arg(subscription.name));
}

void RemoteDeliveriesPanel::showAttempts(const QString &messageId)
{
    emit busyChanged(true);
    ConnectionCall *call = m_connection->attempts(m_subscription, messageId, [this, messageId](ConnectionResult<std::vector<AttemptRecord>> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        m_attempts->setRowCount(result.ok ? static_cast<int>(result.value.size()) : 0);
        for (int row = 0; row < m_attempts->rowCount(); ++row) {
            const AttemptRecord &attempt = result.value[static_cast<std::size_t>(row)];
            setRowTexts(m_attempts, row,
                   {QString::number(attempt.attempt), QString::fromStdString(attempt.phase),
                    attempt.httpStatus ? QString::number(*attempt.httpStatus) : tr("none"),
                    QString::fromStdString(attempt.outcome),
                    timeText(QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(attempt.startedAt), Qt::UTC)),
                    tr("%1 ms").arg(attempt.durationMs), QString::fromStdString(attempt.final.value_or(std::string()))});
        }
        m_chart->clear();
        if (result.ok) {
            m_chart->addAttempts(result.value);
            m_chart->showMessage(messageId);
        }
    });
    m_callBar->track(call, tr("Reading the attempts of %1…").arg(messageId));
}

} // namespace relaydesk
