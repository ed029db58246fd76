// SPDX-License-Identifier: MIT
#pragma once

#include "broker/metrics/broker_metrics.h"

#include <QAbstractTableModel>

#include <vector>

namespace relaydesk {

// The dashboard's figures as a table (rows: rateRows(), publishes to
// discarded deliveries): how many in the chosen rate window, the rate per
// minute over it and the total since the broker started. apply() takes a
// BrokerMetrics snapshot and the window (index into kRateWindowMinutes) and
// signals only the cells that changed (dataChanged; headerDataChanged when
// the window changes) — the rows never move. A decoration swatch in the
// first column carries the series' chart colour; the Dead-lettered row is
// bold once anything was dead-lettered.
//
// Ownership: keeps the counts it shows. Thread: GUI.
class RateTableModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, InWindowColumn, PerMinuteColumn, TotalColumn, ColumnCount };
    enum Role { CountRole = Qt::UserRole + 1 }; // qint64 (InWindow, Total) or double (PerMinute)

    explicit RateTableModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void apply(const MetricsSnapshot &snapshot, std::size_t window);
    std::size_t window() const { return m_window; }
    // Whether the swatches are drawn for a dark base.
    void setDark(bool dark);

private:
    std::vector<MetricCount> m_counts; // by row
    std::size_t m_window = 0;
    bool m_dark = false;
};

} // namespace relaydesk
