// SPDX-License-Identifier: MIT
#include "views/dashboard_page.h"

#include "charts/activity_chart.h"
#include "charts/chart_style.h"
#include "charts/depth_chart.h"
#include "charts/metric_series.h"
#include "charts/time_navigation.h"
#include "engine/broker_engine.h"
#include "engine/metrics_recording.h"
#include "models/entity_tree_model.h"
#include "models/rate_table_model.h"
#include "broker/broker_identity.h"
#include "connections/embedded/embedded_broker.h"
#include "views/connection_help.h"
#include "views/dead_letter_list.h"
#include "views/entity_actions.h"
#include "widgets/accessible_choice_button.h"
#include "widgets/adaptive_splitter.h"
#include "widgets/flow_layout.h"

#include <QAction>
#include <QButtonGroup>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QPushButton *buttonFor(QAction *action, QWidget *parent)
{
    auto *button = new QPushButton(QString(action->text()).remove(QLatin1Char('&')), parent);
    QObject::connect(button, &QPushButton::clicked, action, &QAction::trigger);
    QObject::connect(action, &QAction::changed, button, [button, action] { button->setEnabled(action->isEnabled()); });
    button->setEnabled(action->isEnabled());
    return button;
}

QLabel *plainLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    return label;
}

QLabel *heading(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setTextFormat(Qt::PlainText);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    return label;
}

// Whether two snapshots show the same: the figures, the depths and the clock minute.
bool sameFigures(const MetricsSnapshot &a, const MetricsSnapshot &b)
{
    return MinuteRing::minuteOf(a.at) == MinuteRing::minuteOf(b.at) && a.queueTotals == b.queueTotals &&
           a.topicTotals == b.topicTotals && a.queues == b.queues && a.topics == b.topics;
}

} // namespace

DashboardPage::DashboardPage(EntityActions &actions, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("dashboardPage"));
    installAccessibleChoiceButtons(); // the rate windows are radio buttons
    auto *scroll = new QScrollArea(this);
    scroll->setFocusPolicy(Qt::NoFocus); // its fields are the Tab stops (scrolled into view); the area is none: AT-SPI read it as an unnamed stop
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto *content = new QWidget(scroll);
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(10, 18, 10, 18); // narrow sides: the rate table whole at 800×600
    m_title = plainLabel(content);
    m_title->setWordWrap(false); // the URL whole
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_title->setFont(big);
    auto *top = new FlowLayout(nullptr, 10); // wraps rather than widen the page (large fonts)
    top->addWidget(m_title);
    top->addWidget(buttonFor(actions.newQueue(), content));
    top->addWidget(buttonFor(actions.newTopic(), content));
    layout->addLayout(top);
    m_summary = plainLabel(content);
    m_summary->setObjectName(QStringLiteral("dashboardSummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    // The connection help comes first while the broker holds nothing (what a
    // developer needs at the first start), after the figures once it does.
    m_connect = new ConnectionHelp(content);
    m_metricsPart = buildMetricsPart();
    m_metricsPart->setParent(content);
    m_content = layout;
    layout->addWidget(m_connect);
    layout->addWidget(m_metricsPart, 1);
    layout->addStretch(0);
    scroll->setWidget(content);
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->addWidget(scroll);

    m_repaint = new QTimer(this);
    m_repaint->setInterval(kRepaintIntervalMs);
    connect(m_repaint, &QTimer::timeout, this, &DashboardPage::tick);
    refreshSummary();
}

QWidget *DashboardPage::buildMetricsPart()
{
    auto *part = new QWidget;
    part->setObjectName(QStringLiteral("dashboardMetrics"));
    auto *windowLabel = new QLabel(tr("Rates over the last:"), part);
    m_windowButtons = new QButtonGroup(part);
    auto *switchRow = new FlowLayout;
    switchRow->addWidget(windowLabel);
    for (std::size_t i = 0; i < kRateWindowMinutes.size(); ++i) {
        auto *button = new QToolButton(part);
        // In the exclusive group before anything can make its accessible
        // interface: a radio button from the start (widgets/accessible_choice_button.h).
        m_windowButtons->addButton(button, int(i));
        button->setText(rateWindowName(i));
        button->setAccessibleName(button->text());
        button->setObjectName(QStringLiteral("rateWindow%1").arg(kRateWindowMinutes[i]));
        button->setCheckable(true);
        button->setChecked(i == m_window);
        button->setFocusPolicy(Qt::StrongFocus);
        switchRow->addWidget(button);
    }
    connect(m_windowButtons, &QButtonGroup::idClicked, this, [this](int id) { setRateWindow(std::size_t(id)); });
    m_queueChoice = new QToolButton(part);
    m_queueChoice->setObjectName(QStringLiteral("queueChoice"));
    m_queueChoice->setPopupMode(QToolButton::InstantPopup);
    m_queueChoice->setFocusPolicy(Qt::StrongFocus);
    auto *queueMenu = new QMenu(m_queueChoice);
    connect(queueMenu, &QMenu::aboutToShow, this, &DashboardPage::fillQueueMenu);
    m_queueChoice->setMenu(queueMenu);
    switchRow->addWidget(m_queueChoice);

    m_rates = new RateTableModel(this);
    m_rates->setDark(ChartColours::from(palette()).dark);
    m_rateTable = new QTableView(part);
    m_rateTable->setObjectName(QStringLiteral("rateTable"));
    m_rateTable->setAccessibleName(tr("Rates"));
    m_rateTable->setModel(m_rates);
    m_rateTable->verticalHeader()->hide();
    m_rateTable->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_rateTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_rateTable->setTabKeyNavigation(false);
    m_rateTable->setAlternatingRowColors(true);
    // Every column as wide as its contents, the names whole (on a 1280-pixel
    // screen a stretched name column was cut to "Pu…"); spare width goes to the last.
    m_rateTable->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_rateTable->horizontalHeader()->setStretchLastSection(true);
    m_rateTable->horizontalHeader()->setHighlightSections(false);
    m_rateTable->resizeColumnsToContents();
    // As wide as its columns where there is room (beside the dead letters); on a
    // narrow page it takes the page's width and scrolls inside its frame.
    m_rateTable->setSizeAdjustPolicy(QAbstractScrollArea::AdjustToContents);
    m_rateTable->setMinimumWidth(m_rateTable->fontMetrics().averageCharWidth() * 24);
    m_rateTable->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_rateTable->setMinimumHeight(m_rateTable->horizontalHeader()->sizeHint().height() +
                                  m_rateTable->verticalHeader()->defaultSectionSize() * m_rates->rowCount() + 4);
    m_activity = new ActivityChart(part);
    switchRow->insertWidget(int(kRateWindowMinutes.size()) + 1, m_activity->navigation()->followButton());
    switchRow->insertWidget(int(kRateWindowMinutes.size()) + 2, m_activity->navigation()->fitButton());
    m_depths = new DepthChart(part);
    m_deadLetters = new DeadLetterList(part);
    m_deadLetters->setWordWrap(true);
    connect(m_deadLetters, &DeadLetterList::entityChosen, this, &DashboardPage::entityChosen);
    auto *deadLetterLabel = heading(tr("&Dead letters held now"), part);
    deadLetterLabel->setTextFormat(Qt::AutoText);
    deadLetterLabel->setWordWrap(true); // a narrow column wraps the heading, never widens the page
    deadLetterLabel->setBuddy(m_deadLetters);

    // The activity chart across the page (its time axis needs the width);
    // below it the rates beside the dead letters (below them on a narrow
    // page), then the depths across.
    auto *deadLetterColumn = new QWidget(part);
    auto *deadLetterLayout = new QVBoxLayout(deadLetterColumn);
    deadLetterLayout->setContentsMargins(0, 0, 0, 0);
    deadLetterLayout->addWidget(deadLetterLabel);
    deadLetterLayout->addWidget(m_deadLetters, 1);
    auto *ratesAndDeadLetters = new AdaptiveSplitter(part);
    ratesAndDeadLetters->setObjectName(QStringLiteral("ratesAndDeadLetters"));
    ratesAndDeadLetters->addWidget(m_rateTable);
    ratesAndDeadLetters->addWidget(deadLetterColumn);
    ratesAndDeadLetters->setStretchFactor(0, 0);
    ratesAndDeadLetters->setStretchFactor(1, 1);
    ratesAndDeadLetters->setPaneWidth(0, [table = m_rateTable] {
        return table->horizontalHeader()->length() + 2 * table->frameWidth() + 8;
    });
    auto *grid = new QGridLayout;
    grid->addWidget(m_activity, 0, 0);
    grid->addWidget(ratesAndDeadLetters, 1, 0);
    grid->addWidget(m_depths, 2, 0);
    grid->setRowStretch(1, 1);
    auto *layout = new QVBoxLayout(part);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(switchRow);
    layout->addLayout(grid, 1);
    setChosenQueues({});
    return part;
}

void DashboardPage::setBroker(EmbeddedBroker *host, EntityTreeModel *model)
{
    if (m_model)
        disconnect(m_model, nullptr, this, nullptr);
    m_host = host;
    m_model = model;
    m_shown.reset();
    m_refreshingDepths = false;
    if (model)
        connect(model, &EntityTreeModel::refreshed, this, &DashboardPage::refreshSummary);
    refreshSummary();
    tick();
}

void DashboardPage::setRateWindow(std::size_t window)
{
    window = std::min(window, kRateWindowMinutes.size() - 1);
    if (QAbstractButton *button = m_windowButtons->button(int(window)))
        button->setChecked(true);
    if (window == m_window)
        return;
    m_window = window;
    if (m_activity->navigation()->mode() != TimeNavigation::Mode::FollowNow)
        m_activity->navigation()->setMode(TimeNavigation::Mode::FollowNow); // the window asked for, ending now
    if (m_shown)
        redraw(*m_shown);
}

void DashboardPage::setChosenQueues(const QStringList &queues)
{
    m_chosen = queues;
    m_queueChoice->setText(queues.isEmpty() ? tr("Queues: busiest") : tr("Queues: %n chosen", nullptr, int(queues.size())));
    m_queueChoice->setAccessibleName(m_queueChoice->text());
    if (m_shown)
        redraw(*m_shown);
}

void DashboardPage::fillQueueMenu()
{
    QMenu *menu = m_queueChoice->menu();
    menu->clear();
    QAction *busiest = menu->addAction(tr("The busiest %1").arg(DepthChart::kMaxQueues));
    busiest->setCheckable(true);
    busiest->setChecked(m_chosen.isEmpty());
    connect(busiest, &QAction::triggered, this, [this] { setChosenQueues({}); });
    menu->addSeparator();
    if (!m_shown)
        return;
    for (const QueueMetrics &queue : m_shown->queues) {
        const QString name = QString::fromStdString(queue.name);
        QAction *action = menu->addAction(name);
        action->setCheckable(true);
        action->setChecked(m_chosen.contains(name));
        action->setEnabled(m_chosen.contains(name) || m_chosen.size() < DepthChart::kMaxQueues);
        connect(action, &QAction::triggered, this, [this, name](bool on) {
            QStringList chosen = m_chosen;
            if (on)
                chosen << name;
            else
                chosen.removeAll(name);
            setChosenQueues(chosen);
        });
    }
}

void DashboardPage::tick()
{
    m_metricsPart->setVisible(m_host != nullptr);
    if (!m_host)
        return;
    MetricsSnapshot snapshot = m_host->metrics().snapshot();
    refreshStaleDepths(snapshot);
    if (m_shown && sameFigures(*m_shown, snapshot))
        return;
    redraw(snapshot);
    m_shown = std::move(snapshot);
}

void DashboardPage::refreshStaleDepths(const MetricsSnapshot &snapshot)
{
    if (m_refreshingDepths || m_host->metrics().queuesToRefresh(snapshot.at).empty())
        return;
    m_refreshingDepths = true;
    refreshQueueDepths(m_host->engine(), this, [this] { m_refreshingDepths = false; });
}

void DashboardPage::redraw(const MetricsSnapshot &snapshot)
{
    ++m_redraws;
    m_rates->apply(snapshot, m_window);
    // As wide as its columns once the figures are in (ResizeToContents follows them).
    const int wanted = m_rateTable->horizontalHeader()->length() + 2 * m_rateTable->frameWidth() + 8;
    if (m_rateTable->minimumWidth() < wanted)
        m_rateTable->setMinimumWidth(wanted);
    m_activity->showMetrics(snapshot, m_window);
    QStringList chosen;
    for (const QString &name : m_chosen) {
        if (snapshot.queue(name.toStdString()))
            chosen << name;
    }
    m_depths->showMetrics(snapshot, chosen);
    m_deadLetters->showMetrics(snapshot);
}

void DashboardPage::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    tick();
    m_repaint->start();
}

void DashboardPage::hideEvent(QHideEvent *event)
{
    m_repaint->stop();
    QWidget::hideEvent(event);
}

void DashboardPage::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        m_rates->setDark(ChartColours::from(palette()).dark);
}

bool DashboardPage::isConnectionHelpFirst() const
{
    return m_content->indexOf(m_connect) < m_content->indexOf(m_metricsPart);
}

void DashboardPage::refreshSummary()
{
    m_metricsPart->setVisible(m_host != nullptr);
    if (!m_host || !m_model) {
        m_title->setText(tr("No broker is running"));
        m_summary->setText(tr("Open or create a database (File menu) to start the broker."));
        m_connect->hide();
        return;
    }
    const EntityOverview &overview = m_model->overview();
    qint64 messages = 0;
    for (const QueueOverview &queue : overview.queues)
        messages += queue.counts.available + queue.counts.inFlight + queue.counts.delayed + queue.counts.scheduled;
    const QLocale locale;
    m_title->setText(tr("Broker at %1").arg(m_host->endpointUrl()));
    m_summary->setText(tr("Topics: %1 · subscriptions: %2 · queues: %3 · messages in them: %4\n"
                          "Select a topic or a queue on the left to see its page; right-click for what you can do.")
                           .arg(overview.topics.size())
                           .arg(overview.subscriptions.size())
                           .arg(overview.queues.size())
                           .arg(locale.toString(messages)));
    m_connect->showBroker({m_host->endpointUrl(), QString::fromStdString(m_host->identity().region),
                           m_host->amqpUrl(), m_host->amqpsUrl(), m_host->managementUrl(),
                           m_host->tlsAuthorityPath()});
    m_connect->show();
    const bool empty = overview.queues.empty() && overview.topics.empty();
    if (isConnectionHelpFirst() != empty) {
        m_content->removeWidget(m_connect);
        m_content->insertWidget(empty ? m_content->indexOf(m_metricsPart) : m_content->indexOf(m_metricsPart) + 1,
                                m_connect);
    }
}

} // namespace relaydesk
