// SPDX-License-Identifier: MIT
#include "dialogs/receive_messages_dialog.h"

#include "dialogs/dialog_form.h"

#include <QFormLayout>
#include <QSpinBox>

namespace relaydesk {

ReceiveMessagesDialog::ReceiveMessagesDialog(const QString &queueName, int count, int visibilityTimeout,
                                             QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("receiveDialog"));
    setWindowTitle(tr("Receive from %1").arg(queueName));
    auto *form = new QFormLayout;
    m_count = new QSpinBox;
    m_count->setObjectName(QStringLiteral("count"));
    m_count->setRange(1, 10);
    m_count->setValue(count);
    addFormRow(form, tr("&Messages:"), m_count);
    m_timeout = new QSpinBox;
    m_timeout->setObjectName(QStringLiteral("visibilityTimeout"));
    m_timeout->setRange(0, 43200);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setValue(visibilityTimeout);
    m_timeout->setToolTip(tr("How long the received messages stay invisible to other consumers (0–43 200 seconds)."));
    addFormRow(form, tr("&Visibility timeout:"), m_timeout);
    layOutChoiceDialog(this,
                       tr("Takes the next visible messages as a consumer's ReceiveMessage would: they stay in the "
                          "queue, in flight, until deleted or until the visibility timeout ends."),
                       form, tr("&Receive"), "receive");
    // Typing a count right away sets it (Enter then receives that many).
    m_count->setFocus();
    m_count->selectAll();
}

int ReceiveMessagesDialog::count() const { return m_count->value(); }
int ReceiveMessagesDialog::visibilityTimeout() const { return m_timeout->value(); }

} // namespace relaydesk
