// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_browser.h"
#include "broker/queues/message_sender.h"
#include "models/message_lines.h"

#include <QList>
#include <QObject>
#include <QString>

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QAction;
class QMenu;
class QTableView;
class QWidget;

namespace relaydesk {

class BrokerEngine;
class BrokerService;
class MessageBrowseModel;

// The per-message workflows of a queue's Messages tab (docs/window.md
// "Messages"), one QAction each, shown in the tab's tool row and the table's
// context menu with the same shortcut:
//  - Receive… takes the next messages as a consumer would (ReceiveMessage,
//    peek-lock, the visibility timeout chosen, the queue's by default); the
//    receipt handles are kept here, so the rows show in flight and a later
//    Delete uses them.
//  - Delete… (Del on the table) asks "Delete N messages from Q?", then deletes
//    the received ones by their handle (DeleteMessageBatch) and the others by
//    MessageId in one broker unit (BrokerService::deleteMessagesById).
//  - Resend… copies the selected messages to this or another queue
//    (SendMessageBatch in order, message_lines::resendRequest); Edit and
//    Resend… opens the Send dialog filled with the current message.
//  - Redrive to Source (a dead-letter queue) moves the selected dead letters
//    back to the queues they came from (BrokerService::redriveDeadLetters).
//  - Export Selected… / Export All… write JSON lines (message_lines) — all:
//    the whole queue, read page by page with progress and Cancel
//    (PagedExport); Import… sends such a file into this
//    queue (queue_message_transfer.cpp).
// Every broker call is asynchronous; each ends with a statusMessage in plural-
// correct words and `finished`. Ownership: borrows service, engine, model and
// table (they outlive it); a child of the page. GUI thread.
class QueueMessageActions final : public QObject {
    Q_OBJECT
public:
    QueueMessageActions(BrokerService &service, BrokerEngine &engine, const QString &queueName,
                        MessageBrowseModel *model, QTableView *table, QWidget *page);
    ~QueueMessageActions() override;

    QAction *receive() const { return m_receive; }
    QAction *deleteSelected() const { return m_delete; }
    QAction *resend() const { return m_resend; }
    QAction *editAndResend() const { return m_editAndResend; }
    QAction *redrive() const { return m_redrive; }
    QAction *exportSelected() const { return m_exportSelected; }
    QAction *exportAll() const { return m_exportAll; }
    QAction *importFile() const { return m_import; }
    // In the order of the tool row and the context menu.
    QList<QAction *> actions() const;
    // The context menu of the table, with the actions that apply now.
    QMenu *contextMenu(QWidget *parent);

    void setDeadLetterQueue(bool deadLetterQueue);
    // Enables the actions for the current selection.
    void updateEnabled();
    // The selected rows' messages, in the table's order.
    std::vector<BrowsedMessage> selectedMessages() const;
    // Whether this page holds a receipt handle for the message (it received it).
    bool holdsReceipt(const std::string &messageId) const { return m_handles.count(messageId) > 0; }

public slots:
    void openReceiveDialog();
    void receiveMessages(int count, int visibilityTimeout);
    void confirmDelete();
    void deleteMessages(const std::vector<BrowsedMessage> &messages);
    void openResendDialog();
    void resendMessages(const std::vector<BrowsedMessage> &messages, const QString &destination);
    void openEditAndResend();
    void redriveSelected();
    void openExportDialog(bool selectedOnly);
    void exportMessages(const QString &path, bool selectedOnly);
    void openImportDialog();
    void importMessages(const QString &path);

signals:
    void statusMessage(const QString &message);
    // After each workflow's last broker reply (or when it stopped early).
    void finished();

private:
    struct Sent {
        int sent = 0;
        int duplicates = 0;
        QStringList errors;   // "LABEL: broker message"
    };
    // Sends in order, ten per SendMessageBatch, one batch after the other;
    // `labels` name each request in errors. Calls `done` once.
    void sendInOrder(const QString &queue, std::vector<SendRequest> requests, QStringList labels,
                     std::function<void(const Sent &)> done);
    void sendBatch(const QString &queue, std::shared_ptr<std::vector<SendRequest>> requests,
                   std::shared_ptr<QStringList> labels, std::size_t from, std::shared_ptr<Sent> sent,
                   std::function<void(const Sent &)> done);
    void exportEveryMessage(const QString &path);
    void report(const QString &message);
    // On the GUI thread, with what a pool thread read from `path` (or why it could not).
    void importRead(const QString &path, message_lines::ImportFile read, const QString &failure);

    BrokerService *m_service = nullptr;
    BrokerEngine *m_engine = nullptr;
    QString m_queueName;
    MessageBrowseModel *m_model = nullptr;
    QTableView *m_table = nullptr;
    QWidget *m_page = nullptr;
    bool m_deadLetterQueue = false;
    std::map<std::string, std::string> m_handles;   // MessageId -> receipt handle of this page's receive
    QAction *m_receive = nullptr;
    QAction *m_delete = nullptr;
    QAction *m_resend = nullptr;
    QAction *m_editAndResend = nullptr;
    QAction *m_redrive = nullptr;
    QAction *m_exportSelected = nullptr;
    QAction *m_exportAll = nullptr;
    QAction *m_import = nullptr;
};

// "1 message", "1 204 messages" (QLocale digits).
QString messageCount(qint64 count);

} // namespace relaydesk
