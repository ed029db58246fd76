// SPDX-License-Identifier: MIT
#pragma once

#include "broker/metrics/broker_metrics.h"
#include "models/entity_ref.h"

#include <QStringList>
#include <QWidget>

#include <optional>

class QButtonGroup;
class QLabel;
class QTableView;
class QTimer;
class QToolButton;
class QVBoxLayout;

namespace relaydesk {

class ActivityChart;
class EmbeddedBroker;
class ConnectionHelp;
class DeadLetterList;
class DepthChart;
class EntityActions;
class EntityTreeModel;
class RateTableModel;

// The page shown when no entity is selected (docs/window.md): what the broker is
// (its endpoint, how many topics, subscriptions, queues and messages), the
// first steps (New Queue, New Topic), and the dashboard — a
// switch for the rate window (the last 5, 15 or 60 minutes of clock time),
// the rate table (publishes, sends, receives, deletes, deliveries by
// outcome: in the window, per minute, since start), the activity chart (per
// clock minute over the window), the queue depths (available, in flight,
// dead-lettered for the busiest queues or a chosen set) and the entities
// with dead letters (a click selects them in the tree: entityChosen); then
// how to point code at the broker.
//
// Live: while visible, a timer every kRepaintIntervalMs (4 times a second at
// most) takes BrokerMetrics::snapshot() — a copy under the metrics' mutex,
// no SQL — and redraws only when a figure, a depth or the clock minute
// changed; when the metrics name queues whose depths are stale (e.g. the
// clock moved past a visibility timeout) it asks the engine to re-read them
// (refreshQueueDepths, one at a time). Memory is bounded: the charts hold at
// most 60 points per line and kMaxQueues bars per depth.
//
// Ownership: borrows what it is given (null host: no broker). Thread: GUI.
class DashboardPage final : public QWidget {
    Q_OBJECT
public:
    static constexpr int kRepaintIntervalMs = 250;

    DashboardPage(EntityActions &actions, QWidget *parent = nullptr);
    void setBroker(EmbeddedBroker *host, EntityTreeModel *model);

    // Takes a snapshot now and shows it if anything changed; what the timer calls.
    void tick();
    // The rate window, an index into kRateWindowMinutes (0: 5 min, 1: 15, 2: 60).
    std::size_t rateWindow() const { return m_window; }
    void setRateWindow(std::size_t window);
    // The queues the depth chart shows; empty: the busiest.
    void setChosenQueues(const QStringList &queues);
    const QStringList &chosenQueues() const { return m_chosen; }

    RateTableModel *rateModel() const { return m_rates; }
    ActivityChart *activityChart() const { return m_activity; }
    DepthChart *depthChart() const { return m_depths; }
    DeadLetterList *deadLetterList() const { return m_deadLetters; }
    ConnectionHelp *connectionHelp() const { return m_connect; }
    // Whether the connection help comes before the figures (the broker holds no queue or topic).
    bool isConnectionHelpFirst() const;
    // How many times the figures were redrawn (tests: nothing redraws without a change).
    int redrawCount() const { return m_redraws; }

signals:
    // A dead-letter entry was clicked: select `ref` in the tree.
    void entityChosen(const relaydesk::LocalEntity &ref);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    QWidget *buildMetricsPart();
    void refreshSummary();
    void redraw(const MetricsSnapshot &snapshot);
    void fillQueueMenu();
    void refreshStaleDepths(const MetricsSnapshot &snapshot);

    EmbeddedBroker *m_host = nullptr;
    EntityTreeModel *m_model = nullptr;
    QLabel *m_title = nullptr;
    QLabel *m_summary = nullptr;
    ConnectionHelp *m_connect = nullptr;
    QVBoxLayout *m_content = nullptr;       // the page's column: summary, connection help, figures
    QWidget *m_metricsPart = nullptr;
    QButtonGroup *m_windowButtons = nullptr;
    QToolButton *m_queueChoice = nullptr;
    RateTableModel *m_rates = nullptr;
    QTableView *m_rateTable = nullptr;
    ActivityChart *m_activity = nullptr;
    DepthChart *m_depths = nullptr;
    DeadLetterList *m_deadLetters = nullptr;
    QTimer *m_repaint = nullptr;
    std::optional<MetricsSnapshot> m_shown; // what the page shows; empty: nothing yet
    std::size_t m_window = 0;
    QStringList m_chosen;
    bool m_refreshingDepths = false;
    int m_redraws = 0;
};

} // namespace relaydesk
