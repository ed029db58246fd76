// SPDX-License-Identifier: MIT
#include "views/servicebus_messages_page.h"

#include "broker/queues/servicebus_queue.h"
#include "engine/broker_engine.h"
#include "models/servicebus_message_model.h"
#include "views/servicebus_message_actions.h"
#include "widgets/flow_layout.h"

#include <QAction>
#include <QComboBox>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace relaydesk {

ServiceBusMessagesPage::ServiceBusMessagesPage(BrokerService &service, BrokerEngine &engine, const QString &queue,
                                               QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("serviceBusMessagesPage"));
    m_model = new ServiceBusMessageModel(service, queue, this);
    m_filter = new ServiceBusMessageFilter(this);
    m_filter->setSourceModel(m_model);

    m_state = new QComboBox(this);
    m_state->setObjectName(QStringLiteral("stateFilter"));
    m_state->addItem(tr("Every state"));
    for (auto state : {ServiceBusMessageState::Active, ServiceBusMessageState::Locked, ServiceBusMessageState::Deferred,
                       ServiceBusMessageState::Scheduled, ServiceBusMessageState::DeadLettered})
        m_state->addItem(serviceBusStateWord(state), int(state));
    auto *stateLabel = new QLabel(tr("S&tate:"), this);
    stateLabel->setBuddy(m_state);
    m_state->setAccessibleName(tr("State"));
    m_session = new QLineEdit(this);
    m_session->setObjectName(QStringLiteral("sessionFilter"));
    m_session->setPlaceholderText(tr("every session"));
    auto *sessionLabel = new QLabel(tr("Sess&ion:"), this);
    sessionLabel->setBuddy(m_session);
    m_session->setAccessibleName(tr("Session"));
    auto *refresh = new QPushButton(tr("&Refresh"), this);
    refresh->setObjectName(QStringLiteral("refreshMessages"));
    refresh->setShortcut(QKeySequence::Refresh);
    refresh->setAccessibleName(tr("Refresh"));
    m_count = new QLabel(this);
    m_count->setObjectName(QStringLiteral("messageCount"));
    m_count->setForegroundRole(QPalette::PlaceholderText);

    auto *bar = new QHBoxLayout;
    bar->addWidget(stateLabel);
    bar->addWidget(m_state);
    bar->addSpacing(8);
    bar->addWidget(sessionLabel);
    bar->addWidget(m_session, 1);
    bar->addWidget(refresh);
    bar->addWidget(m_count);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("serviceBusMessages"));
    m_table->setAccessibleName(tr("Messages"));
    m_table->setModel(m_filter);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->setWordWrap(false);

    m_details = new QPlainTextEdit(this);
    m_details->setObjectName(QStringLiteral("messageDetails"));
    m_details->setAccessibleName(tr("Message"));
    m_details->setReadOnly(true);
    m_details->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_details->setPlaceholderText(tr("Select a message to see its properties and body."));

    m_actions = new ServiceBusMessageActions(service, queue, m_model, m_filter, m_table, this);
    // A row of buttons that wraps rather than widening the page (large fonts, narrow windows).
    auto *tools = new FlowLayout;
    for (QAction *action : m_actions->toolActions()) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        button->setToolButtonStyle(Qt::ToolButtonTextOnly);
        button->setAccessibleName(action->text().remove(QLatin1Char('&')).remove(QStringLiteral("…")));
        button->setVisible(action->isVisible()); // Close Session: only on an entity with sessions
        connect(action, &QAction::visibleChanged, button, [button, action] { button->setVisible(action->isVisible()); });
        tools->addWidget(button);
    }
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("serviceBusActionStatus"));
    m_status->setWordWrap(true);
    m_status->hide();   // until the first action's outcome
    connect(m_actions, &ServiceBusMessageActions::statusMessage, m_status, [this](const QString &text) {
        m_status->setText(text);
        m_status->show();
    });
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        QMenu *menu = m_actions->contextMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_table->viewport()->mapToGlobal(at));
    });

    auto *detailsPane = new QWidget(this);
    auto *copies = new FlowLayout;
    for (QAction *action : {m_actions->copyMessageId(), m_actions->copyBody(), m_actions->copyJson()}) {
        auto *button = new QPushButton(action->text(), detailsPane);
        button->setObjectName(action->objectName() + QStringLiteral("Button"));
        button->setAccessibleName(action->text().remove(QLatin1Char('&')));
        connect(button, &QPushButton::clicked, action, &QAction::trigger);
        connect(action, &QAction::enabledChanged, button, &QPushButton::setEnabled);
        button->setEnabled(action->isEnabled());
        copies->addWidget(button);
    }
    auto *detailsLayout = new QVBoxLayout(detailsPane);
    detailsLayout->setContentsMargins(0, 0, 0, 0);
    detailsLayout->addWidget(m_details, 1);
    detailsLayout->addLayout(copies);

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(detailsPane);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(tools);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);

    connect(m_state, &QComboBox::currentIndexChanged, this, [this] {
        const QVariant state = m_state->currentData();
        m_filter->setState(state.isValid() ? std::optional(ServiceBusMessageState(state.toInt())) : std::nullopt);
        updateCount();
    });
    connect(m_session, &QLineEdit::textChanged, this, [this](const QString &text) {
        m_filter->setSession(text);
        updateCount();
    });
    connect(refresh, &QPushButton::clicked, m_model, &ServiceBusMessageModel::refresh);
    connect(m_model, &ServiceBusMessageModel::refreshed, this, [this] {
        updateCount();
        fitColumns();
        showSelected();
    });
    connect(m_model, &ServiceBusMessageModel::readFailed, m_count, &QLabel::setText);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, &ServiceBusMessagesPage::showSelected);
    const QStringList queues{queue, queue + QString::fromLatin1(kServiceBusDeadLetterSuffix)};
    connect(&engine, &BrokerEngine::changesPublished, this, [this, queues](const QList<EntityChange> &changes) {
        for (const EntityChange &change : changes)
            if (change.entity == EntityChange::Entity::Queue && queues.contains(change.name))
                return m_model->refresh();
    });
    m_model->refresh();
}

void ServiceBusMessagesPage::fitColumns()
{
    // Columns that say nothing for these messages (no sessions, no dead letters…) step aside.
    for (int column : {ServiceBusMessageModel::SessionColumn, ServiceBusMessageModel::SubjectColumn,
                       ServiceBusMessageModel::ContentTypeColumn, ServiceBusMessageModel::UntilColumn,
                       ServiceBusMessageModel::ReasonColumn, ServiceBusMessageModel::DescriptionColumn}) {
        bool empty = true;
        for (int row = 0; row < m_model->rowCount() && empty; ++row)
            empty = m_model->index(row, column).data().toString().isEmpty();
        m_table->setColumnHidden(column, empty);
    }
    if (m_fitted || m_model->rowCount() == 0)
        return;
    // Once, with the first messages: each column as wide as what it shows (within
    // reason); the body takes the rest. Later refreshes keep what the user chose.
    m_fitted = true;
    const int widest = m_table->fontMetrics().horizontalAdvance(QLatin1Char('M')) * 24;
    for (int column = 0; column < ServiceBusMessageModel::BodyColumn; ++column) {
        m_table->resizeColumnToContents(column);
        m_table->setColumnWidth(column, std::min(m_table->columnWidth(column), widest));
    }
}

void ServiceBusMessagesPage::updateCount()
{
    const int shown = m_filter->rowCount();
    const int all = m_model->rowCount();
    m_count->setText(shown == all ? tr("%n message(s)", nullptr, all) : tr("%1 of %2").arg(shown).arg(all));
}

void ServiceBusMessagesPage::showSelected()
{
    const QModelIndex current = m_filter->mapToSource(m_table->currentIndex());
    if (!current.isValid() || current.row() >= int(m_model->rows().size())) {
        m_details->clear();
        return;
    }
    m_details->setPlainText(serviceBusMessageText(m_model->rows()[std::size_t(current.row())]));
}

} // namespace relaydesk
