// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QProgressDialog>
#include <QStringList>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>

class QSaveFile;
class QWidget;

namespace relaydesk {

class BrokerService;
struct BrowsedMessage;

// Export All's plumbing, shared by the SQS and Service Bus Messages pages
// (docs/window.md "Messages", "Service Bus"): every message of one or more
// broker queues, in that order, written to a file as JSON lines. The queues
// are read a page of 1 000 at a time on the broker thread
// (BrokerService::browseQueue: peeks, nothing changes) and each page is
// written before the next is asked for, so memory holds one page whatever
// the size of the queue. The file (QSaveFile) appears only once every page
// was written. A progress dialog (after half a second; the page stays usable) counts
// what was written and has Cancel: a cancelled export writes no file.
// Ends with one `finished` (the status line's words) and deletes itself.
// Ownership: a child of `page`. Thread: GUI.
class PagedExport final : public QObject {
    Q_OBJECT
public:
    // One message as its line(s), newline included; `queue` is the broker queue it came from.
    using Lines = std::function<QByteArray(const QString &queue, const BrowsedMessage &message)>;

    // Opens `path` and starts reading; on a file that cannot be opened, finishes at once.
    static PagedExport *start(BrokerService &service, QStringList queues, const QString &path, Lines lines,
                              QWidget *page);

    QProgressDialog *progress() const { return m_progress; }
    qint64 written() const { return m_written; }
    // What Cancel does: nothing more is read and no file is written.
    void cancel();

signals:
    void progressed(const QString &message); // "Exporting FILE: N messages so far…", after each page
    void finished(const QString &message);

private:
    PagedExport(BrokerService &service, QStringList queues, std::shared_ptr<QSaveFile> file, Lines lines, QWidget *page);
    void readPage(int queue, std::optional<std::int64_t> after);
    void finish(const QString &message);

    BrokerService &m_service;
    QStringList m_queues;
    std::shared_ptr<QSaveFile> m_file;
    Lines m_lines;
    QPointer<QProgressDialog> m_progress;
    QString m_name; // the file's name, for the words
    qint64 m_written = 0;
    bool m_cancelled = false;
    bool m_done = false;
};

} // namespace relaydesk
