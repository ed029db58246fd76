// SPDX-License-Identifier: MIT
#include "models/mock_request_list_model.h"

#include "models/message_text.h"
#include "models/mock_text.h"

#include <QFontDatabase>

#include <algorithm>

namespace relaydesk {

MockRequestListModel::MockRequestListModel(QObject *parent) : QAbstractTableModel(parent) {}

int MockRequestListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int MockRequestListModel::columnCount(const QModelIndex &parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant MockRequestListModel::data(const QModelIndex &index, int role) const
{
    const MockRequest *request = requestAt(index.row());
    if (!request || index.column() < 0 || index.column() >= ColumnCount)
        return {};
    if (role == Qt::TextAlignmentRole && index.column() == NumberColumn)
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::FontRole && index.column() == TargetColumn)
        return QFontDatabase::systemFont(QFontDatabase::FixedFont);
    if (role == Qt::ToolTipRole && index.column() == TimeColumn)
        return tr("Broker clock time, UTC");
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case NumberColumn:
        return QString::number(request->number);
    case TimeColumn:
        return message_text::timeText(request->received);
    case MethodColumn:
        return QString::fromStdString(request->method);
    case TargetColumn:
        return QString::fromStdString(request->target);
    case AnswerColumn:
        return mock_text::stepText(request->answer);
    default:
        return {};
    }
}

QVariant MockRequestListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case NumberColumn:
        return tr("#");
    case TimeColumn:
        return tr("Received (UTC)");
    case MethodColumn:
        return tr("Method");
    case TargetColumn:
        return tr("Target");
    case AnswerColumn:
        return tr("Answer");
    default:
        return {};
    }
}

void MockRequestListModel::apply(const std::vector<MockRequest> &requests)
{
    // Numbers rise by one per request while the script stays; the recorded
    // window slides forward. Anything else is another list.
    const auto continues = [&] {
        if (m_rows.empty() || requests.empty() || requests.front().number < m_rows.front().number ||
            requests.front().number > m_rows.back().number + 1 || requests.back().number < m_rows.back().number)
            return false;
        return std::all_of(m_rows.begin(), m_rows.end(), [&](const MockRequest &row) {
            if (row.number < requests.front().number)
                return true; // no longer recorded
            if (row.number - requests.front().number >= requests.size())
                return false;
            const MockRequest &same = requests[row.number - requests.front().number];
            return same.number == row.number && same.received == row.received && same.method == row.method &&
                   same.target == row.target;
        });
    }();
    if (!continues && m_rows.empty()) {
        if (requests.empty())
            return;
        beginInsertRows({}, 0, static_cast<int>(requests.size()) - 1);
        m_rows.assign(requests.begin(), requests.end());
        endInsertRows();
        return;
    }
    if (!continues) {
        beginResetModel();
        m_rows.assign(requests.begin(), requests.end());
        endResetModel();
        return;
    }
    std::size_t gone = 0;
    while (gone < m_rows.size() && m_rows[gone].number < requests.front().number)
        ++gone;
    if (gone > 0) {
        beginRemoveRows({}, 0, static_cast<int>(gone) - 1);
        m_rows.erase(m_rows.begin(), m_rows.begin() + static_cast<std::ptrdiff_t>(gone));
        endRemoveRows();
    }
    const std::uint64_t last = m_rows.empty() ? 0 : m_rows.back().number;
    const auto fresh = std::find_if(requests.begin(), requests.end(),
                                    [last](const MockRequest &request) { return request.number > last; });
    if (fresh == requests.end())
        return;
    const int first = static_cast<int>(m_rows.size());
    beginInsertRows({}, first, first + static_cast<int>(requests.end() - fresh) - 1);
    m_rows.insert(m_rows.end(), fresh, requests.end());
    endInsertRows();
}

const MockRequest *MockRequestListModel::requestAt(int row) const
{
    return row >= 0 && static_cast<std::size_t>(row) < m_rows.size() ? &m_rows[static_cast<std::size_t>(row)] : nullptr;
}

}  // namespace relaydesk
