// SPDX-License-Identifier: MIT
#include "dialogs/resend_messages_dialog.h"

#include "dialogs/dialog_form.h"
#include "engine/broker_service.h"

#include <QComboBox>
#include <QFormLayout>

namespace relaydesk {

ResendMessagesDialog::ResendMessagesDialog(BrokerService &service, const QString &queueName, int count,
                                           QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("resendDialog"));
    setWindowTitle(count == 1 ? tr("Resend 1 message") : tr("Resend %1 messages").arg(count));
    auto *form = new QFormLayout;
    m_destination = new QComboBox;
    m_destination->setObjectName(QStringLiteral("destination"));
    m_destination->addItem(queueName);
    addFormRow(form, tr("&To queue:"), m_destination);
    m_resend = layOutChoiceDialog(this,
                                  tr("Sends a copy of each — body, message attributes, and for a FIFO queue its "
                                     "group and deduplication id — as a new message. The originals stay where they "
                                     "are."),
                                  form, tr("&Resend"), "resend");

    service.listQueues({}, std::nullopt, {}, this, [this, queueName](Result<QueuePage> page) {
        if (!page)
            return;
        for (const std::string &url : page->queueUrls) {
            const QString name = QString::fromStdString(url).section(QLatin1Char('/'), -1);
            if (name != queueName)
                m_destination->addItem(name);
        }
    });
}

QString ResendMessagesDialog::destination() const
{
    return m_destination->currentText();
}

} // namespace relaydesk
