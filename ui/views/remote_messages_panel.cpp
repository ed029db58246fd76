// SPDX-License-Identifier: MIT
#include "views/remote_messages_panel.h"

#include "connections/broker_connection.h"
#include "views/remote_dead_letter_bar.h"
#include "widgets/connection_call_bar.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

EntityRef refOf(const RemoteEntity &entity)
{
    return EntityRef{static_cast<EntityKind>(entity.kind), entity.name, entity.address, entity.parent};
}

} // namespace

RemoteMessagesPanel::RemoteMessagesPanel(BrokerConnection *connection, RemoteEntity entity, ConnectionCallBar *callBar,
                                         QWidget *parent)
    : QGroupBox(tr("Messages"), parent), m_connection(connection), m_entity(std::move(entity)), m_callBar(callBar)
{
    setObjectName(QStringLiteral("remoteMessages"));
    const EntityKind kind = static_cast<EntityKind>(m_entity.kind);
    m_peek = m_connection->capability(kind, ConnectionFeature::Peek).offered;
    m_look = new QPushButton(m_peek ? tr("Pee&k") : tr("P&oll messages"), this);
    m_look->setObjectName(QStringLiteral("remoteLook"));
    // Made in the order they show: the tab order follows.
    const bool pollToo = m_peek && m_connection->capability(kind, ConnectionFeature::Poll).offered;
    if (pollToo) {
        m_poll = new QPushButton(tr("P&oll"), this);
        m_poll->setObjectName(QStringLiteral("remotePoll"));
        connect(m_poll, &QPushButton::clicked, this, &RemoteMessagesPanel::pollLines);
    }
    const bool deadLetters = m_connection->capability(kind, ConnectionFeature::DeadLetters).offered;
    m_delete = new QPushButton(deadLetters ? tr("&Complete") : tr("Delete &message"), this);
    m_delete->setObjectName(QStringLiteral("remoteDeleteMessage"));
    m_note = new QLabel(this);
    m_note->setWordWrap(true);
    if (pollToo)
        m_note->setText(tr("Peek shows the messages without changing them. Poll receives up to ten and keeps them "
                           "from other receivers until you settle them or their lock (claim, visibility) ends."));
    else if (!m_peek && m_connection->capability(kind, ConnectionFeature::Poll).offered)
        m_note->setText(tr("%1 Poll receives up to ten messages with a visibility of %2 s: other receivers do not "
                           "get them until then, and their receive count goes up. Delete message removes one.")
                            .arg(m_connection->capability(kind, ConnectionFeature::Peek).reason)
                            .arg(kPollVisibilitySeconds));
    else
        m_note->setText(tr("Peek shows the first messages without changing them."));
    m_error = errorLabel(QStringLiteral("remoteMessageError"), this);
    m_deadLetters = new RemoteDeadLetterBar(m_connection, refOf(m_entity), m_callBar, m_error,
                                            [this] { return selectedPolled(); }, this);
    m_table = new QTableWidget(0, 4, this);
    m_table->setObjectName(QStringLiteral("remoteMessageTable"));
    m_table->setAccessibleName(tr("Messages"));
    m_table->setHorizontalHeaderLabels({tr("Message ID"), tr("Body"), tr("State"), tr("Receives")});
    // The body takes the room; the id, state and receive count are as wide as they are.
    for (int column : {0, 2, 3})
        m_table->horizontalHeader()->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    connect(m_look, &QPushButton::clicked, this, &RemoteMessagesPanel::look);
    connect(m_delete, &QPushButton::clicked, this, &RemoteMessagesPanel::deleteSelected);
    connect(m_table, &QTableWidget::itemSelectionChanged, this, [this] { setBusy(m_callBar->busy()); });
    connect(m_deadLetters, &RemoteDeadLetterBar::busyChanged, this, &RemoteMessagesPanel::busyChanged);
    connect(m_deadLetters, &RemoteDeadLetterBar::settled, this, &RemoteMessagesPanel::dropLine);
    connect(m_deadLetters, &RemoteDeadLetterBar::subqueueChanged, this, [this] {
        showLines({});   // the list was the other entity's
        setBusy(m_callBar->busy());
    });

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_look);
    if (m_poll)
        buttons->addWidget(m_poll);
    buttons->addWidget(m_delete);
    buttons->addWidget(m_error, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addLayout(buttons);
    layout->addWidget(m_deadLetters);
    layout->addWidget(m_table, 1);
    if (m_entity.isTopic())
        QGroupBox::hide();   // a topic keeps no messages
}

RemoteMessagesPanel::~RemoteMessagesPanel() = default;

void RemoteMessagesPanel::setBusy(bool busy)
{
    const EntityKind kind = static_cast<EntityKind>(m_entity.kind);
    const Capability look = m_connection->capability(kind, m_peek ? ConnectionFeature::Peek : ConnectionFeature::Poll);
    offerAction(m_look, look.offered && !busy, look.reason);
    if (m_poll)
        offerAction(m_poll, !busy, {});
    const Capability settle = m_connection->capability(kind, ConnectionFeature::Settle);
    offerAction(m_delete, settle.offered && selectedPolled() && !busy,
                settle.offered ? tr("Select a polled message (a peeked one has no receipt to delete it by).")
                               : settle.reason);
    m_deadLetters->setBusy(busy);
}

EntityRef RemoteMessagesPanel::target() const { return m_deadLetters->target(); }

const MessageLine *RemoteMessagesPanel::selectedPolled() const
{
    const QList<QTableWidgetItem *> selected = m_table->selectedItems();
    const int row = selected.isEmpty() ? -1 : selected.front()->row();
    if (row < 0 || static_cast<std::size_t>(row) >= m_lines.size())
        return nullptr;
    const MessageLine &line = m_lines[static_cast<std::size_t>(row)];
    return line.receiptHandle.isEmpty() ? nullptr : &line;
}

void RemoteMessagesPanel::look()
{
    if (!m_peek)
        return pollLines();
    emit busyChanged(true);
    ConnectionCall *call = m_connection->peek(target(), PeekRequest{}, [this](ConnectionResult<MessagePage> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        if (result.ok)
            showLines(std::move(result.value.messages));
    });
    m_callBar->track(call, tr("Peeking at %1…").arg(target().name));
}

void RemoteMessagesPanel::pollLines()
{
    emit busyChanged(true);
    ConnectionCall *call = m_connection->poll(target(), PollRequest{10, kPollVisibilitySeconds},
                                              [this](ConnectionResult<std::vector<MessageLine>> result) {
                                                  showConnectionError(m_error, result.ok ? QString() : result.error.text());
                                                  if (result.ok)
                                                      showLines(std::move(result.value));
                                              });
    m_callBar->track(call, tr("Polling %1…").arg(target().name));
}

void RemoteMessagesPanel::showLines(std::vector<MessageLine> messages)
{
    m_lines = std::move(messages);
    m_table->setRowCount(static_cast<int>(m_lines.size()));
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const MessageLine &line = m_lines[static_cast<std::size_t>(row)];
        m_table->setItem(row, 0, new QTableWidgetItem(line.messageId));
        m_table->setItem(row, 1, new QTableWidgetItem(line.body));
        const QString reason = line.attributes.value(QStringLiteral("DeadLetterReason"));
        m_table->setItem(row, 2, new QTableWidgetItem(reason.isEmpty() ? line.state
                                                                       : tr("%1, dead-lettered: %2").arg(line.state, reason)));
        m_table->setItem(row, 3, new QTableWidgetItem(QString::number(line.receiveCount)));
    }
}

void RemoteMessagesPanel::deleteSelected()
{
    const MessageLine *selected = selectedPolled();
    if (!selected)
        return;
    const MessageLine line = *selected;
    emit busyChanged(true);
    ConnectionCall *call = m_connection->settle(target(), line, [this, id = line.messageId](ConnectionResult<Done> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        if (result.ok)
            dropLine(id);
    });
    m_callBar->track(call, tr("Deleting message %1…").arg(line.messageId));
}

void RemoteMessagesPanel::dropLine(const QString &messageId)
{
    for (std::size_t i = 0; i < m_lines.size(); ++i)
        if (m_lines[i].messageId == messageId) {
            m_lines.erase(m_lines.begin() + static_cast<std::ptrdiff_t>(i));
            m_table->removeRow(static_cast<int>(i));
            break;
        }
}

} // namespace relaydesk
