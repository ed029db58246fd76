// SPDX-License-Identifier: MIT
#include "views/deliveries_page.h"

#include "charts/attempt_chart.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/attempt_log_model.h"
#include "broker/broker_identity.h"
#include "connections/embedded/embedded_broker.h"
#include "policy/policy_json.h"
#include "views/attempt_filter_bar.h"
#include "views/entity_actions.h"
#include "widgets/error_text.h"
#include "views/message_timeline_panel.h"
#include "widgets/adaptive_splitter.h"
#include "widgets/column_width.h"
#include "widgets/elide_delegate.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QScrollBar>
#include <QSplitter>
#include <QStyle>
#include <QTableView>
#include <QVBoxLayout>

#include <nlohmann/json.hpp>

namespace relaydesk {

namespace {

using Entity = EntityChange::Entity;

QString text(const std::string &value) { return QString::fromStdString(value); }

// The schedule of an EffectiveDeliveryPolicy attribute (topic form, as the broker writes it).
std::optional<RetrySchedule> scheduleOf(const std::string &effectivePolicy)
{
    const nlohmann::json document = nlohmann::json::parse(effectivePolicy, nullptr, false);
    if (document.is_discarded())
        return std::nullopt;
    const PolicyReadResult read = readPolicy(document);
    if (!read.policy || !read.errors.empty())
        return std::nullopt;
    return planSchedule(read.policy->retryOrDefault(), read.policy->dialect);
}

} // namespace

DeliveriesPage::DeliveriesPage(EmbeddedBroker &host, EntityActions &actions, const LocalEntity &ref, QWidget *parent)
    : QWidget(parent), m_host(host), m_actions(actions), m_ref(ref)
{
    setObjectName(QStringLiteral("deliveriesPage"));
    const bool topic = ref.kind == Entity::Topic;
    const QString arn = topic ? text(host.identity().topicArn(ref.name.toStdString())) : ref.name;
    m_topicName = topic ? ref.name : ref.name.section(QLatin1Char(':'), 5, 5);
    m_model = new AttemptLogModel(host.service(), host.engine(),
                                  topic ? AttemptLogModel::Scope::Topic : AttemptLogModel::Scope::Subscription, arn,
                                  this);

    auto *layout = new QVBoxLayout(this);
    m_filters = new AttemptFilterBar(host.engine().clock(), this);
    layout->addWidget(m_filters);

    auto *bar = new QHBoxLayout;
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("attemptCount"));
    m_count->setTextFormat(Qt::PlainText);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("deliveriesStatus"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setFocusPolicy(Qt::NoFocus); // until it says something (setStatus): an empty focusable label is an unnamed stop
    m_copy = new QPushButton(tr("&Copy Rows"), this);
    m_copy->setObjectName(QStringLiteral("copyAttemptRows"));
    m_copy->setToolTip(tr("Copy the selected attempts as tab-separated text (Ctrl+C in the table)"));
    m_export = new QPushButton(tr("E&xport…"), this);
    m_export->setObjectName(QStringLiteral("exportAttempts"));
    m_export->setToolTip(tr("Write every attempt the filters show to a CSV or JSON file"));
    bar->addWidget(m_count);
    bar->addWidget(m_status, 1);
    bar->addWidget(m_copy);
    bar->addWidget(m_export);
    layout->addLayout(bar);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("deliveriesSplitter"));
    split->setChildrenCollapsible(false);
    m_chart = new AttemptChart(&host.engine().clock(), split);
    // The attempt log beside the message's timeline where both fit whole, above it otherwise.
    auto *lower = new AdaptiveSplitter(split);
    m_table = new QTableView(lower);
    m_table->setObjectName(QStringLiteral("attemptTable"));
    m_table->setAccessibleName(tr("Attempt log"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerItem);
    m_table->setWordWrap(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    // Widths from the font, so a larger font keeps whole words and times.
    const auto fit = [this](int column, const QString &sample) { fitColumnTo(*m_table, column, sample); };
    fit(AttemptLogModel::MessageIdColumn, QStringLiteral("0123…cdef"));
    m_table->setItemDelegateForColumn(AttemptLogModel::MessageIdColumn, new ElideDelegate(Qt::ElideMiddle, m_table));
    fit(AttemptLogModel::AttemptColumn, QStringLiteral("100"));
    fit(AttemptLogModel::StatusColumn, QStringLiteral("connectionError"));
    fit(AttemptLogModel::OutcomeColumn, QStringLiteral("connectionError"));
    // The phase's colour swatch comes before its name.
    fitColumnTo(*m_table, AttemptLogModel::PhaseColumn, QStringLiteral("postBackoff"),
                m_table->style()->pixelMetric(QStyle::PM_SmallIconSize, nullptr, m_table) + 6);
    fit(AttemptLogModel::DueColumn, QStringLiteral("00:00:00.000"));
    fit(AttemptLogModel::StartedColumn, QStringLiteral("00:00:00.000"));
    fit(AttemptLogModel::DurationColumn, QStringLiteral("10000 ms"));
    fit(AttemptLogModel::FinalColumn, QStringLiteral("deadLettered"));
    fit(AttemptLogModel::KindColumn, QStringLiteral("delivery")); // the last: it takes what is left
    m_timeline = new MessageTimelinePanel(lower);
    lower->setPaneWidth(0, [table = m_table] {
        return table->horizontalHeader()->length() + 2 * table->frameWidth() + table->verticalScrollBar()->sizeHint().width();
    });
    lower->setStretchFactor(0, 1);
    lower->setStretchFactor(1, 1);
    lower->setSizes({560, 520});
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({460, 420});
    layout->addWidget(split, 1);

    auto *copy = new QAction(tr("Copy Rows"), m_table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_table->addAction(copy);
    connect(copy, &QAction::triggered, this, &DeliveriesPage::copySelectedRows);
    connect(m_copy, &QPushButton::clicked, this, &DeliveriesPage::copySelectedRows);
    connect(m_export, &QPushButton::clicked, this, &DeliveriesPage::exportWithDialog);

    connect(m_filters, &AttemptFilterBar::filterChanged, this, [this](const AttemptFilter &filter) {
        m_chart->clear();
        m_model->setFilter(filter);
        if (!filter.messageId.isEmpty())
            m_chart->showMessage(filter.messageId); // whole, however long ago it ended
    });
    connect(m_model, &AttemptLogModel::attemptsArrived, this, &DeliveriesPage::onAttemptsArrived);
    connect(m_model, &AttemptLogModel::totalChanged, this, &DeliveriesPage::showCount);
    connect(m_model, &AttemptLogModel::loadingChanged, this, &DeliveriesPage::showCount);
    connect(m_model, &AttemptLogModel::loadFailed, this, [this](const QString &message) { setStatus(message, true); });
    // Live rows come in at the top: a table scrolled down keeps showing the same rows.
    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this](const QModelIndex &, int first, int last) {
        QScrollBar *scroll = m_table->verticalScrollBar();
        if (first == 0 && scroll->value() > 0)
            scroll->setValue(scroll->value() + last - first + 1);
    });
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
            &DeliveriesPage::onCurrentRowChanged);
    connect(m_timeline, &MessageTimelinePanel::deadLetterQueueRequested, this,
            [this](const QString &queue) { m_actions.requestOpen(LocalEntity{Entity::Queue, queue}); });
    connect(m_timeline, &MessageTimelinePanel::redeliverRequested, this, &DeliveriesPage::redeliver);
    connect(&host.engine(), &BrokerEngine::changesPublished, this, [this](const QList<EntityChange> &changes) {
        for (const EntityChange &change : changes)
            if (change.entity == Entity::Subscription && change.kind != EntityChange::Kind::AttemptsLogged
                && change.kind != EntityChange::Kind::CountsChanged
                && (change.name == m_ref.name || change.name.section(QLatin1Char(':'), 5, 5) == m_topicName))
                return reloadSchedules();
    });

    showCount();
    reloadSchedules();
    m_model->setFilter({});
}

DeliveriesPage::~DeliveriesPage() = default;

void DeliveriesPage::reloadSchedules()
{
    if (m_ref.kind == Entity::Subscription)
        return loadSchedule(m_ref.name.toStdString());
    m_host.service().listSubscriptions(
        m_topicName.toStdString(), {}, this, [this](Result<SubscriptionPage> page) {
            if (!page)
                return;
            for (const SubscriptionSummary &subscription : page->subscriptions)
                if ((subscription.protocol == "http" || subscription.protocol == "https")
                    && subscription.subscriptionArn != "PendingConfirmation")
                    loadSchedule(subscription.subscriptionArn);
        });
}

void DeliveriesPage::loadSchedule(const std::string &subscriptionArn)
{
    m_host.service().getSubscriptionAttributes(
        subscriptionArn, this, [this, arn = text(subscriptionArn)](Result<AttributeMap> attributes) {
            if (attributes) {
                const auto found = attributes->find("EffectiveDeliveryPolicy");
                m_chart->setSchedule(arn, found == attributes->end() ? std::nullopt : scheduleOf(found->second));
            }
            emit settled();
        });
}

void DeliveriesPage::onAttemptsArrived(const std::vector<AttemptRecord> &rows)
{
    m_chart->addAttempts(rows);
    if (m_timelineMessage.isEmpty())
        return;
    const std::string shown = m_timelineMessage.toStdString();
    for (const AttemptRecord &row : rows)
        if (row.messageId == shown && text(row.subscriptionArn) == m_timelineArn)
            return loadTimeline(m_timelineArn, m_timelineMessage);
}

void DeliveriesPage::onCurrentRowChanged()
{
    const AttemptRecord *record = m_model->recordAt(m_table->currentIndex().row());
    if (!record)
        return;
    loadTimeline(text(record->subscriptionArn), text(record->messageId));
    m_chart->showMessage(text(record->messageId));
}

void DeliveriesPage::loadTimeline(const QString &subscriptionArn, const QString &messageId)
{
    m_timelineArn = subscriptionArn;
    m_timelineMessage = messageId;
    m_host.service().messageTimeline(
        subscriptionArn.toStdString(), messageId.toStdString(), this,
        [this, subscriptionArn, messageId](Result<MessageTimeline> timeline) {
            if (subscriptionArn != m_timelineArn || messageId != m_timelineMessage)
                return; // another row was picked meanwhile
            if (timeline)
                m_timeline->showTimeline(*timeline);
            else
                m_timeline->showMessage(text(timeline.error().message));
            emit settled();
        });
}

void DeliveriesPage::redeliver(const QString &subscriptionArn, const QString &messageId)
{
    m_host.service().redeliver(subscriptionArn.toStdString(), messageId.toStdString(), this,
                               [this, messageId](Result<Redelivery> started) {
                                   if (started)
                                       setStatus(tr("Redelivery %1 of %2 started.").arg(started->redelivery).arg(messageId));
                                   else
                                       setStatus(text(started.error().message), true);
                                   emit settled();
                               });
}

void DeliveriesPage::exportWithDialog()
{
    const QString csv = tr("CSV (*.csv)");
    const QString json = tr("JSON (*.json)");
    QString chosen = csv;
    const QString base = m_ref.kind == Entity::Topic ? m_ref.name : m_topicName + QStringLiteral("-subscription");
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Attempts"),
                                                      QStringLiteral("attempts-%1.csv").arg(base),
                                                      csv + QStringLiteral(";;") + json, &chosen);
    if (path.isEmpty())
        return;
    const bool asJson = path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive)
                     || (!path.endsWith(QLatin1String(".csv"), Qt::CaseInsensitive) && chosen == json);
    exportTo(path, asJson ? AttemptExportFormat::Json : AttemptExportFormat::Csv);
}

void DeliveriesPage::exportTo(const QString &path, AttemptExportFormat format)
{
    m_export->setEnabled(false);
    setStatus(tr("Exporting…"));
    m_host.service().exportAttemptsToFile(m_model->query(), format, path.toStdString(), this,
                                          [this, path](Result<std::int64_t> written) {
                                              m_export->setEnabled(true);
                                              if (written)
                                                  setStatus(tr("Exported %1 attempts to %2")
                                                                .arg(QLocale().toString(qint64(*written)), path));
                                              else
                                                  setStatus(text(written.error().message), true);
                                              emit settled();
                                          });
}

void DeliveriesPage::copySelectedRows()
{
    QList<int> rows;
    for (const QModelIndex &index : m_table->selectionModel()->selectedRows())
        rows << index.row();
    if (rows.isEmpty() && m_table->currentIndex().isValid())
        rows << m_table->currentIndex().row();
    if (rows.isEmpty())
        return;
    QGuiApplication::clipboard()->setText(m_model->rowsAsText(rows));
    setStatus(rows.size() == 1 ? tr("Copied 1 attempt") : tr("Copied %1 attempts").arg(rows.size()));
}

void DeliveriesPage::showCount()
{
    const std::int64_t total = m_model->total();
    if (total < 0)
        m_count->setText(m_model->isLoading() ? tr("Loading attempts…") : QString());
    else
        m_count->setText(total == 1 ? tr("1 attempt") : tr("%1 attempts").arg(QLocale().toString(qint64(total))));
    m_count->setAccessibleName(m_count->text());
}

QString DeliveriesPage::countText() const { return m_count->text(); }

QString DeliveriesPage::statusText() const { return m_status->text(); }

void DeliveriesPage::setStatus(const QString &message, bool isError)
{
    m_status->setText(message);
    showAsError(m_status, isError);
    m_status->setAccessibleName(message);
    m_status->setFocusPolicy(message.isEmpty() ? Qt::NoFocus : Qt::ClickFocus);
}

} // namespace relaydesk
