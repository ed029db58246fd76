// SPDX-License-Identifier: MIT
#include "views/remote_dead_letter_bar.h"

#include "views/remote_messages_panel.h"
#include "widgets/connection_call_bar.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace relaydesk {

RemoteDeadLetterBar::RemoteDeadLetterBar(BrokerConnection *connection, EntityRef entity, ConnectionCallBar *callBar,
                                         QLabel *error, std::function<const MessageLine *()> selected, QWidget *parent)
    : QWidget(parent), m_connection(connection), m_entity(std::move(entity)), m_callBar(callBar), m_error(error),
      m_selected(std::move(selected))
{
    setObjectName(QStringLiteral("remoteDeadLetterBar"));
    // Made in the order they show: the tab order follows.
    m_abandon = new QPushButton(tr("A&bandon"), this);
    m_abandon->setObjectName(QStringLiteral("remoteAbandon"));
    m_deadLetter = new QPushButton(tr("Dead-&letter"), this);
    m_deadLetter->setObjectName(QStringLiteral("remoteDeadLetter"));
    m_reason = new QLineEdit(this);
    m_reason->setObjectName(QStringLiteral("remoteDeadLetterReason"));
    m_reason->setPlaceholderText(tr("reason (optional)"));
    m_reason->setAccessibleName(tr("Reason"));
    auto *reasonLabel = new QLabel(tr("R&eason:"), this);
    reasonLabel->setBuddy(m_reason);
    m_subqueue = new QCheckBox(tr("Dead-letter &queue"), this);
    m_subqueue->setObjectName(QStringLiteral("remoteDeadLetterQueue"));
    m_resubmit = new QPushButton(tr("&Resubmit"), this);
    m_resubmit->setObjectName(QStringLiteral("remoteResubmit"));
    connect(m_subqueue, &QCheckBox::toggled, this, [this] {
        showConnectionError(m_error, {});
        emit subqueueChanged();
    });
    connect(m_abandon, &QPushButton::clicked, this, [this] { settleSelected(Settlement::Abandon); });
    connect(m_deadLetter, &QPushButton::clicked, this, [this] { settleSelected(Settlement::DeadLetter); });
    connect(m_resubmit, &QPushButton::clicked, this, &RemoteDeadLetterBar::resubmitSelected);

    // Two lines, so that the part holds beside the tree at 800×600: the
    // polled message's settlements, then the subqueue and what is done there.
    auto *settle = new QHBoxLayout;
    settle->addWidget(m_abandon);
    settle->addWidget(m_deadLetter);
    settle->addWidget(reasonLabel);
    settle->addWidget(m_reason, 1);
    auto *subqueue = new QHBoxLayout;
    subqueue->addWidget(m_subqueue);
    subqueue->addWidget(m_resubmit);
    subqueue->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(settle);
    layout->addLayout(subqueue);
}

RemoteDeadLetterBar::~RemoteDeadLetterBar() = default;

bool RemoteDeadLetterBar::inSubqueue() const { return m_subqueue->isChecked(); }

EntityRef RemoteDeadLetterBar::target() const { return inSubqueue() ? m_connection->deadLetters(m_entity) : m_entity; }

void RemoteDeadLetterBar::setBusy(bool busy)
{
    const Capability can = m_connection->capability(m_entity.kind, ConnectionFeature::DeadLetters);
    const bool polled = m_selected() != nullptr;
    const QString select = tr("Select a polled message (a peeked one is not locked to settle it).");
    offerAction(m_subqueue, can.offered && !busy, can.reason);
    offerAction(m_abandon, can.offered && polled && !busy, can.offered ? select : can.reason);
    const QString already = tr("The message is in the dead-letter queue already: Resubmit sends it back.");
    offerAction(m_deadLetter, can.offered && polled && !inSubqueue() && !busy,
                !can.offered ? can.reason : inSubqueue() ? already : select);
    m_reason->setEnabled(can.offered && !inSubqueue());
    const QString fromSubqueue = tr("Resubmit sends back a message polled from the dead-letter queue (check Dead-letter queue, then Poll).");
    offerAction(m_resubmit, can.offered && polled && inSubqueue() && !busy,
                !can.offered ? can.reason : inSubqueue() ? select : fromSubqueue);
}

void RemoteDeadLetterBar::settleSelected(Settlement how)
{
    const MessageLine *selected = m_selected();
    if (!selected)
        return;
    const MessageLine line = *selected;
    emit busyChanged(true);
    ConnectionCall *call = m_connection->settleAs(target(), line, how, m_reason->text().trimmed(),
                                                  [this, id = line.messageId](ConnectionResult<Done> result) {
                                                      showConnectionError(m_error, result.ok ? QString() : result.error.text());
                                                      if (result.ok)
                                                          emit settled(id);
                                                  });
    m_callBar->track(call, how == Settlement::DeadLetter ? tr("Dead-lettering message %1…").arg(line.messageId)
                                                         : tr("Abandoning message %1…").arg(line.messageId));
}

void RemoteDeadLetterBar::resubmitSelected()
{
    const MessageLine *selected = m_selected();
    if (!selected)
        return;
    const MessageLine line = *selected;
    emit busyChanged(true);
    ConnectionCall *call = m_connection->resubmit(target(), line, [this, id = line.messageId](ConnectionResult<QString> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        if (result.ok)
            emit settled(id);
    });
    m_callBar->track(call, tr("Resubmitting message %1 to %2…").arg(line.messageId, m_entity.name));
}

} // namespace relaydesk
