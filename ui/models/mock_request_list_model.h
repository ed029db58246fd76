// SPDX-License-Identifier: MIT
#pragma once

#include "mock/mock_endpoints.h"

#include <QAbstractTableModel>

#include <deque>
#include <vector>

namespace relaydesk {

// The requests one mock endpoint received, oldest first, as a table: the
// request's number since the script was set, its time (broker clock), method,
// target and the answer step it took. apply() takes a fresh
// MockEndpoints::received() and changes the rows in place: requests the
// endpoint no longer records leave at the top, new ones arrive at the bottom
// (rowsRemoved / rowsInserted), so selection and scroll stay while requests
// arrive; a list that does not continue the shown one (cleared, script set
// again, another endpoint) resets the model.
//
// Ownership: holds copies of the requests (at most the endpoint's record
// limit). Thread: GUI.
class MockRequestListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NumberColumn, TimeColumn, MethodColumn, TargetColumn, AnswerColumn, ColumnCount };

    explicit MockRequestListModel(QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    void apply(const std::vector<MockRequest> &requests);
    // Null when `row` is out of range.
    const MockRequest *requestAt(int row) const;

private:
    std::deque<MockRequest> m_rows; // oldest first, numbers ascending
};

} // namespace relaydesk
