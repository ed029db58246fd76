// SPDX-License-Identifier: MIT
#pragma once

#include "engine/zaqar_queue_calls.h"
#include "models/entity_ref.h"

#include <QList>
#include <QPair>
#include <QWidget>

class QFormLayout;
class QLabel;

namespace relaydesk {

class EmbeddedBroker;
class EntityActions;
class EntityTreeModel;

// The Overview tab of an entity's page: what it is (identifiers, kind, where
// dead letters go or come from, protocol and endpoint, confirmation) and the
// buttons of its most used operations — from the tree model's overview, kept
// current on every refresh. Content `Sources` shows the source queues of a
// dead-letter queue instead (a topic's subscriptions: TopicSubscriptionsTab).
// Ownership: borrows host, model and actions. Thread: GUI.
class EntityOverviewTab final : public QWidget {
    Q_OBJECT
public:
    enum class Content { Facts, Sources };
    EntityOverviewTab(EmbeddedBroker &host, EntityTreeModel &model, EntityActions &actions, const LocalEntity &ref,
                      Content content, QWidget *parent = nullptr);

private:
    void refresh();
    void readZaqarFacts();
    void collectRows();
    void addRow(const QString &label, const QString &value);
    void showRows();
    void showRow(const QString &label, const QString &value);

    EmbeddedBroker &m_host;
    EntityTreeModel &m_model;
    const LocalEntity m_ref;
    const Content m_content;
    QFormLayout *m_form = nullptr;
    QList<QPair<QString, QString>> m_rows;  // being collected
    QList<QPair<QString, QString>> m_shown; // on screen
    std::optional<ZaqarQueueFacts> m_zaqar;  // a Zaqar queue's metadata, claims, subscriptions (last read)
    bool m_readingZaqar = false;
};

} // namespace relaydesk
