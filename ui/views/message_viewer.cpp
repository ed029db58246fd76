// SPDX-License-Identifier: MIT
#include "views/message_viewer.h"

#include "models/message_text.h"
#include "connections/embedded/embedded_messages.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace relaydesk {

namespace {

QTreeWidgetItem *addRow(QTreeWidgetItem *parent, const QString &name, const QString &type, const QString &value)
{
    auto *item = new QTreeWidgetItem(parent, {name, type, value});
    item->setToolTip(0, name);
    item->setToolTip(2, value);
    return item;
}

} // namespace

MessageViewer::MessageViewer(QWidget *parent) : QWidget(parent)
{
    m_title = new QLabel(tr("Select a message to see it here."), this);
    m_title->setObjectName(QStringLiteral("messageTitle"));
    m_title->setTextFormat(Qt::PlainText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_title->setWordWrap(true); // a long id wraps, never widens the page
    m_copyId = new QPushButton(tr("Copy &ID"), this);
    m_copyId->setObjectName(QStringLiteral("copyId"));
    m_copyBody = new QPushButton(tr("Copy b&ody"), this);
    m_copyBody->setObjectName(QStringLiteral("copyBody"));
    m_copyJson = new QPushButton(tr("Copy as &JSON"), this);
    m_copyJson->setObjectName(QStringLiteral("copyJson"));
    for (QPushButton *button : {m_copyId, m_copyBody, m_copyJson})
        button->setEnabled(false);
    connect(m_copyId, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(QString::fromStdString(m_message->messageId));
    });
    connect(m_copyBody, &QPushButton::clicked, this, [this] {
        QApplication::clipboard()->setText(QString::fromStdString(m_message->body));
    });
    connect(m_copyJson, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(messageJson()); });

    m_body = new QPlainTextEdit(this);   // plain text only: a body is never interpreted as rich text
    m_body->setObjectName(QStringLiteral("messageBody"));
    m_body->setAccessibleName(tr("Message body"));
    m_body->setReadOnly(true);
    m_body->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_body->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_body->setTabChangesFocus(true);

    m_attributes = new QTreeWidget(this);
    m_attributes->setObjectName(QStringLiteral("messageAttributes"));
    m_attributes->setAccessibleName(tr("Message attributes"));
    m_attributes->setHeaderLabels({tr("Attribute"), tr("Type"), tr("Value")});
    m_attributes->setRootIsDecorated(true);
    // Names and types as wide as they need up to a share of the pane; Value
    // takes the rest (the last section stretches); what is cut is elided in
    // the middle, whole in its tooltip.
    m_attributes->header()->setStretchLastSection(true);
    m_attributes->setTextElideMode(Qt::ElideMiddle);
    m_attributes->setWordWrap(false);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_title, 1);
    buttons->addWidget(m_copyId);
    buttons->addWidget(m_copyBody);
    buttons->addWidget(m_copyJson);
    auto *split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(m_body);
    split->addWidget(m_attributes);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(buttons);
    layout->addWidget(split, 1);
}

void MessageViewer::focusMessage() { m_body->setFocus(Qt::OtherFocusReason); }

void MessageViewer::showMessage(const std::optional<BrowsedMessage> &message)
{
    m_message = message;
    for (QPushButton *button : {m_copyId, m_copyBody, m_copyJson})
        button->setEnabled(message.has_value());
    m_attributes->clear();
    if (!message) {
        m_title->setText(tr("Select a message to see it here."));
        m_body->clear();
        return;
    }
    bool json = false;
    m_body->setPlainText(message_text::viewerBody(message->body, &json));
    m_title->setText(tr("%1 · %2 · %3 bytes%4")
                         .arg(QString::fromStdString(message->messageId), message_text::stateLabel(message->state))
                         .arg(message->body.size())
                         .arg(json ? tr(" · JSON") : QString()));

    auto *user = new QTreeWidgetItem(m_attributes, {tr("Message attributes (%1)").arg(message->attributes.size())});
    for (const auto &[name, value] : message->attributes)
        addRow(user, QString::fromStdString(name), QString::fromStdString(value.dataType),
               message_text::attributeValueText(value));
    auto *system = new QTreeWidgetItem(m_attributes, {tr("System attributes")});
    const auto time = [](ClockTime at) { return message_text::timeText(at); };
    addRow(system, QStringLiteral("MessageId"), QStringLiteral("String"), QString::fromStdString(message->messageId));
    addRow(system, QStringLiteral("State"), QStringLiteral("String"), message_text::stateLabel(message->state));
    addRow(system, QStringLiteral("SentTimestamp"), QStringLiteral("Time"), time(message->sent));
    addRow(system, QStringLiteral("EnqueuedTime"), QStringLiteral("Time"), time(message->enqueued));
    if (message->scheduledEnqueueTime)
        addRow(system, QStringLiteral("ScheduledEnqueueTime"), QStringLiteral("Time"), time(*message->scheduledEnqueueTime));
    addRow(system, QStringLiteral("VisibleAt"), QStringLiteral("Time"), time(message->visibleAt));
    if (message->expiresAt)
        addRow(system, QStringLiteral("ExpiresAt"), QStringLiteral("Time"), time(*message->expiresAt));
    addRow(system, QStringLiteral("ApproximateReceiveCount"), QStringLiteral("Number"),
           QString::number(message->receiveCount));
    if (message->firstReceive)
        addRow(system, QStringLiteral("ApproximateFirstReceiveTimestamp"), QStringLiteral("Time"),
               time(*message->firstReceive));
    if (message->groupId)
        addRow(system, QStringLiteral("MessageGroupId"), QStringLiteral("String"), QString::fromStdString(*message->groupId));
    if (message->deduplicationId)
        addRow(system, QStringLiteral("MessageDeduplicationId"), QStringLiteral("String"),
               QString::fromStdString(*message->deduplicationId));
    if (message->sequenceNumber)
        addRow(system, QStringLiteral("SequenceNumber"), QStringLiteral("Number"), QString::number(*message->sequenceNumber));
    if (message->deadLetterReason)
        addRow(system, QStringLiteral("DeadLetterReason"), QStringLiteral("String"),
               QString::fromStdString(*message->deadLetterReason));
    if (message->sourceQueue)
        addRow(system, QStringLiteral("DeadLetterSourceQueue"), QStringLiteral("String"),
               QString::fromStdString(*message->sourceQueue));
    m_attributes->expandAll();
    fitAttributeColumns();
}

void MessageViewer::fitAttributeColumns()
{
    const int width = m_attributes->viewport()->width();
    m_attributes->resizeColumnToContents(1);
    m_attributes->resizeColumnToContents(0);
    // Types up to a fifth; names whole ("ApproximateReceiveCount") while
    // Value keeps two fifths, else at least two fifths of their own.
    m_attributes->setColumnWidth(1, std::min(m_attributes->columnWidth(1), width / 5));
    const int names = std::max(width * 2 / 5, width - m_attributes->columnWidth(1) - width * 2 / 5);
    m_attributes->setColumnWidth(0, std::min(m_attributes->columnWidth(0), names));
}

void MessageViewer::resizeEvent(QResizeEvent *event)
{
    QWidget::resizeEvent(event);
    fitAttributeColumns();
}

QString MessageViewer::messageJson() const
{
    return m_message ? QString::fromStdString(embedded::sqsBrowsedMessage(*m_message).dump(2)) : QString();
}

} // namespace relaydesk
