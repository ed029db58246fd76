// SPDX-License-Identifier: MIT
#include "views/paged_export.h"

#include "engine/broker_service.h"
#include "views/queue_message_actions.h"

#include <QFileInfo>
#include <QProgressDialog>
#include <QSaveFile>

#include <utility>

namespace relaydesk {

namespace {

constexpr int kExportPageSize = 1000;

} // namespace

PagedExport *PagedExport::start(BrokerService &service, QStringList queues, const QString &path, Lines lines,
                                QWidget *page)
{
    auto file = std::make_shared<QSaveFile>(path);
    auto *exporter = new PagedExport(service, std::move(queues), file, std::move(lines), page);
    if (!file->open(QIODevice::WriteOnly)) {
        // Queued: the caller connects to finished after start returns.
        QMetaObject::invokeMethod(
            exporter, [exporter, path, file] { exporter->finish(tr("Cannot write %1: %2").arg(path, file->errorString())); },
            Qt::QueuedConnection);
        return exporter;
    }
    exporter->readPage(0, std::nullopt);
    return exporter;
}

PagedExport::PagedExport(BrokerService &service, QStringList queues, std::shared_ptr<QSaveFile> file, Lines lines,
                         QWidget *page)
    : QObject(page)
    , m_service(service)
    , m_queues(std::move(queues))
    , m_file(std::move(file))
    , m_lines(std::move(lines))
    , m_name(QFileInfo(m_file->fileName()).fileName())
{
    m_progress = new QProgressDialog(tr("Exporting to %1…").arg(m_name), tr("Cancel"), 0, 0, page);
    m_progress->setObjectName(QStringLiteral("exportProgress"));
    m_progress->setWindowTitle(tr("Export All Messages"));
    m_progress->setMinimumDuration(500);
    m_progress->setAutoReset(false);
    m_progress->setAutoClose(false);
    connect(m_progress, &QProgressDialog::canceled, this, &PagedExport::cancel);
}

void PagedExport::cancel()
{
    m_cancelled = true;
    if (m_progress)
        m_progress->hide();
}

// The page after `after` of m_queues[queue]; at the end of one queue, the next one's first.
void PagedExport::readPage(int queue, std::optional<std::int64_t> after)
{
    if (queue >= m_queues.size()) {
        if (!m_file->commit())
            return finish(tr("Cannot write %1: %2").arg(m_name, m_file->errorString()));
        return finish(tr("Exported %1 to %2").arg(messageCount(m_written), m_name));
    }
    BrowseRequest request;
    request.after = after;
    request.pageSize = kExportPageSize;
    const QString name = m_queues[queue];
    m_service.browseQueue(name.toStdString(), request, this, [this, queue, name](Result<BrowsePage> page) {
        if (m_cancelled) {
            m_file->cancelWriting();
            return finish(tr("Export cancelled: %1 not written").arg(m_name));
        }
        if (!page) {
            m_file->cancelWriting();
            return finish(tr("Nothing exported: %1").arg(QString::fromStdString(page.error().message)));
        }
        for (const BrowsedMessage &message : page->messages)
            m_file->write(m_lines(name, message));
        m_written += qint64(page->messages.size());
        const QString so = tr("Exporting %1: %2 so far…").arg(m_name, messageCount(m_written));
        if (m_progress)
            m_progress->setLabelText(so);
        emit progressed(so);
        if (page->nextPageToken)
            return readPage(queue, page->nextPageToken);
        readPage(queue + 1, std::nullopt);
    });
}

void PagedExport::finish(const QString &message)
{
    if (std::exchange(m_done, true))
        return;
    if (m_progress)
        m_progress->deleteLater();
    emit finished(message);
    deleteLater();
}

} // namespace relaydesk
