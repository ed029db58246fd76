// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QWidget>

class QLabel;
class QPushButton;
class QStandardItemModel;
class QTableView;

namespace relaydesk {

class EmbeddedBroker;
class EntityActions;
class EntityTreeModel;

// A topic's Subscriptions tab (docs/window.md "Pages"): one row a
// subscription — protocol, endpoint, status (pending / confirmed), filter
// policy, raw message delivery — from the tree model's overview (kept
// current on each refresh) and each subscription's attributes (read when it
// appears and when the engine reports it changed). Subscribe… is the
// window's action; Unsubscribe… asks, then unsubscribes the selected one;
// a double click or Enter on a row opens the subscription's page.
// Ownership: borrows host, model and actions. Thread: GUI.
class TopicSubscriptionsTab final : public QWidget {
    Q_OBJECT
public:
    enum Column { ProtocolColumn, EndpointColumn, StatusColumn, FilterColumn, RawColumn, ColumnCount };
    TopicSubscriptionsTab(EmbeddedBroker &host, EntityTreeModel &model, EntityActions &actions, const QString &topic,
                          QWidget *parent = nullptr);

    QTableView *table() const { return m_table; }
    QPushButton *unsubscribeButton() const { return m_unsubscribe; }
    // The ARN of a row.
    QString arnAt(int row) const;

public slots:
    void confirmUnsubscribe();
    void unsubscribe(const QString &arn);

private:
    void refresh();
    void readAttributes(const QString &arn);
    void openRow(int row);

    EmbeddedBroker &m_host;
    EntityTreeModel &m_model;
    EntityActions &m_actions;
    const QString m_topic;
    QStandardItemModel *m_rows = nullptr;
    QTableView *m_table = nullptr;
    QPushButton *m_unsubscribe = nullptr;
    QLabel *m_status = nullptr;
};

} // namespace relaydesk
