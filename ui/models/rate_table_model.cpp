// SPDX-License-Identifier: MIT
#include "models/rate_table_model.h"

#include "charts/metric_series.h"

#include <QFont>
#include <QLocale>

#include <algorithm>

namespace relaydesk {

RateTableModel::RateTableModel(QObject *parent) : QAbstractTableModel(parent), m_counts(rateRows().size()) {}

int RateTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_counts.size());
}

int RateTableModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant RateTableModel::data(const QModelIndex &index, int role) const
{
    if (index.row() < 0 || static_cast<std::size_t>(index.row()) >= m_counts.size() || index.column() < 0 ||
        index.column() >= ColumnCount)
        return {};
    const MetricSeries &series = rateRows()[static_cast<std::size_t>(index.row())];
    const MetricCount &count = m_counts[static_cast<std::size_t>(index.row())];
    const QLocale locale;
    if (role == Qt::TextAlignmentRole && index.column() != NameColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::DecorationRole && index.column() == NameColumn)
        return series.colourOn(m_dark);
    if (role == Qt::ToolTipRole && index.column() == NameColumn)
        return rateRowHelp(series);
    if (role == Qt::FontRole && count.total > 0 &&
        std::find(series.topicCounters.begin(), series.topicCounters.end(), TopicCounter::DeadLettered) !=
            series.topicCounters.end()) {
        QFont bold;
        bold.setBold(true); // dead letters stand out
        return bold;
    }
    if (role == CountRole) {
        switch (index.column()) {
        case InWindowColumn:
            return qint64(count.inWindow[m_window]);
        case PerMinuteColumn:
            return count.perMinute(m_window);
        case TotalColumn:
            return qint64(count.total);
        default:
            return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return series.name;
    case InWindowColumn:
        return locale.toString(qint64(count.inWindow[m_window]));
    case PerMinuteColumn:
        return locale.toString(count.perMinute(m_window), 'f', 1);
    case TotalColumn:
        return locale.toString(qint64(count.total));
    default:
        return {};
    }
}

QVariant RateTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("What");
    case InWindowColumn:
        return tr("Last %1").arg(rateWindowName(m_window));
    case PerMinuteColumn:
        return tr("Per minute");
    case TotalColumn:
        return tr("Since start");
    default:
        return {};
    }
}

void RateTableModel::apply(const MetricsSnapshot &snapshot, std::size_t window)
{
    window = std::min(window, kRateWindowMinutes.size() - 1);
    const bool windowChanged = window != m_window;
    m_window = window;
    if (windowChanged)
        emit headerDataChanged(Qt::Horizontal, InWindowColumn, InWindowColumn);
    for (std::size_t row = 0; row < m_counts.size(); ++row) {
        const MetricCount count = rateRows()[row].countIn(snapshot);
        if (count == m_counts[row] && !windowChanged)
            continue;
        m_counts[row] = count;
        emit dataChanged(index(static_cast<int>(row), NameColumn), index(static_cast<int>(row), TotalColumn));
    }
}

void RateTableModel::setDark(bool dark)
{
    if (dark == m_dark)
        return;
    m_dark = dark;
    emit dataChanged(index(0, NameColumn), index(rowCount() - 1, NameColumn), {Qt::DecorationRole});
}

} // namespace relaydesk
