// SPDX-License-Identifier: MIT
#include "views/queue_messages_page.h"

#include "dialogs/move_dead_letters_dialog.h"
#include "dialogs/send_message_dialog.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/message_browse_model.h"
#include "views/message_viewer.h"
#include "views/message_position_bar.h"
#include "views/queue_message_actions.h"
#include "widgets/column_width.h"
#include "widgets/elide_delegate.h"
#include "widgets/flow_layout.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QScrollBar>
#include <QSignalBlocker>
#include <QSplitter>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace relaydesk {

namespace {

const std::vector<std::string> kCountAttributes = {"ApproximateNumberOfMessages",
                                                   "ApproximateNumberOfMessagesNotVisible",
                                                   "ApproximateNumberOfMessagesDelayed"};

} // namespace

QueueMessagesPage::QueueMessagesPage(BrokerService &service, BrokerEngine &engine, const QString &queueName,
                                     QWidget *parent)
    : QWidget(parent), m_service(&service), m_engine(&engine), m_queueName(queueName)
{
    setObjectName(QStringLiteral("queueMessagesPage"));
    m_model = new MessageBrowseModel(service, engine, queueName, this);

    auto *searchLabel = new QLabel(tr("&Search:"), this);
    m_search = new QLineEdit(this);
    m_search->setObjectName(QStringLiteral("search"));
    m_search->setAccessibleName(tr("Search"));
    m_search->setPlaceholderText(tr("message id, body text, or key=value on an attribute — Enter"));
    m_search->setClearButtonEnabled(true);
    searchLabel->setBuddy(m_search);
    connect(m_search, &QLineEdit::returnPressed, this, [this] { m_model->setSearch(m_search->text()); });
    connect(m_search, &QLineEdit::textChanged, this, [this](const QString &text) {
        if (text.isEmpty() && !m_model->search().isEmpty())
            m_model->setSearch({});
    });

    const auto button = [this](const QString &text, const char *name, const QString &tip) {
        auto *made = new QPushButton(text, this);
        made->setObjectName(QLatin1String(name));
        made->setToolTip(tip);
        return made;
    };
    m_send = button(tr("Se&nd…"), "send", tr("Send a message to this queue"));
    m_purge = button(tr("&Purge…"), "purge", tr("Delete every message of this queue"));
    m_cancelScheduled = button(tr("&Cancel scheduled"), "cancelScheduled", tr("Cancel the selected scheduled message"));
    m_moveBack = button(tr("&Move dead letters back…"), "moveDeadLettersBack",
                        tr("Move the messages of this dead-letter queue back to their source queues"));
    m_moveBack->setVisible(false);
    m_searchFurther = button(tr("Search &further"), "searchFurther",
                             tr("Examine the next %1 messages for the search")
                                 .arg(QLocale().toString(MessageBrowseModel::kSearchScanRows)));
    m_searchFurther->setVisible(false);
    connect(m_searchFurther, &QPushButton::clicked, m_model, &MessageBrowseModel::continueSearch);
    connect(m_send, &QPushButton::clicked, this, &QueueMessagesPage::openSendDialog);
    connect(m_purge, &QPushButton::clicked, this, &QueueMessagesPage::purge);
    connect(m_cancelScheduled, &QPushButton::clicked, this, &QueueMessagesPage::cancelSelectedScheduled);
    connect(m_moveBack, &QPushButton::clicked, this, &QueueMessagesPage::openMoveDeadLettersDialog);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("messages"));
    m_table->setAccessibleName(tr("Messages"));
    m_table->setModel(m_model);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_table->setSortingEnabled(true);   // the model sorts the whole queue, by Sent only
    m_table->sortByColumn(MessageBrowseModel::SentColumn, Qt::AscendingOrder);
    m_table->setAlternatingRowColors(true);
    m_table->setWordWrap(false);
    m_table->setTabKeyNavigation(false);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(m_table->fontMetrics().height() + 8);
    QHeaderView *header = m_table->horizontalHeader();
    connect(header, &QHeaderView::sortIndicatorChanged, this, [this, header](int column, Qt::SortOrder) {
        if (MessageBrowseModel::isSortable(column))
            return;
        const QSignalBlocker quiet(header);   // a column that does not sort keeps no indicator
        header->setSortIndicator(MessageBrowseModel::SentColumn, m_model->sortOrder());
    });
    header->setSectionResizeMode(QHeaderView::Interactive);
    header->setStretchLastSection(false);
    header->setSectionResizeMode(MessageBrowseModel::BodyColumn, QHeaderView::Stretch);
    // Narrow enough that the body keeps room beside the tree dock; it takes
    // what is left. Widths follow the font; the id is cut (whole in its
    // tooltip and below the table); a standard queue has no groups, so no
    // Group column.
    header->setMinimumSectionSize(40);
    header->setTextElideMode(Qt::ElideRight); // a narrowed column's title ends in "…"
    header->setDefaultAlignment(Qt::AlignLeft | Qt::AlignVCenter);
    fitColumnTo(*m_table, MessageBrowseModel::StateColumn, QStringLiteral("Dead-lettered"));
    fitColumnTo(*m_table, MessageBrowseModel::CountdownColumn, QStringLiteral("lock ends in 59 min 59 s")); // the longest form
    fitColumnTo(*m_table, MessageBrowseModel::IdColumn, QStringLiteral("6f44ec9d"));
    // Time-ordered ids share their first characters: cut in the middle, the differing tail shows.
    m_table->setItemDelegateForColumn(MessageBrowseModel::IdColumn, new ElideDelegate(Qt::ElideMiddle, m_table));
    fitColumnTo(*m_table, MessageBrowseModel::SentColumn, QStringLiteral("14:00:00.000"));
    fitColumnTo(*m_table, MessageBrowseModel::ReceivesColumn, QStringLiteral("10"));
    fitColumnTo(*m_table, MessageBrowseModel::GroupColumn, QStringLiteral("group-1"));
    header->setSectionHidden(MessageBrowseModel::GroupColumn, !queueName.endsWith(QLatin1String(".fifo")));
    for (int column = 0; column < MessageBrowseModel::ColumnCount; ++column)
        m_columnWidths << header->sectionSize(column);
    m_table->viewport()->installEventFilter(this);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this, [this] {
        showSelected();
        updateActions();
    });
    m_actions = new QueueMessageActions(service, engine, queueName, m_model, m_table, this);
    connect(m_actions, &QueueMessageActions::statusMessage, this, &QueueMessagesPage::statusMessage);
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, m_actions,
            &QueueMessageActions::updateEnabled);
    m_table->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_table, &QWidget::customContextMenuRequested, this, [this](const QPoint &at) {
        QMenu *menu = m_actions->contextMenu(this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(m_table->viewport()->mapToGlobal(at));
    });

    m_viewer = new MessageViewer(this);
    connect(m_table, &QAbstractItemView::activated, this, [this] {
        showSelected();
        m_viewer->focusMessage();
    });
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("status"));
    m_status->setTextFormat(Qt::PlainText);
    m_status->setWordWrap(true); // a long status wraps, never widens the page
    // The last action's outcome stays in the status line (before the counts) until the next one.
    connect(m_actions, &QueueMessageActions::statusMessage, this, [this](const QString &note) {
        m_actionNote = note;
        updateStatus();
    });

    auto *bar = new QHBoxLayout;
    bar->addWidget(searchLabel);
    bar->addWidget(m_search, 1);
    bar->addWidget(m_searchFurther);
    m_positionBar = new MessagePositionBar(m_model, m_table, this, this);
    bar->addWidget(m_positionBar);
    // The queue's actions, then the per-message workflows (one tool button per
    // action, named as labelled, reachable by Tab), wrapping onto another row
    // rather than widening the page.
    auto *tools = new FlowLayout;
    tools->addWidget(m_send);
    tools->addWidget(m_purge);
    tools->addWidget(m_cancelScheduled);
    tools->addWidget(m_moveBack);
    // Tab goes through the search and every button (the queue's, then the
    // per-message ones: Receive…, Export All…, Import…) before the table and
    // the message's body and attributes: the reading order of the page.
    QWidget *before = m_searchFurther;
    for (QWidget *tool : std::initializer_list<QWidget *>{m_send, m_purge, m_cancelScheduled, m_moveBack}) {
        QWidget::setTabOrder(before, tool);
        before = tool;
    }
    for (QAction *action : m_actions->actions()) {
        auto *tool = new QToolButton(this);
        tool->setDefaultAction(action);
        tool->setObjectName(action->objectName() + QStringLiteral("Button"));
        tool->setToolButtonStyle(Qt::ToolButtonTextOnly);
        tool->setFocusPolicy(Qt::StrongFocus);
        tool->setAccessibleName(action->text().remove(QLatin1Char('&')));
        tool->setVisible(action->isVisible());
        connect(action, &QAction::changed, tool, [tool, action] { tool->setVisible(action->isVisible()); });
        tools->addWidget(tool);
        QWidget::setTabOrder(before, tool);
        before = tool;
    }
    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_table);
    split->addWidget(m_viewer);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(bar);
    layout->addLayout(tools);
    layout->addWidget(split, 1);
    layout->addWidget(m_status);

    connect(m_model, &MessageBrowseModel::loaded, this, [this] {
        updateStatus();
        showSelected();
        updateActions();
    });
    connect(m_model, &MessageBrowseModel::loadingChanged, this, &QueueMessagesPage::updateStatus);
    connect(&engine, &BrokerEngine::changesPublished, this, &QueueMessagesPage::onChanges);
    m_ticker = new QTimer(this);
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &QueueMessagesPage::tick);
    m_ticker->start();

    checkDeadLetterQueue();
    m_model->fetchMore({});
    updateStatus();
    updateActions();
}

QueueMessagesPage::~QueueMessagesPage() = default;

bool QueueMessagesPage::selectMessage(const QString &messageId)
{
    const int row = m_model->rowOf(messageId);
    if (row < 0)
        return false;
    const QModelIndex index = m_model->index(row, 0);
    m_table->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    m_table->scrollTo(index);
    return true;
}

int QueueMessagesPage::selectedSourceRow() const
{
    const QModelIndex current = m_table->selectionModel()->currentIndex();
    return current.isValid() ? current.row() : -1;
}

void QueueMessagesPage::showSelected()
{
    const BrowsedMessage *message = m_model->messageAt(selectedSourceRow());
    const auto &shown = m_viewer->message();
    if (!message) {
        if (shown)
            m_viewer->showMessage(std::nullopt);
        return;
    }
    // Only when something changed: the viewer keeps its scroll position otherwise.
    if (!shown || shown->messageId != message->messageId || shown->state != message->state
        || shown->receiveCount != message->receiveCount || shown->visibleAt != message->visibleAt)
        m_viewer->showMessage(*message);
}

void QueueMessagesPage::updateActions()
{
    const BrowsedMessage *message = m_model->messageAt(selectedSourceRow());
    m_cancelScheduled->setEnabled(message && message->state == MessageState::Scheduled);
    m_moveBack->setVisible(m_deadLetterQueue);
    m_actions->setDeadLetterQueue(m_deadLetterQueue);
}

void QueueMessagesPage::updateStatus()
{
    if (!m_model->lastError().isEmpty()) {
        m_status->setText(m_model->lastError());
        return;
    }
    const QString count = QLocale().toString(m_model->rowCount());
    const bool one = m_model->rowCount() == 1;
    QString text = m_model->search().isEmpty()
                       ? (one ? tr("1 message loaded") : tr("%1 messages loaded").arg(count))
                       : (one ? tr("1 message matches “%1”").arg(m_model->search())
                              : tr("%1 messages match “%2”").arg(count, m_model->search()));
    if (m_model->isSearchPaused())
        text += tr(" · searched %1 of %2 messages — Search further goes on")
                    .arg(QLocale().toString(m_model->searchedCount()), QLocale().toString(m_model->queueTotal()));
    else if (!m_model->atEnd())
        text += tr(" · more load as you scroll");
    m_searchFurther->setVisible(m_model->isSearchPaused());
    if (m_model->isLoading())
        text += tr(" · reading…");
    if (!m_actionNote.isEmpty())
        text = m_actionNote + QStringLiteral(" · ") + text;
    m_status->setText(text + tr(" · browsing does not receive"));
}

void QueueMessagesPage::tick()
{
    const int height = m_table->viewport()->height();
    const int first = m_table->rowAt(0);
    if (first < 0)
        return;
    int last = m_table->rowAt(height - 1);
    if (last < 0)
        last = m_model->rowCount() - 1;
    m_model->tick(first, last);
}

void QueueMessagesPage::onChanges(const QList<EntityChange> &changes)
{
    for (const EntityChange &change : changes)
        if (change.entity == EntityChange::Entity::Queue && change.kind != EntityChange::Kind::CountsChanged)
            return checkDeadLetterQueue();   // a redrive policy may now name (or no longer name) this queue
}

void QueueMessagesPage::checkDeadLetterQueue()
{
    m_service->listDeadLetterSourceQueues(m_queueName.toStdString(), this,
                                          [this](Result<std::vector<std::string>> sources) {
                                              m_deadLetterQueue = sources && !sources->empty();
                                              updateActions();
                                          });
}

void QueueMessagesPage::openSendDialog()
{
    auto *dialog = new SendMessageDialog(*m_service, m_queueName, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setClock(&m_engine->clock());
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        emit statusMessage(tr("Sent %1 to %2").arg(dialog->sentMessageId(), m_queueName));
    });
    dialog->open();
}

void QueueMessagesPage::purge()
{
    m_service->getQueueAttributes(
        m_queueName.toStdString(), kCountAttributes, this, [this](Result<AttributeMap> attributes) {
            if (!attributes)
                return emit statusMessage(QString::fromStdString(attributes.error().message));
            qint64 count = 0;
            for (const std::string &name : kCountAttributes)
                if (const auto found = attributes->find(name); found != attributes->end())
                    count += QString::fromStdString(found->second).toLongLong();
            auto *box = new QMessageBox(QMessageBox::Warning, tr("Purge %1").arg(m_queueName),
                                        tr("Purge %1 messages from %2?").arg(QLocale().toString(count), m_queueName),
                                        QMessageBox::Cancel, this);
            box->setObjectName(QStringLiteral("purgeConfirmation"));
            box->setInformativeText(tr("Every message of the queue is deleted, in every state. This cannot be undone."));
            QPushButton *confirm = box->addButton(tr("&Purge"), QMessageBox::DestructiveRole);
            confirm->setObjectName(QStringLiteral("confirmPurge"));
            box->setDefaultButton(QMessageBox::Cancel);
            box->setAttribute(Qt::WA_DeleteOnClose);
            connect(box, &QMessageBox::buttonClicked, this, [this, confirm](QAbstractButton *clicked) {
                if (clicked != confirm)
                    return;
                m_service->purgeQueue(m_queueName.toStdString(), this, [this](Status purged) {
                    emit statusMessage(purged ? tr("Purged %1").arg(m_queueName)
                                              : QString::fromStdString(purged.error().message));
                });
            });
            box->open();
        });
}

void QueueMessagesPage::cancelSelectedScheduled()
{
    const BrowsedMessage *message = m_model->messageAt(selectedSourceRow());
    if (!message || message->state != MessageState::Scheduled)
        return;
    const QString id = QString::fromStdString(message->messageId);
    m_service->cancelScheduledMessage(m_queueName.toStdString(), message->messageId, this, [this, id](Status cancelled) {
        emit statusMessage(cancelled ? tr("Cancelled the scheduled message %1").arg(id)
                                     : QString::fromStdString(cancelled.error().message));
    });
}

void QueueMessagesPage::openMoveDeadLettersDialog()
{
    auto *dialog = new MoveDeadLettersDialog(*m_service, *m_engine, m_queueName, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open();
}

bool QueueMessagesPage::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        keepRoomForBody();
    return QWidget::eventFilter(watched, event);
}

void QueueMessagesPage::keepRoomForBody()
{
    QHeaderView *header = m_table->horizontalHeader();
    const int room = m_table->viewport()->width();
    int others = 0;
    for (int column = 0; column < MessageBrowseModel::ColumnCount; ++column)
        if (column != MessageBrowseModel::BodyColumn && !header->isSectionHidden(column))
            others += m_columnWidths.value(column);
    int excess = others + room / 3 - room;
    // Every other column gives up the same share of what it has above a few
    // characters (its text elided, whole in the tooltip).
    const int least = std::max(header->minimumSectionSize(), m_table->fontMetrics().averageCharWidth() * 6);
    QList<int> widths = m_columnWidths;
    int spare = 0;
    for (int column = 0; column < MessageBrowseModel::ColumnCount; ++column)
        if (column != MessageBrowseModel::BodyColumn && !header->isSectionHidden(column))
            spare += std::max(0, widths.value(column) - least);
    if (excess > 0 && spare > 0) {
        const double share = std::min(1.0, double(excess) / double(spare));
        for (int column = 0; column < MessageBrowseModel::ColumnCount; ++column)
            if (column != MessageBrowseModel::BodyColumn)
                widths[column] -= int(std::ceil(std::max(0, widths.value(column) - least) * share));
    }
    for (int column = 0; column < MessageBrowseModel::ColumnCount; ++column)
        if (column != MessageBrowseModel::BodyColumn)
            header->resizeSection(column, widths.value(column));
}

} // namespace relaydesk
