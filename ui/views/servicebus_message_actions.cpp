// SPDX-License-Identifier: MIT
#include "views/servicebus_message_actions.h"

#include "broker/queues/servicebus_queue.h"
#include "engine/broker_service.h"
#include "engine/reply_target.h"
#include "engine/servicebus_message_calls.h"
#include "models/servicebus_message_lines.h"
#include "views/paged_export.h"
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
#include <QSpinBox>
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

// OK (named `ok`) and Cancel as the form's last row, accepting and rejecting `dialog`.
void addOkCancel(QDialog &dialog, QFormLayout &form, const QString &ok)
{
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, &dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(ok);
    form.addRow(buttons);
    QObject::connect(buttons, &QDialogButtonBox::accepted, &dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
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
    m_closeSession = makeAction(this, tr("Close &Session"), "closeServiceBusSession");
    m_closeSession->setToolTip(tr("Let the session go: its locked messages are available again"));
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
    connect(m_closeSession, &QAction::triggered, this, &ServiceBusMessageActions::releaseSession);
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
        // A lock this page held that is gone (settled elsewhere, ended) is
        // forgotten — by a read begun after it was taken, not an older one.
        for (auto it = m_locks.begin(); it != m_locks.end();) {
            const auto row = std::find_if(m_model->rows().begin(), m_model->rows().end(),
                                          [&](const auto &r) { return r.storedId == it->first; });
            const bool held = m_model->readsStarted() <= it->second.readsBefore ||
                              (row != m_model->rows().end() && row->state == ServiceBusMessageState::Locked);
            it = held ? std::next(it) : m_locks.erase(it);
        }
        updateEnabled();
    });
    m_service->findServiceBusEntity(queue.toStdString(), this, [this](Result<ServiceBusEntity> entity) {
        m_sessionful = entity && entity->properties.requiresSession && !entity->deadLetterQueue;
        updateEnabled();
        emit sessionChanged();
    });
    updateEnabled();
}

QList<QAction *> ServiceBusMessageActions::toolActions() const
{
    return {m_receive, m_closeSession, m_complete, m_abandon, m_deadLetter, m_defer, m_resubmit, m_delete,
            m_exportSelected, m_exportAll, m_import};
}

QMenu *ServiceBusMessageActions::contextMenu(QWidget *parent)
{
    updateEnabled();
    auto *menu = new QMenu(parent);
    menu->addAction(m_receive);
    if (m_sessionful)
        menu->addAction(m_closeSession);
    menu->addActions({m_complete, m_abandon, m_deadLetter, m_defer});
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
    m_closeSession->setVisible(m_sessionful);
    m_closeSession->setEnabled(m_session.has_value());
    m_closeSession->setText(m_session ? tr("Close &Session %1").arg(QString::fromStdString(m_session->sessionId))
                                      : tr("Close &Session"));
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
    int count = std::clamp(int(selectedRows().size()), 1, 10);
    QString sessionId;
    if (m_sessionful) {
        if (askReceive(count, sessionId))
            receiveInSession(count, sessionId);
        return;
    }
    bool ok = false;
    count = QInputDialog::getInt(m_page, tr("Receive"), tr("&Messages to peek-lock (1–10):"), count, 1, 10, 1, &ok);
    if (ok)
        receiveMessages(count);
}

// The Receive dialog of an entity with sessions: how many, and from which session.
bool ServiceBusMessageActions::askReceive(int &count, QString &sessionId)
{
    QDialog dialog(m_page);
    dialog.setObjectName(QStringLiteral("sessionReceiveDialog"));
    dialog.setWindowTitle(tr("Receive from a Session"));
    auto *number = new QSpinBox(&dialog);
    number->setObjectName(QStringLiteral("receiveCount"));
    number->setRange(1, 10);
    number->setValue(count);
    auto *session = new QLineEdit(&dialog);
    session->setObjectName(QStringLiteral("receiveSessionId"));
    session->setMaxLength(128);
    session->setPlaceholderText(tr("empty: the next available session"));
    if (m_session)
        session->setText(QString::fromStdString(m_session->sessionId));
    auto *form = new QFormLayout(&dialog);
    form->addRow(tr("&Messages to peek-lock (1–10):"), number);
    form->addRow(tr("&Session ID:"), session);
    addOkCancel(dialog, *form, tr("Receive"));
    number->setFocus();
    number->selectAll();
    if (dialog.exec() != QDialog::Accepted)
        return false;
    count = number->value();
    sessionId = session->text().trimmed();
    return true;
}

void ServiceBusMessageActions::receiveMessages(int count)
{
    if (m_sessionful)
        return receiveInSession(count, {});
    receiveLocked(count, std::nullopt);
}

void ServiceBusMessageActions::receiveInSession(int count, const QString &sessionId)
{
    if (m_session && (sessionId.isEmpty() || sessionId.toStdString() == m_session->sessionId))
        return receiveLocked(count, m_session);
    if (m_session)
        releaseSession();
    std::optional<std::string> wanted;
    if (!sessionId.isEmpty())
        wanted = sessionId.toStdString();
    servicebus_message_calls::acceptSession(
        *m_service, m_queue.toStdString(), wanted, this,
        [this, count](Result<servicebus_message_calls::SessionLock> lock) {
            using Outcome = servicebus_sessions::Acceptance::Outcome;
            if (!lock)
                return report(tr("Receive refused: %1").arg(QString::fromStdString(lock.error().message)));
            const QString id = QString::fromStdString(lock->acceptance.sessionId);
            if (lock->acceptance.outcome == Outcome::HeldByAnother)
                return report(tr("Session %1 is locked by another receiver").arg(id));
            if (lock->acceptance.outcome == Outcome::NoneAvailable)
                return report(tr("No session of %1 has a message to receive now").arg(m_queue));
            m_session = lock->hold;
            updateEnabled();
            emit sessionChanged();
            receiveLocked(count, m_session);
        });
}

void ServiceBusMessageActions::releaseSession()
{
    if (!m_session)
        return;
    const ServiceBusSessionHold hold = *std::exchange(m_session, std::nullopt);
    for (auto it = m_locks.begin(); it != m_locks.end();)
        it = it->second.session == hold ? m_locks.erase(it) : std::next(it);
    updateEnabled();
    emit sessionChanged();
    const QString id = QString::fromStdString(hold.sessionId);
    servicebus_message_calls::releaseSession(*m_service, m_queue.toStdString(), hold, this, [this, id](Status released) {
        m_model->refresh();
        report(released ? tr("Closed session %1: its locked messages are available again").arg(id)
                        : tr("Closing session %1 failed: %2").arg(id, QString::fromStdString(released.error().message)));
    });
}

void ServiceBusMessageActions::receiveLocked(int count, std::optional<ServiceBusSessionHold> session)
{
    ReceiveRequest request;
    request.maxNumberOfMessages = std::clamp(count, 1, 10);   // locked for the entity's LockDuration
    request.session = session;
    const QString queue = m_queue;
    m_service->receiveMessage(queue.toStdString(), request, this, [this, queue, session](Result<ReceiveResult> received) {
        if (!received) {
            if (session && m_session == session && received.error().code == BrokerErrorCode::MessageNotInflight) {
                m_session.reset(); // the session's lock ended: receive again to accept one
                updateEnabled();
                emit sessionChanged();
            }
            return report(tr("Receive refused: %1").arg(QString::fromStdString(received.error().message)));
        }
        for (const ReceivedMessage &message : received->messages)
            m_locks[QString::fromStdString(message.messageId)] = {queue, message.receiptHandle, session,
                                                                  m_model->readsStarted()};
        m_model->refresh();
        const QString from = session ? tr("%1 (session %2)").arg(queue, QString::fromStdString(session->sessionId)) : queue;
        report(received->messages.empty() ? tr("Nothing to receive from %1").arg(from)
                                          : tr("Locked %1 from %2").arg(messageCount(qint64(received->messages.size())), from));
    });
}

void ServiceBusMessageActions::settleSelected(Kind kind, const QString &reason, const QString &description)
{
    std::vector<std::pair<QString, Lock>> locks;
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
        settlement.session = lock.session;
        m_service->settleServiceBusMessage(
            lock.queue.toStdString(), lock.token, settlement, this,
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
    addOkCancel(dialog, *form, tr("Dead-letter"));
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
    if (!selectedOnly) { // every message of the entity (and its dead letters), page by page
        PagedExport *exporter = PagedExport::start(
            *m_service, m_model->queues(), path,
            [](const QString &queue, const BrowsedMessage &message) {
                return servicebus_message_lines::line(
                    serviceBusMessageRow(queue, isServiceBusDeadLetterQueue(queue.toStdString()), message));
            },
            m_page);
        connect(exporter, &PagedExport::progressed, this, &ServiceBusMessageActions::statusMessage);
        connect(exporter, &PagedExport::finished, this, &ServiceBusMessageActions::report);
        return;
    }
    const std::vector<ServiceBusMessageRow> rows = selectedRows();
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
