// SPDX-License-Identifier: MIT
#pragma once

#include "models/entity_ref.h"

#include <QList>
#include <QPair>
#include <QWidget>

class QFormLayout;
class QLabel;

namespace relaydesk {

class BrokerHost;
class EntityActions;
class EntityTreeModel;

// The Overview tab of an entity's page: what it is (identifiers, kind, where
// dead letters go or come from, protocol and endpoint, confirmation) and the
// buttons of its most used operations — from the tree model's overview, kept
// current on every refresh. Kind `list` shows the subscriptions of a topic
// or the source queues of a dead-letter queue instead.
// Ownership: borrows host, model and actions. Thread: GUI.
class EntityOverviewTab final : public QWidget {
    Q_OBJECT
public:
    enum class Content { Facts, Subscriptions, Sources };
    EntityOverviewTab(BrokerHost &host, EntityTreeModel &model, EntityActions &actions, const EntityRef &ref,
                      Content content, QWidget *parent = nullptr);

private:
    void refresh();
    void collectRows();
    void addRow(const QString &label, const QString &value);
    void showRows();
    void showRow(const QString &label, const QString &value);

    BrokerHost &m_host;
    EntityTreeModel &m_model;
    const EntityRef m_ref;
    const Content m_content;
    QFormLayout *m_form = nullptr;
    QList<QPair<QString, QString>> m_rows;  // being collected
    QList<QPair<QString, QString>> m_shown; // on screen
};

} // namespace relaydesk
