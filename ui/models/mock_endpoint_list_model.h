// SPDX-License-Identifier: MIT
#pragma once

#include "mock/mock_endpoints.h"

#include <QAbstractTableModel>
#include <QString>

#include <vector>

namespace relaydesk {

// The broker's mock endpoints as a table: name, the URL to give a
// subscription, the script as written and how many requests it took since
// the script was set. apply() takes a fresh MockEndpoints::list() and changes
// the rows in place (inserted, removed, dataChanged; never a reset), so the
// selection stays while requests arrive.
//
// Ownership: holds copies of the summaries. Thread: GUI.
class MockEndpointListModel final : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { NameColumn, UrlColumn, ScriptColumn, RequestsColumn, ColumnCount };
    enum Role { NameRole = Qt::UserRole + 1 };

    // `endpointUrl`: the broker's "http://HOST:PORT" the URLs start with.
    explicit MockEndpointListModel(QString endpointUrl, QObject *parent = nullptr);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // `endpoints` sorted by name, as MockEndpoints::list() gives them.
    void apply(const std::vector<MockEndpointSummary> &endpoints);
    // The row of endpoint `name`, or -1.
    int rowOf(const QString &name) const;
    // Null when `row` is out of range.
    const MockEndpointSummary *endpointAt(int row) const;
    // "http://HOST:PORT/_mock/NAME".
    QString urlOf(const QString &name) const;

private:
    QString m_endpointUrl;
    std::vector<MockEndpointSummary> m_rows; // by name
};

} // namespace relaydesk
