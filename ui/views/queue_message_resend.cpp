// SPDX-License-Identifier: MIT
// QueueMessageActions: Resend…, Edit and Resend…, Redrive to Source, and the
// ordered batch sends that Resend and Import share (docs/window.md "Messages").
#include "views/queue_message_actions.h"

#include "dialogs/resend_messages_dialog.h"
#include "dialogs/send_message_dialog.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/message_lines.h"

#include <QLocale>

namespace relaydesk {

namespace {

constexpr std::size_t kProgressEvery = 500;   // a status line every this many messages sent

QString deadLetterCount(qint64 count)
{
    return count == 1 ? QObject::tr("1 dead letter") : QObject::tr("%1 dead letters").arg(QLocale().toString(count));
}

QString brokerMessage(const BrokerError &error)
{
    return QString::fromStdString(error.message);
}

} // namespace

// --- Resend, Edit and Resend, Redrive ---

void QueueMessageActions::openResendDialog()
{
    const std::vector<BrowsedMessage> selected = selectedMessages();
    if (selected.empty())
        return;
    auto *dialog = new ResendMessagesDialog(*m_service, m_queueName, static_cast<int>(selected.size()), m_page);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this,
            [this, dialog, selected] { resendMessages(selected, dialog->destination()); });
    dialog->open();
}

void QueueMessageActions::resendMessages(const std::vector<BrowsedMessage> &messages, const QString &destination)
{
    const bool fifo = destination.endsWith(QLatin1String(".fifo"));
    std::vector<SendRequest> requests;
    QStringList labels;
    for (const BrowsedMessage &message : messages) {
        requests.push_back(message_lines::resendRequest(message, fifo));
        labels << QString::fromStdString(message.messageId);
    }
    const auto total = static_cast<qint64>(messages.size());
    sendInOrder(destination, std::move(requests), labels, [this, destination, total](const Sent &sent) {
        QString text = sent.sent == total
                           ? tr("Resent %1 to %2").arg(messageCount(total), destination)
                           : tr("Resent %1 of %2 to %3").arg(QLocale().toString(sent.sent), messageCount(total), destination);
        if (sent.duplicates > 0)
            text += tr(" (%1 within the deduplication window, not enqueued again)").arg(sent.duplicates);
        if (!sent.errors.isEmpty())
            text += QStringLiteral(": ") + sent.errors.join(QStringLiteral("; "));
        report(text);
    });
}

void QueueMessageActions::openEditAndResend()
{
    const std::vector<BrowsedMessage> selected = selectedMessages();
    if (selected.size() != 1)
        return;
    auto *dialog = new SendMessageDialog(*m_service, m_queueName, m_page);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setClock(&m_engine->clock());
    const QString id = QString::fromStdString(selected.front().messageId);
    dialog->setMessage(message_lines::resendRequest(selected.front(), m_queueName.endsWith(QLatin1String(".fifo"))),
                       tr("Message %1").arg(id));
    dialog->setWindowTitle(tr("Edit and resend %1").arg(id));
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        report(tr("Sent %1 to %2").arg(dialog->sentMessageId(), m_queueName));
    });
    dialog->open();
}

void QueueMessageActions::redriveSelected()
{
    std::vector<std::string> ids;
    for (const BrowsedMessage &message : selectedMessages())
        if (message.deadLetterReason && message.sourceQueue)
            ids.push_back(message.messageId);
    if (ids.empty())
        return;
    m_service->redriveDeadLetters(m_queueName.toStdString(), std::move(ids), this, [this](Result<DeadLetterRedrive> moved) {
        if (!moved)
            return report(brokerMessage(moved.error()));
        QStringList to;
        for (const std::string &queue : moved->destinations)
            to << QString::fromStdString(queue);
        QString text = moved->moved == 0 ? tr("Moved no dead letter")
                                         : tr("Moved %1 back to %2").arg(deadLetterCount(moved->moved), to.join(QStringLiteral(", ")));
        if (moved->failed > 0)
            text += tr("; %1 stayed: no longer here, or its source queue is gone").arg(QLocale().toString(moved->failed));
        report(text);
    });
}

// --- Sending in order ---

void QueueMessageActions::sendInOrder(const QString &queue, std::vector<SendRequest> requests, QStringList labels,
                                      std::function<void(const Sent &)> done)
{
    sendBatch(queue, std::make_shared<std::vector<SendRequest>>(std::move(requests)),
              std::make_shared<QStringList>(std::move(labels)), 0, std::make_shared<Sent>(), std::move(done));
}

void QueueMessageActions::sendBatch(const QString &queue, std::shared_ptr<std::vector<SendRequest>> requests,
                                    std::shared_ptr<QStringList> labels, std::size_t from, std::shared_ptr<Sent> sent,
                                    std::function<void(const Sent &)> done)
{
    if (from >= requests->size())
        return done(*sent);
    std::vector<BatchEntry<SendRequest>> entries;
    for (std::size_t i = from; i < requests->size() && entries.size() < kMaxBatchEntries; ++i)
        entries.push_back({"m" + std::to_string(i - from), (*requests)[i]});
    const std::size_t next = from + entries.size();
    m_service->sendMessageBatch(
        queue.toStdString(), std::move(entries), this,
        [this, queue, requests, labels, from, next, sent, done](Result<std::vector<BatchEntryResult<SendReceipt>>> results) {
            if (!results) {   // the whole batch refused (an unknown queue): the rest is not tried
                sent->errors << brokerMessage(results.error());
                return done(*sent);
            }
            for (std::size_t i = 0; i < results->size(); ++i) {
                const auto &entry = (*results)[i];
                if (!entry.ok())
                    sent->errors << labels->value(static_cast<int>(from + i)) + QStringLiteral(": ") + brokerMessage(*entry.error);
                else {
                    ++sent->sent;
                    sent->duplicates += entry.value->duplicate ? 1 : 0;
                }
            }
            if (next < requests->size() && next % kProgressEvery == 0)
                emit statusMessage(tr("Sending to %1: %2 of %3…")
                                       .arg(queue, QLocale().toString(static_cast<qint64>(next)),
                                            messageCount(static_cast<qint64>(requests->size()))));
            sendBatch(queue, requests, labels, next, sent, done);
        });
}

} // namespace relaydesk
