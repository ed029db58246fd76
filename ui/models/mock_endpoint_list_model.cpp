// SPDX-License-Identifier: MIT
#include "models/mock_endpoint_list_model.h"

#include <QLocale>

#include <utility>

namespace relaydesk {

MockEndpointListModel::MockEndpointListModel(QString endpointUrl, QObject *parent)
    : QAbstractTableModel(parent), m_endpointUrl(std::move(endpointUrl))
{
}

int MockEndpointListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MockEndpointListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant MockEndpointListModel::data(const QModelIndex &index, int role) const
{
    const MockEndpointSummary *endpoint = endpointAt(index.row());
    if (!endpoint || index.column() < 0 || index.column() >= ColumnCount)
        return {};
    const QString name = QString::fromStdString(endpoint->name);
    if (role == NameRole)
        return name;
    if (role == Qt::TextAlignmentRole && index.column() == RequestsColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case NameColumn:
        return name;
    case UrlColumn:
        return urlOf(name);
    case ScriptColumn:
        return QString::fromStdString(endpoint->script);
    case RequestsColumn:
        return role == Qt::ToolTipRole ? tr("Requests since the script was set") : QLocale().toString(endpoint->requestCount);
    default:
        return {};
    }
}

QVariant MockEndpointListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NameColumn:
        return tr("Name");
    case UrlColumn:
        return tr("URL");
    case ScriptColumn:
        return tr("Script");
    case RequestsColumn:
        return tr("Requests");
    default:
        return {};
    }
}

void MockEndpointListModel::apply(const std::vector<MockEndpointSummary> &endpoints)
{
    // Both lists are sorted by name: walk them together.
    std::size_t wanted = 0;
    int row = 0;
    while (wanted < endpoints.size() || static_cast<std::size_t>(row) < m_rows.size()) {
        const bool haveRow = static_cast<std::size_t>(row) < m_rows.size();
        const bool haveWanted = wanted < endpoints.size();
        if (haveRow && (!haveWanted || m_rows[row].name < endpoints[wanted].name)) {
            beginRemoveRows({}, row, row);
            m_rows.erase(m_rows.begin() + row);
            endRemoveRows();
        } else if (haveWanted && (!haveRow || endpoints[wanted].name < m_rows[row].name)) {
            beginInsertRows({}, row, row);
            m_rows.insert(m_rows.begin() + row, endpoints[wanted]);
            endInsertRows();
            ++row;
            ++wanted;
        } else {
            if (!(m_rows[row] == endpoints[wanted])) {
                m_rows[row] = endpoints[wanted];
                emit dataChanged(index(row, ScriptColumn), index(row, RequestsColumn));
            }
            ++row;
            ++wanted;
        }
    }
}

int MockEndpointListModel::rowOf(const QString &name) const
{
    const std::string wanted = name.toStdString();
    for (std::size_t i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].name == wanted)
            return static_cast<int>(i);
    }
    return -1;
}

const MockEndpointSummary *MockEndpointListModel::endpointAt(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_rows.size() ? &m_rows[static_cast<std::size_t>(row)] : nullptr;
}

QString MockEndpointListModel::urlOf(const QString &name) const
{
    return m_endpointUrl + QString::fromStdString(MockEndpoints::pathOf(name.toStdString()));
}

} // namespace relaydesk
