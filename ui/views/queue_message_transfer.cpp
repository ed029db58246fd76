// SPDX-License-Identifier: MIT
// QueueMessageActions: Export Selected…, Export All… and Import… — messages
// as JSON lines (message_lines), docs/window.md "Messages".
#include "views/queue_message_actions.h"

#include "engine/broker_service.h"
#include "engine/reply_target.h"
#include "models/message_lines.h"
#include "views/paged_export.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMessageBox>
#include <QPointer>
#include <QSaveFile>
#include <QThreadPool>

namespace relaydesk {

namespace {

QString fileFilter()
{
    return QObject::tr("JSON lines (*.jsonl *.ndjson);;All files (*)");
}

// Shows `lines` (errors, one per line of the file) in a box of its own, non-modal.
void showLines(QWidget *parent, const char *name, const QString &text, const QStringList &lines)
{
    auto *box = new QMessageBox(QMessageBox::Warning, QObject::tr("Import"), text, QMessageBox::Close, parent);
    box->setObjectName(QLatin1String(name));
    box->setDetailedText(lines.join(QLatin1Char('\n')));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

} // namespace

void QueueMessageActions::openExportDialog(bool selectedOnly)
{
    auto *dialog = new QFileDialog(m_page, selectedOnly ? tr("Export Selected Messages") : tr("Export All Messages"),
                                   QString(), fileFilter());
    dialog->setObjectName(QStringLiteral("exportFileDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptSave);
    dialog->setDefaultSuffix(QStringLiteral("jsonl"));
    dialog->selectFile(m_queueName + QStringLiteral(".jsonl"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this,
            [this, selectedOnly](const QString &path) { exportMessages(path, selectedOnly); });
    dialog->open();
}

void QueueMessageActions::exportMessages(const QString &path, bool selectedOnly)
{
    if (!selectedOnly)
        return exportEveryMessage(path);
    auto file = std::make_shared<QSaveFile>(path);
    if (!file->open(QIODevice::WriteOnly))
        return report(tr("Cannot write %1: %2").arg(path, file->errorString()));
    const std::vector<BrowsedMessage> selected = selectedMessages();
    for (const BrowsedMessage &message : selected)
        file->write(message_lines::write(message) + '\n');
    if (!file->commit())
        return report(tr("Cannot write %1: %2").arg(path, file->errorString()));
    report(tr("Exported %1 to %2").arg(messageCount(static_cast<qint64>(selected.size())), QFileInfo(path).fileName()));
}

// The whole queue, a page at a time, with progress and Cancel (PagedExport).
void QueueMessageActions::exportEveryMessage(const QString &path)
{
    PagedExport *exporter = PagedExport::start(
        *m_service, {m_queueName}, path,
        [](const QString &, const BrowsedMessage &message) { return message_lines::write(message) + '\n'; }, m_page);
    connect(exporter, &PagedExport::progressed, this, &QueueMessageActions::statusMessage);
    connect(exporter, &PagedExport::finished, this, &QueueMessageActions::report);
}

void QueueMessageActions::openImportDialog()
{
    auto *dialog = new QFileDialog(m_page, tr("Import Messages into %1").arg(m_queueName), QString(), fileFilter());
    dialog->setObjectName(QStringLiteral("importFileDialog"));
    dialog->setAcceptMode(QFileDialog::AcceptOpen);
    dialog->setFileMode(QFileDialog::ExistingFile);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QFileDialog::fileSelected, this, &QueueMessageActions::importMessages);
    dialog->open();
}

// All or nothing for the file's shape: a line that is not a message stops the
// import before anything is sent. The broker may still refuse single messages
// (a FIFO queue without group id, a body too large): those are named by line
// and the count says how many went in.
void QueueMessageActions::importMessages(const QString &path)
{
    // The file is read and parsed on a pool thread; the window goes on meanwhile.
    emit statusMessage(tr("Reading %1…").arg(QFileInfo(path).fileName()));
    const QPointer<QueueMessageActions> self(this);
    const ReplyTarget window(this); // the answer comes back to this thread, and only while this object lives
    QThreadPool::globalInstance()->start([self, window, path] {
        QFile file(path);
        auto read = std::make_shared<message_lines::ImportFile>();
        QString failure;
        if (file.open(QIODevice::ReadOnly))
            *read = message_lines::read(file.readAll());
        else
            failure = tr("Cannot read %1: %2").arg(path, file.errorString());
        window.post([self, path, read, failure] { self->importRead(path, std::move(*read), failure); });
    });
}

void QueueMessageActions::importRead(const QString &path, message_lines::ImportFile read, const QString &failure)
{
    if (!failure.isEmpty())
        return report(failure);
    const QString name = QFileInfo(path).fileName();
    if (!read.errors.isEmpty()) {
        const QString text = read.errors.size() == 1
                                 ? tr("Nothing imported: 1 line of %1 is not a message.").arg(name)
                                 : tr("Nothing imported: %1 lines of %2 are not messages.").arg(read.errors.size()).arg(name);
        showLines(m_page, "importErrors", text, read.errors);
        return report(text);
    }
    if (read.messages.empty())
        return report(tr("Nothing imported: %1 holds no message").arg(name));
    std::vector<SendRequest> requests;
    QStringList labels;
    for (message_lines::ImportLine &line : read.messages) {
        labels << tr("line %1").arg(line.line);
        requests.push_back(std::move(line.request));
    }
    const auto total = static_cast<qint64>(requests.size());
    sendInOrder(m_queueName, std::move(requests), labels, [this, name, total](const Sent &sent) {
        if (sent.sent == total && sent.errors.isEmpty())
            return report(tr("Imported %1 from %2 into %3").arg(messageCount(total), name, m_queueName));
        const QString text = tr("Imported %1 of %2 from %3 into %4; the broker refused the rest.")
                                 .arg(QLocale().toString(sent.sent), messageCount(total), name, m_queueName);
        showLines(m_page, "importErrors", text, sent.errors);
        report(text);
    });
}

} // namespace relaydesk
