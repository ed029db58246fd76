// SPDX-License-Identifier: MIT
#pragma once

#include "models/entity_ref.h"

#include <QWidget>

class QLabel;
class QTabWidget;

namespace relaydesk {

class EmbeddedBroker;
class EntityActions;
class EntityTreeModel;

// The page of one entity (docs/window.md): the same header everywhere — name,
// kind, copy URL/ARN, the counts as labelled chips for a queue — over the
// tabs of its kind (entity_page_tabs.h). The chips follow the model's
// refreshes. Ownership: borrows host, model and actions, which outlive it.
// Thread: GUI.
class EntityPage final : public QWidget {
    Q_OBJECT
public:
    EntityPage(EmbeddedBroker &host, EntityTreeModel &model, EntityActions &actions, const LocalEntity &ref,
               QWidget *parent = nullptr);

    const LocalEntity &entity() const { return m_ref; }
    // Lets go of what the page holds on the broker — the Service Bus session
    // its Messages tab accepted — while the broker is still there: MainWindow
    // calls it before it lets the page go (deleteLater, or the broker stopping).
    void leave();
    QTabWidget *tabs() const { return m_tabs; }
    // The chip labels (available, in flight, delayed, scheduled, dead-lettered), for tests.
    QList<QLabel *> chips() const { return m_chips; }

private:
    void refreshHeader();

    EntityTreeModel &m_model;
    const LocalEntity m_ref;
    QLabel *m_kind = nullptr;
    QList<QLabel *> m_chips;
    QTabWidget *m_tabs = nullptr;
};

} // namespace relaydesk
