// SPDX-License-Identifier: MIT
#include "views/servicebus_message_actions.h"

#include "broker/queues/servicebus_queue.h"
#include "engine/broker_service.h"
#include "engine/reply_target.h"
#include "engine/servicebus_message_calls.h"
#include "models/servicebus_message_lines.h"
#include "views/queue_message_actions.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDialog>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QInputDialog>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSaveFile>
#include <QTableView>
#include <QThreadPool>

#include <memory>

namespace relaydesk {

namespace {

using Kind = ServiceBusSettlement::Kind;

QAction *makeAction(QObject *parent, const QString &text, const char *name, const QKeySequence &shortcut = {})
{
    auto *action = new QAction(text, parent);
    action->setObjectName(QLatin1String(name));
    if (!shortcut.isEmpty()) {
        action->setShortcut(shortcut);
        action->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    }
    return action;
}

QString settledWords(Kind kind)
{
    switch (kind) {
    case Kind::Complete: return QObject::tr("Completed");
    case Kind::Abandon: return QObject::tr("Abandoned");
    case Kind::DeadLetter: return QObject::tr("Dead-lettered");
    case Kind::Defer: return QObject::tr("Deferred");
    default: return QObject::tr("Settled");
    }
}

} // namespace

ServiceBusMessageActions::ServiceBusMessageActions(BrokerService &service, const QString &queue,
                                                   ServiceBusMessageModel *model, ServiceBusMessageFilter *filter,
                                                   QTableView *table, QWidget *page)
    : QObject(page)
    , m_service(&service)
    , m_queue(queue)
    , m_model(model)
    , m_filter(filter)
    , m_table(table)
    , m_page(page)
{
    m_receive = makeAction(this, tr("&Receive…"), "receiveServiceBus", QKeySequence(tr("Ctrl+R")));
    m_receive->setToolTip(tr("Peek-lock the next messages, as a receiver would"));
    m_complete = makeAction(this, tr("&Complete"), "completeMessages", QKeySequence(tr("Ctrl+Shift+C")));
    m_abandon = makeAction(this, tr("A&bandon"), "abandonMessages", QKeySequence(tr("Ctrl+Shift+A")));
    m_deadLetter = makeAction(this, tr("Dead-le&tter…"), "deadLetterMessages", QKeySequence(tr("Ctrl+Shift+L")));
    m_defer = makeAction(this, tr("De&fer"), "deferMessages", QKeySequence(tr("Ctrl+Shift+F")));
    m_resubmit = makeAction(this, tr("Resub&mit"), "resubmitMessages", QKeySequence(tr("Ctrl+Shift+R")));
    m_resubmit->setToolTip(tr("Send copies to the entity; a dead letter leaves the dead-letter sub-queue"));
    m_delete = makeAction(this, tr("&Delete…"), "deleteServiceBusMessages", QKeySequence::Delete);
    m_exportSelected = makeAction(this, tr("E&xport Selected…"), "exportServiceBusSelected", QKeySequence(tr("Ctrl+Shift+X")));
    m_exportAll = makeAction(this, tr("Export A&ll…"), "exportServiceBusAll", QKeySequence(tr("Ctrl+Alt+X")));
    m_import = makeAction(this, tr("&Import…"), "importServiceBus", QKeySequence(tr("Ctrl+Shift+I")));
    m_copyBody = makeAction(this, tr("Copy B&ody"), "copyServiceBusBody");
    m_copyId = makeAction(this, tr("Copy Message &ID"), "copyServiceBusId");
    m_copyJson = makeAction(this, tr("Copy as &JSON"), "copyServiceBusJson");
    for (QAction *action : toolActions())
        m_page->addAction(action);

    connect(m_receive, &QAction::triggered, this, &ServiceBusMessageActions::openReceiveDialog);
    connect(m_complete, &QAction::triggered, this, [this] { settleSelected(Kind::Complete); });
    connect(m_abandon, &QAction::triggered, this, [this] { settleSelected(Kind::Abandon); });
    connect(m_deadLetter, &QAction::triggered, this, &ServiceBusMessageActions::openDeadLetterDialog);
    connect(m_defer, &QAction::triggered, this, [this] { settleSelected(Kind::Defer); });
    connect(m_resubmit, &QAction::triggered, this, &ServiceBusMessageActions::resubmitSelected);
    connect(m_delete, &QAction::triggered, this, &ServiceBusMessageActions::confirmDelete);
    connect(m_exportSelected, &QAction::triggered, this, [this] { openExportDialog(true); });
    connect(m_exportAll, &QAction::triggered, this, [this] { openExportDialog(false); });
    connect(m_import, &QAction::triggered, this, &ServiceBusMessageActions::openImportDialog);
    const auto copy = [this](auto text) {
        const std::vector<ServiceBusMessageRow> rows = selectedRows();
        if (!rows.empty())
            QApplication::clipboard()->setText(text(rows.front()));
    };
    connect(m_copyBody, &QAction::triggered, this, [copy] { copy([](const auto &row) { return row.body; }); });
    connect(m_copyId, &QAction::triggered, this, [copy] { copy([](const auto &row) { return row.messageId; }); });
    connect(m_copyJson, &QAction::triggered, this, [copy] { copy(serviceBusMessageJson); });
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            &ServiceBusMessageActions::updateEnabled);
    connect(m_model, &ServiceBusMessageModel::refreshed, this, [this] {
        // A lock this page held that is gone (settled elsewhere, ended) is forgotten.
        for (auto it = m_locks.begin(); it != m_locks.end();) {
            const auto row = std::find_if(m_model->rows().begin(), m_model->rows().end(),
                                          [&](const auto &r) { return r.storedId == it->first; });
            const bool held = row != m_model->rows().end() && row->state == ServiceBusMessageState::Locked;
            it = held ? std::next(it) : m_locks.erase(it);
        }
        updateEnabled();
    });
    updateEnabled();
}

QList<QAction *> ServiceBusMessageActions::toolActions() const
{
    return {m_receive, m_complete, m_abandon, m_deadLetter, m_defer, m_resubmit, m_delete,
            m_exportSelected, m_exportAll, m_import};
}

QMenu *ServiceBusMessageActions::contextMenu(QWidget *parent)
{
    updateEnabled();
    auto *menu = new QMenu(parent);
    menu->addActions({m_receive, m_complete, m_abandon, m_deadLetter, m_defer});
    menu->addSeparator();
    menu->addActions({m_resubmit, m_delete});
    menu->addSeparator();
    menu->addActions({m_exportSelected, m_exportAll, m_import});
    menu->addSeparator();
    menu->addActions({m_copyBody, m_copyId, m_copyJson});
    return menu;
}

std::vector<ServiceBusMessageRow> ServiceBusMessageActions::selectedRows() const
{
    QModelIndexList selected = m_table->selectionModel()->selectedRows();
    std::sort(selected.begin(), selected.end(), [](const auto &a, const auto &b) { return a.row() < b.row(); });
    std::vector<ServiceBusMessageRow> rows;
    for (const QModelIndex &index : selected) {
        const QModelIndex source = m_filter->mapToSource(index);
        if (source.isValid() && source.row() < int(m_model->rows().size()))
            rows.push_back(m_model->rows()[std::size_t(source.row())]);
    }
    return rows;
}

void ServiceBusMessageActions::updateEnabled()
{
    const std::vector<ServiceBusMessageRow> rows = selectedRows();
    const bool any = !rows.empty();
    const bool allHeld = any && std::all_of(rows.begin(), rows.end(), [this](const auto &row) {
        return row.state == ServiceBusMessageState::Locked && holdsLock(row.storedId);
    });
    for (QAction *action : {m_complete, m_abandon, m_deadLetter, m_defer})
        action->setEnabled(allHeld);
    for (QAction *action : {m_resubmit, m_delete, m_exportSelected, m_copyBody, m_copyId, m_copyJson})
        action->setEnabled(any);
    m_exportAll->setEnabled(m_model->rowCount() > 0);
}

QString ServiceBusMessageActions::entityQueue() const
{
    const std::string queue = m_queue.toStdString();
    if (!isServiceBusDeadLetterQueue(queue))
        return m_queue;
    return m_queue.left(m_queue.size() - qsizetype(kServiceBusDeadLetterSuffix.size()));
}

void ServiceBusMessageActions::report(const QString &message)
{
    emit statusMessage(message);
    emit finished();
}

void ServiceBusMessageActions::openReceiveDialog()
{
    bool ok = false;
    const int count = QInputDialog::getInt(m_page, tr("Receive"), tr("&Messages to peek-lock (1–10):"),
                                           std::clamp(int(selectedRows().size()), 1, 10), 1, 10, 1, &ok);
    if (ok)
        receiveMessages(count);
}

void ServiceBusMessageActions::receiveMessages(int count)
{
    ReceiveRequest request;
    request.maxNumberOfMessages = std::clamp(count, 1, 10);   // locked for the entity's LockDuration
    const QString queue = m_queue;
    m_service->receiveMessage(queue.toStdString(), request, this, [this, queue](Result<ReceiveResult> received) {
        if (!received)
            return report(tr("Receive refused: %1").arg(QString::fromStdString(received.error().message)));
        for (const ReceivedMessage &message : received->messages)
            m_locks[QString::fromStdString(message.messageId)] = {queue, message.receiptHandle};
        m_model->refresh();
        report(received->messages.empty() ? tr("Nothing to receive from %1").arg(queue)
                                          : tr("Locked %1 from %2").arg(messageCount(qint64(received->messages.size())), queue));
    });
}

void ServiceBusMessageActions::settleSelected(Kind kind, const QString &reason, const QString &description)
{
    std::vector<std::pair<QString, std::pair<QString, std::string>>> locks;
    for (const ServiceBusMessageRow &row : selectedRows())
        if (auto lock = m_locks.find(row.storedId); lock != m_locks.end())
            locks.push_back(*lock);
    if (locks.empty())
        return report(tr("Only messages this page received and still locks can be settled"));
    auto left = std::make_shared<int>(int(locks.size()));
    auto settled = std::make_shared<int>(0);
    auto errors = std::make_shared<QStringList>();
    for (const auto &[storedId, lock] : locks) {
        ServiceBusSettlement settlement;
        settlement.kind = kind;
        settlement.deadLetterReason = reason.toStdString();
        settlement.deadLetterDescription = description.toStdString();
        m_service->settleServiceBusMessage(
            lock.first.toStdString(), lock.second, settlement, this,
            [this, kind, storedId = storedId, left, settled, errors](Result<ClockTime> done) {
                m_locks.erase(storedId);
                if (done)
                    ++*settled;
                else
                    *errors << QString::fromStdString(done.error().message);
                if (--*left > 0)
                    return;
                m_model->refresh();
                QString text = tr("%1 %2").arg(settledWords(kind), messageCount(*settled).toLower());
                if (!errors->isEmpty())
                    text += tr("; refused: %1").arg(errors->join(QStringLiteral("; ")));
                report(text);
            });
    }
}

void ServiceBusMessageActions::openDeadLetterDialog()
{
    QDialog dialog(m_page);
    dialog.setWindowTitle(tr("Dead-letter Messages"));
    auto *reason = new QLineEdit(&dialog);
    reason->setObjectName(QStringLiteral("deadLetterReason"));
    reason->setPlaceholderText(tr("e.g. InvalidOrder"));
    auto *description = new QLineEdit(&dialog);
    description->setObjectName(QStringLiteral("deadLetterDescription"));
    auto *form = new QFormLayout(&dialog);
    form->addRow(tr("&Reason:"), reason);
    form->addRow(tr("D&escription:"), description);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Dead-letter"));
    form->addRow(buttons);
    connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    if (dialog.exec() == QDialog::Accepted)
        settleSelected(Kind::DeadLetter, reason->text().trimmed(), description->text().trimmed());
}

void ServiceBusMessageActions::resubmitSelected()
{
    std::map<QString, std::vector<servicebus_message_calls::Resubmission>> byQueue;
    QStringList unreadable;
    for (const ServiceBusMessageRow &row : selectedRows()) {
        Result<SendRequest> copy = servicebus_message_lines::resend(row.storedBody);
        if (!copy)
            unreadable << QString::number(row.sequenceNumber);
        else
            byQueue[row.queue].push_back({row.storedId.toStdString(), std::move(*copy)});
    }
    if (byQueue.empty())
        return report(tr("Nothing resubmitted: not AMQP messages (sequence %1)").arg(unreadable.join(QStringLiteral(", "))));
    auto left = std::make_shared<int>(int(byQueue.size()));
    auto total = std::make_shared<servicebus_message_calls::Resubmitted>();
    auto errors = std::make_shared<QStringList>();
    const QString entity = entityQueue();
    for (auto &[queue, messages] : byQueue) {
        servicebus_message_calls::resubmit(
            *m_service, queue.toStdString(), entity.toStdString(), std::move(messages), this,
            [this, entity, left, total, errors](Result<servicebus_message_calls::Resubmitted> done) {
                if (done) {
                    total->sent += done->sent;
                    total->gone += done->gone;
                } else {
                    *errors << QString::fromStdString(done.error().message);
                }
                if (--*left > 0)
                    return;
                m_model->refresh();
                QString text = tr("Resubmitted %1 to %2").arg(messageCount(total->sent), entity);
                if (total->gone > 0)
                    text += tr("; %1 already gone").arg(messageCount(total->gone));
                if (!errors->isEmpty())
                    text += tr("; refused: %1").arg(errors->join(QStringLiteral("; ")));
                report(text);
            });
    }
}

void ServiceBusMessageActions::confirmDelete()
{
    const std::vector<ServiceBusMessageRow> rows = selectedRows();
    if (rows.empty())
        return;
    const auto answer = QMessageBox::question(
        m_page, tr("Delete Messages"),
        tr("Delete %1 from %2? A receiver holding one finds its lock lost.").arg(messageCount(qint64(rows.size())), entityQueue()));
    if (answer == QMessageBox::Yes)
        deleteMessages(rows);
}

void ServiceBusMessageActions::deleteMessages(const std::vector<ServiceBusMessageRow> &rows)
{
    std::map<QString, std::vector<std::string>> byQueue;
    for (const ServiceBusMessageRow &row : rows)
        byQueue[row.queue].push_back(row.storedId.toStdString());
    auto left = std::make_shared<int>(int(byQueue.size()));
    auto removed = std::make_shared<qint64>(0);
    const QString entity = entityQueue();
    for (auto &[queue, ids] : byQueue) {
        m_service->deleteMessagesById(queue.toStdString(), std::move(ids), this,
                                      [this, entity, left, removed](Result<std::int64_t> done) {
                                          if (done)
                                              *removed += *done;
                                          if (--*left > 0)
                                              return;
                                          m_model->refresh();
                                          report(tr("Deleted %1 from %2").arg(messageCount(*removed), entity));
                                      });
    }
}

void ServiceBusMessageActions::openExportDialog(bool selectedOnly)
{
    auto *dialog = new QFileDialog(m_page, selectedOnly ? tr("Export Selected Messages") : tr("Export All Messages"),
                                   QString(), tr("JSON lines (*.jsonl *.ndjson);;All files (*)"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("jsonl"));
    dialog->selectFile(QString(m_queue).replace(QLatin1Char('/'), QLatin1Char('-')) + QStringLiteral(".jsonl"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, selectedOnly](const QString &path) { exportMessages(path, selectedOnly); });
    dialog->open();
}

void ServiceBusMessageActions::exportMessages(const QString &path, bool selectedOnly)
{
    const std::vector<ServiceBusMessageRow> rows = selectedOnly ? selectedRows() : m_model->rows();
    QSaveFile file(path);   // the file appears only once complete
    if (!file.open(QIODevice::WriteOnly))
        return report(tr("Cannot write %1: %2").arg(path, file.errorString()));
    for (const ServiceBusMessageRow &row : rows)
        file.write(servicebus_message_lines::line(row));
    if (!file.commit())
        return report(tr("Cannot write %1: %2").arg(path, file.errorString()));
    report(tr("Exported %1 to %2").arg(messageCount(qint64(rows.size())), QFileInfo(path).fileName()));
}

void ServiceBusMessageActions::openImportDialog()
{
    auto *dialog = new QFileDialog(m_page, tr("Import Messages"), QString(), tr("JSON lines (*.jsonl *.ndjson);;All files (*)"));
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &ServiceBusMessageActions::importMessages);
    dialog->open();
}

// The file is read on a pool thread; a line that is no message stops the
// import before anything is sent, and the messages go in one send: all or nothing.
void ServiceBusMessageActions::importMessages(const QString &path)
{
    const QString name = QFileInfo(path).fileName();
    emit statusMessage(tr("Reading %1…").arg(name));
    const QPointer<ServiceBusMessageActions> self(this);
    const ReplyTarget window(this);
    QThreadPool::globalInstance()->start([self, window, path, name] {
        QFile file(path);
        auto read = std::make_shared<servicebus_message_lines::Import>();
        if (file.open(QIODevice::ReadOnly))
            *read = servicebus_message_lines::read(file.readAll());
        else
            read->errors << tr("Cannot read %1: %2").arg(path, file.errorString());
        window.post([self, read, name] {
            if (!self)
                return;
            if (!read->errors.isEmpty())
                return self->report(tr("Nothing imported from %1: %2").arg(name, read->errors.join(QStringLiteral("; "))));
            if (read->requests.empty())
                return self->report(tr("Nothing imported: %1 holds no message").arg(name));
            const qint64 count = qint64(read->requests.size());
            const QString entity = self->entityQueue();
            self->m_service->sendServiceBusMessages(
                entity.toStdString(), std::move(read->requests), self, [self, name, entity, count](Status sent) {
                    if (!self)
                        return;
                    self->m_model->refresh();
                    self->report(sent ? tr("Imported %1 from %2 into %3").arg(messageCount(count), name, entity)
                                      : tr("Nothing imported from %1: %2").arg(name, QString::fromStdString(sent.error().message)));
                });
        });
    });
}

} // namespace relaydesk
