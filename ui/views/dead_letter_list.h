// SPDX-License-Identifier: MIT
#pragma once

#include "broker/metrics/broker_metrics.h"
#include "models/entity_ref.h"

#include <QListWidget>

namespace relaydesk {

// The dashboard's "Dead letters" list: every queue that holds dead letters
// (its dead-lettered depth) and every topic whose deliveries ended
// dead-lettered since the broker started, each marked with the warning
// icon; a click (or Enter) asks for the entity to be selected in the tree
// (entityChosen). Rebuilt only when what it says changes, so the selection
// stays between refreshes. Bounded by the broker's queues and topics.
// Thread: GUI.
class DeadLetterList final : public QListWidget {
    Q_OBJECT
public:
    enum Role { EntityKindRole = Qt::UserRole + 1, EntityNameRole };

    explicit DeadLetterList(QWidget *parent = nullptr);

    void showMetrics(const MetricsSnapshot &snapshot);

signals:
    void entityChosen(const relaydesk::LocalEntity &ref);

private:
    void choose(QListWidgetItem *item);

    QStringList m_shown; // the texts of the items, to skip rebuilding the same list
};

} // namespace relaydesk
