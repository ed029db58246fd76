// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;

namespace relaydesk {

class BrokerHost;
class EntityActions;
class EntityTreeModel;

// The page shown when no entity is selected: what the broker is (its
// endpoint, how many topics, subscriptions, queues and messages), how to
// point code at it, and the first steps (New Queue, New Topic). Follows the
// model's refreshes. Ownership: borrows what it is given (null host: no
// broker). Thread: GUI.
class DashboardPage final : public QWidget {
    Q_OBJECT
public:
    DashboardPage(EntityActions &actions, QWidget *parent = nullptr);
    void setBroker(BrokerHost *host, EntityTreeModel *model);

private:
    void refresh();

    BrokerHost *m_host = nullptr;
    EntityTreeModel *m_model = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_howTo = nullptr;
};

} // namespace relaydesk
