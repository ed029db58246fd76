// SPDX-License-Identifier: MIT
#include "views/queue_message_actions.h"

#include "dialogs/receive_messages_dialog.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/message_browse_model.h"

#include <QAction>
#include <QItemSelectionModel>
#include <QLocale>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>

#include <algorithm>

namespace relaydesk {

QString messageCount(qint64 count)
{
    return count == 1 ? QObject::tr("1 message") : QObject::tr("%1 messages").arg(QLocale().toString(count));
}

namespace {

constexpr int kDefaultVisibilityTimeout = 30;

QString brokerMessage(const BrokerError &error)
{
    return QString::fromStdString(error.message);
}

} // namespace

QueueMessageActions::QueueMessageActions(BrokerService &service, BrokerEngine &engine, const QString &queueName,
                                         MessageBrowseModel *model, QTableView *table, QWidget *page)
    : QObject(page), m_service(&service), m_engine(&engine), m_queueName(queueName), m_model(model), m_table(table),
      m_page(page)
{
    const auto make = [this, page](const QString &text, const char *name, const QKeySequence &keys,
                                   const QString &tip, void (QueueMessageActions::*run)()) {
        auto *action = new QAction(text, this);
        action->setObjectName(QLatin1String(name));
        action->setShortcut(keys);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        action->setToolTip(tip);
        if (run)
            connect(action, &QAction::triggered, this, run);
        page->addAction(action);
        return action;
    };
    m_receive = make(tr("&Receive…"), "receiveAction", QKeySequence(Qt::CTRL | Qt::Key_R),
                     tr("Receive the next messages as a consumer would: they show in flight"),
                     &QueueMessageActions::openReceiveDialog);
    m_delete = make(tr("&Delete…"), "deleteMessagesAction", QKeySequence::Delete,
                    tr("Delete the selected messages (asks first)"), &QueueMessageActions::confirmDelete);
    // Del only on the table: in the search field it edits the text.
    page->removeAction(m_delete);
    m_delete->setShortcutContext(Qt::WidgetShortcut);
    table->addAction(m_delete);
    m_resend = make(tr("Resend…"), "resendAction", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R),
                    tr("Send copies of the selected messages to this or another queue"),
                    &QueueMessageActions::openResendDialog);
    m_editAndResend = make(tr("Edit &and Resend…"), "editAndResendAction", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E),
                           tr("Open the Send dialog filled with the selected message"),
                           &QueueMessageActions::openEditAndResend);
    m_redrive = make(tr("Redrive to S&ource"), "redriveAction", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_D),
                     tr("Move the selected dead letters back to the queues they came from"),
                     &QueueMessageActions::redriveSelected);
    m_redrive->setVisible(false);
    m_exportSelected = make(tr("E&xport Selected…"), "exportSelectedAction", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_X),
                            tr("Write the selected messages to a JSON-lines file"), nullptr);
    connect(m_exportSelected, &QAction::triggered, this, [this] { openExportDialog(true); });
    m_exportAll = make(tr("Export A&ll…"), "exportAllAction", QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_X),
                       tr("Write every message of the queue to a JSON-lines file"), nullptr);
    connect(m_exportAll, &QAction::triggered, this, [this] { openExportDialog(false); });
    m_import = make(tr("&Import…"), "importAction", QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_I),
                    tr("Send the messages of a JSON-lines file to this queue"), &QueueMessageActions::openImportDialog);
    updateEnabled();
}

QueueMessageActions::~QueueMessageActions() = default;

QList<QAction *> QueueMessageActions::actions() const
{
    return {m_receive, m_delete, m_resend, m_editAndResend, m_redrive, m_exportSelected, m_exportAll, m_import};
}

QMenu *QueueMessageActions::contextMenu(QWidget *parent)
{
    auto *menu = new QMenu(parent);
    menu->setObjectName(QStringLiteral("messageContextMenu"));
    menu->addActions({m_receive, m_delete});
    menu->addSeparator();
    menu->addActions({m_resend, m_editAndResend, m_redrive});
    menu->addSeparator();
    menu->addActions({m_exportSelected, m_exportAll, m_import});
    return menu;
}

void QueueMessageActions::setDeadLetterQueue(bool deadLetterQueue)
{
    m_deadLetterQueue = deadLetterQueue;
    updateEnabled();
}

std::vector<BrowsedMessage> QueueMessageActions::selectedMessages() const
{
    QModelIndexList rows = m_table->selectionModel()->selectedRows();
    std::sort(rows.begin(), rows.end(), [](const QModelIndex &a, const QModelIndex &b) { return a.row() < b.row(); });
    std::vector<BrowsedMessage> messages;
    for (const QModelIndex &row : rows)
        if (const BrowsedMessage *message = m_model->messageAt(row.row()))
            messages.push_back(*message);
    return messages;
}

void QueueMessageActions::updateEnabled()
{
    const std::vector<BrowsedMessage> selected = selectedMessages();
    m_delete->setEnabled(!selected.empty());
    m_resend->setEnabled(!selected.empty());
    m_editAndResend->setEnabled(selected.size() == 1);
    m_exportSelected->setEnabled(!selected.empty());
    m_redrive->setVisible(m_deadLetterQueue);
    m_redrive->setEnabled(m_deadLetterQueue && std::any_of(selected.begin(), selected.end(), [](const BrowsedMessage &m) {
                              return m.deadLetterReason && m.sourceQueue;
                          }));
}

void QueueMessageActions::report(const QString &message)
{
    emit statusMessage(message);
    emit finished();
}

// --- Receive ---

void QueueMessageActions::openReceiveDialog()
{
    const int count = std::clamp(static_cast<int>(selectedMessages().size()), 1, 10);
    m_service->getQueueAttributes(
        m_queueName.toStdString(), {"VisibilityTimeout"}, this, [this, count](Result<AttributeMap> attributes) {
            int timeout = kDefaultVisibilityTimeout;
            if (attributes)
                if (const auto found = attributes->find("VisibilityTimeout"); found != attributes->end())
                    timeout = QString::fromStdString(found->second).toInt();
            auto *dialog = new ReceiveMessagesDialog(m_queueName, count, timeout, m_page);
            dialog->setAttribute(Qt::WA_DeleteOnClose);
            connect(dialog, &QDialog::accepted, this,
                    [this, dialog] { receiveMessages(dialog->count(), dialog->visibilityTimeout()); });
            dialog->open();
        });
}

void QueueMessageActions::receiveMessages(int count, int visibilityTimeout)
{
    ReceiveRequest request;
    request.maxNumberOfMessages = count;
    request.visibilityTimeout = visibilityTimeout;
    request.waitTimeSeconds = 0;
    m_service->receiveMessage(m_queueName.toStdString(), request, this,
                              [this, visibilityTimeout](Result<ReceiveResult> received) {
                                  if (!received)
                                      return report(brokerMessage(received.error()));
                                  for (const ReceivedMessage &message : received->messages)
                                      m_handles[message.messageId] = message.receiptHandle;
                                  const auto n = static_cast<qint64>(received->messages.size());
                                  report(n == 0 ? tr("No message to receive in %1").arg(m_queueName)
                                                : tr("Received %1 from %2 — in flight for %3 s")
                                                      .arg(messageCount(n), m_queueName)
                                                      .arg(visibilityTimeout));
                              });
}

// --- Delete ---

void QueueMessageActions::confirmDelete()
{
    const std::vector<BrowsedMessage> selected = selectedMessages();
    if (selected.empty())
        return;
    const auto count = static_cast<qint64>(selected.size());
    auto *box = new QMessageBox(QMessageBox::Warning, tr("Delete messages"),
                                tr("Delete %1 from %2?").arg(messageCount(count), m_queueName), QMessageBox::Cancel,
                                m_page);
    box->setObjectName(QStringLiteral("deleteConfirmation"));
    box->setInformativeText(tr("Messages this window received are deleted with their receipt handle; the others "
                               "are removed in whatever state they are, in one broker step, even while a consumer "
                               "holds one. This cannot be undone."));
    QPushButton *confirm = box->addButton(tr("&Delete"), QMessageBox::DestructiveRole);
    confirm->setObjectName(QStringLiteral("confirmDelete"));
    box->setDefaultButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, confirm, selected](QAbstractButton *clicked) {
        if (clicked == confirm)
            deleteMessages(selected);
    });
    box->open();
}

void QueueMessageActions::deleteMessages(const std::vector<BrowsedMessage> &messages)
{
    struct Tally {
        int pending = 0;
        qint64 deleted = 0;
        QStringList errors;
    };
    auto tally = std::make_shared<Tally>();
    const auto total = static_cast<qint64>(messages.size());
    const auto done = [this, tally, total] {
        if (--tally->pending > 0)
            return;
        QString text = tally->deleted == total
                           ? tr("Deleted %1 from %2").arg(messageCount(total), m_queueName)
                           : tr("Deleted %1 of %2 from %3").arg(QLocale().toString(tally->deleted), messageCount(total), m_queueName);
        if (!tally->errors.isEmpty())
            text += QStringLiteral(": ") + tally->errors.join(QStringLiteral("; "));
        report(text);
    };
    std::vector<std::vector<BatchEntry<std::string>>> batches;
    std::vector<std::string> byId;
    for (const BrowsedMessage &message : messages) {
        const auto handle = m_handles.find(message.messageId);
        if (handle == m_handles.end() || message.state != MessageState::InFlight) {
            byId.push_back(message.messageId);
            continue;
        }
        if (batches.empty() || batches.back().size() == kMaxBatchEntries)
            batches.emplace_back();
        batches.back().push_back({"m" + std::to_string(batches.back().size()), handle->second});
        m_handles.erase(handle);
    }
    tally->pending = static_cast<int>(batches.size()) + (byId.empty() ? 0 : 1);
    if (tally->pending == 0)
        return report(tr("Nothing to delete"));
    for (auto &batch : batches)
        m_service->deleteMessageBatch(m_queueName.toStdString(), std::move(batch), this,
                                      [tally, done](Result<std::vector<BatchEntryResult<bool>>> results) {
                                          if (!results)
                                              tally->errors << brokerMessage(results.error());
                                          else
                                              for (const auto &entry : *results) {
                                                  if (entry.ok())
                                                      ++tally->deleted;
                                                  else
                                                      tally->errors << brokerMessage(*entry.error);
                                              }
                                          done();
                                      });
    if (!byId.empty())
        m_service->deleteMessagesById(m_queueName.toStdString(), std::move(byId), this,
                                      [tally, done](Result<std::int64_t> removed) {
                                          if (removed)
                                              tally->deleted += *removed;
                                          else
                                              tally->errors << brokerMessage(removed.error());
                                          done();
                                      });
}

} // namespace relaydesk
