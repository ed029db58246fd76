// SPDX-License-Identifier: MIT
// The per-message workflows of a queue's Messages tab, offscreen, against a
// real engine on a real database file and a virtual clock:
// Receive… with the queue's visibility timeout (the rows show in flight with
// their countdown) and Delete… after a confirmation naming the count (by
// receipt handle and by id), declined → nothing deleted, Del on the table;
// Resend… to another FIFO queue keeps body, attributes, group and
// deduplication id; Edit and Resend… opens the Send dialog filled;
// Redrive to Source moves one selected dead letter back; Export Selected /
// Export All write JSON lines and Import… sends them in order into another
// queue; a file with bad lines imports nothing and names each line; every
// tool button is named as its label and reachable by Tab.
#include "views/queue_messages_page.h"

#include "dialogs/message_attributes_editor.h"
#include "dialogs/receive_messages_dialog.h"
#include "dialogs/resend_messages_dialog.h"
#include "dialogs/send_message_dialog.h"
#include "message_test_broker.h"
#include "models/message_browse_model.h"
#include "views/queue_message_actions.h"
#include "support/test_main.h"

#include <QAction>
#include <QComboBox>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTest>
#include <QToolButton>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

template <class T>
T *child(QWidget *parent, const char *name)
{
    return parent->findChild<T *>(QLatin1String(name));
}

QString cell(const MessageBrowseModel &model, int row, int column)
{
    return model.index(row, column).data().toString();
}

SendRequest fifoMessage(const std::string &body, const std::string &group, const std::string &dedup)
{
    SendRequest request;
    request.body = body;
    request.groupId = group;
    request.deduplicationId = dedup;
    request.attributes["customer"] = {"String", "ada", {}};
    request.attributes["blob"] = {"Binary", {}, std::string("\x00\x01\xff", 3)};
    return request;
}

SendRequest plain(const std::string &body)
{
    SendRequest request;
    request.body = body;
    return request;
}

// Selects rows first..last of the page's table.
void selectRows(QueueMessagesPage &page, int first, int last)
{
    QItemSelectionModel *selection = page.table()->selectionModel();
    selection->clearSelection();
    for (int row = first; row <= last; ++row)
        selection->select(page.model()->index(row, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
    selection->setCurrentIndex(page.model()->index(first, 0), QItemSelectionModel::NoUpdate);
}

QByteArray readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class QueueMessageActionsTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_files = 0;
    std::unique_ptr<MessageTestBroker> m_broker;
    MessageTestBroker &broker() { return *m_broker; }

    // A page on `queue`, shown, its first page loaded with `rows` rows.
    std::unique_ptr<QueueMessagesPage> openPage(const char *queue, int rows)
    {
        auto page = std::make_unique<QueueMessagesPage>(broker().service(), broker().engine(), QLatin1String(queue));
        page->resize(1200, 640);
        page->show();
        [&] { QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), rows, kWaitMs); }();
        return page;
    }
    // Runs `action` and waits for its workflow to finish; the status it reported.
    static QString runAndWait(QueueMessagesPage &page, const std::function<void()> &action)
    {
        QSignalSpy finished(page.messageActions(), &QueueMessageActions::finished);
        QSignalSpy status(page.messageActions(), &QueueMessageActions::statusMessage);
        action();
        [&] { QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kWaitMs); }();
        return status.isEmpty() ? QString() : status.last().at(0).toString();
    }

private slots:
    void init()
    {
        const std::string file = "actions" + std::to_string(++m_files) + ".db";
        m_broker = std::make_unique<MessageTestBroker>(m_dir, file.c_str());
    }
    void cleanup() { m_broker.reset(); }

    void receive_thenDelete_afterConfirmation()
    {
        QVERIFY(broker().createQueue("orders", {{"VisibilityTimeout", "45"}}));
        for (int i = 0; i < 3; ++i)
            QVERIFY(broker().send("orders", plain("order " + std::to_string(i))).ok());
        auto page = openPage("orders", 3);
        QueueMessageActions &actions = *page->messageActions();

        // Receive…: the dialog starts at the queue's visibility timeout.
        actions.receive()->trigger();
        ReceiveMessagesDialog *dialog = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((dialog = page->findChild<ReceiveMessagesDialog *>()), kWaitMs);
        QCOMPARE(child<QSpinBox>(dialog, "visibilityTimeout")->value(), 45);
        child<QSpinBox>(dialog, "count")->setValue(2);
        saveScreenshot(dialog, QStringLiteral("messages_receive_dialog"));
        const QString received = runAndWait(*page, [&] { QTest::mouseClick(child<QPushButton>(dialog, "receive"), Qt::LeftButton); });
        QCOMPARE(received, QStringLiteral("Received 2 messages from orders — in flight for 45 s"));
        const MessageBrowseModel &model = *page->model();
        QTRY_COMPARE_WITH_TIMEOUT(cell(model, 1, MessageBrowseModel::StateColumn), QStringLiteral("In flight"), kWaitMs);
        QCOMPARE(cell(model, 0, MessageBrowseModel::StateColumn), QStringLiteral("In flight"));
        QCOMPARE(cell(model, 0, MessageBrowseModel::CountdownColumn), QStringLiteral("lock ends in 45 s"));
        QCOMPARE(cell(model, 2, MessageBrowseModel::StateColumn), QStringLiteral("Available"));
        QVERIFY(actions.holdsReceipt(model.messageAt(0)->messageId));
        QVERIFY(!actions.holdsReceipt(model.messageAt(2)->messageId));

        // Delete… of one, declined: nothing deleted.
        selectRows(*page, 2, 2);
        actions.deleteSelected()->trigger();
        QMessageBox *box = page->findChild<QMessageBox *>(QStringLiteral("deleteConfirmation"));
        QVERIFY(box);
        QCOMPARE(box->text(), QStringLiteral("Delete 1 message from orders?"));
        const QPointer<QMessageBox> declined = box;
        box->reject();
        QTRY_VERIFY_WITH_TIMEOUT(!declined, kWaitMs);
        QCOMPARE(broker().browse("orders").size(), std::size_t(3));

        // Delete… of all three: two by their handles, one by id.
        selectRows(*page, 0, 2);
        actions.deleteSelected()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT((box = page->findChild<QMessageBox *>(QStringLiteral("deleteConfirmation"))), kWaitMs);
        QCOMPARE(box->text(), QStringLiteral("Delete 3 messages from orders?"));
        saveScreenshot(box, QStringLiteral("messages_delete_confirmation"));
        const QString deleted = runAndWait(*page, [&] {
            QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirmDelete")), Qt::LeftButton);
        });
        QCOMPARE(deleted, QStringLiteral("Deleted 3 messages from orders"));
        QVERIFY(broker().browse("orders").empty());
        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 0, kWaitMs);
        // The outcome stays in the tab's status line after the list was re-read.
        QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kWaitMs);
        QVERIFY(child<QLabel>(page.get(), "status")->text().startsWith(QStringLiteral("Deleted 3 messages from orders · 0 messages loaded")));
        QVERIFY(!actions.holdsReceipt("anything"));
    }

    // Del on the table asks first; in the search field it edits the text.
    void deleteKey_onTheTable_asks()
    {
        QVERIFY(broker().createQueue("keys"));
        QVERIFY(broker().send("keys", plain("k")).ok());
        auto page = openPage("keys", 1);
        QApplication::setActiveWindow(page.get());
        QVERIFY(QTest::qWaitForWindowActive(page.get()));
        auto *search = child<QLineEdit>(page.get(), "search");
        search->setFocus();
        search->setText(QStringLiteral("ab"));
        search->setCursorPosition(0);
        QTest::keyClick(search, Qt::Key_Delete);
        QCOMPARE(search->text(), QStringLiteral("b"));
        QVERIFY(!page->findChild<QMessageBox *>(QStringLiteral("deleteConfirmation")));
        selectRows(*page, 0, 0);
        page->table()->setFocus();
        QTest::keyClick(page->table(), Qt::Key_Delete);
        QMessageBox *box = page->findChild<QMessageBox *>(QStringLiteral("deleteConfirmation"));
        QVERIFY(box);
        QCOMPARE(box->text(), QStringLiteral("Delete 1 message from keys?"));
        box->reject();
        // Ctrl+R in the tab: Receive….
        QTest::keyClick(page->table(), Qt::Key_R, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(page->findChild<ReceiveMessagesDialog *>(), kWaitMs);
        page->findChild<ReceiveMessagesDialog *>()->reject();
    }

    void resend_toAnotherFifoQueue_keepsWhatItCarries()
    {
        QVERIFY(broker().createQueue("jobs.fifo", {{"FifoQueue", "true"}}));
        QVERIFY(broker().createQueue("copies.fifo", {{"FifoQueue", "true"}}));
        QVERIFY(broker().send("jobs.fifo", fifoMessage("job 1", "g1", "d1")).ok());
        QVERIFY(broker().send("jobs.fifo", fifoMessage("job 2", "g2", "d2")).ok());
        auto page = openPage("jobs.fifo", 2);
        selectRows(*page, 0, 1);
        page->messageActions()->resend()->trigger();
        auto *dialog = page->findChild<ResendMessagesDialog *>();
        QVERIFY(dialog);
        auto *destination = child<QComboBox>(dialog, "destination");
        QTRY_COMPARE_WITH_TIMEOUT(destination->count(), 2, kWaitMs);
        QCOMPARE(destination->itemText(0), QStringLiteral("jobs.fifo"));
        destination->setCurrentText(QStringLiteral("copies.fifo"));
        const QString status = runAndWait(*page, [&] { QTest::mouseClick(child<QPushButton>(dialog, "resend"), Qt::LeftButton); });
        QCOMPARE(status, QStringLiteral("Resent 2 messages to copies.fifo"));
        const auto copies = broker().browse("copies.fifo");
        QCOMPARE(copies.size(), std::size_t(2));
        QCOMPARE(copies[0].body, std::string("job 1"));
        QCOMPARE(copies[1].body, std::string("job 2"));
        QCOMPARE(copies[1].groupId, std::optional<std::string>("g2"));
        QCOMPARE(copies[1].deduplicationId, std::optional<std::string>("d2"));
        QCOMPARE(copies[0].attributes, fifoMessage("", "", "").attributes);
        QCOMPARE(broker().browse("jobs.fifo").size(), std::size_t(2));   // the originals stay

        // Again to the same queue within the deduplication window: accepted, not enqueued again, and said so.
        const QString again = runAndWait(*page, [&] {
            page->messageActions()->resendMessages({*page->model()->messageAt(0)}, QStringLiteral("jobs.fifo"));
        });
        QCOMPARE(again, QStringLiteral("Resent 1 message to jobs.fifo (1 within the deduplication window, not enqueued again)"));
        QCOMPARE(broker().browse("jobs.fifo").size(), std::size_t(2));
    }

    void editAndResend_opensTheSendDialogFilled()
    {
        QVERIFY(broker().createQueue("jobs.fifo", {{"FifoQueue", "true"}}));
        QVERIFY(broker().send("jobs.fifo", fifoMessage("{\"job\":1}", "g1", "d1")).ok());
        auto page = openPage("jobs.fifo", 1);
        selectRows(*page, 0, 0);
        page->messageActions()->editAndResend()->trigger();
        auto *dialog = page->findChild<SendMessageDialog *>();
        QVERIFY(dialog);
        auto *body = child<QPlainTextEdit>(dialog, "body");
        QCOMPARE(body->toPlainText(), QStringLiteral("{\"job\":1}"));
        QCOMPARE(child<QLineEdit>(dialog, "groupId")->text(), QStringLiteral("g1"));
        QCOMPARE(child<QLineEdit>(dialog, "deduplicationId")->text(), QStringLiteral("d1"));
        QString error;
        QCOMPARE(child<MessageAttributesEditor>(dialog, "attributes")->attributes(&error),
                 std::optional<MessageAttributes>(fifoMessage("", "", "").attributes));
        body->setPlainText(QStringLiteral("{\"job\":2}"));
        child<QLineEdit>(dialog, "deduplicationId")->setText(QStringLiteral("d2"));
        const QString status = runAndWait(*page, [&] { QTest::mouseClick(child<QPushButton>(dialog, "send"), Qt::LeftButton); });
        QVERIFY2(status.startsWith(QStringLiteral("Sent ")), qPrintable(status));
        const auto messages = broker().browse("jobs.fifo");
        QCOMPARE(messages.size(), std::size_t(2));
        QCOMPARE(messages[1].body, std::string("{\"job\":2}"));
        QCOMPARE(messages[1].groupId, std::optional<std::string>("g1"));
    }

    void redrive_oneDeadLetter_backToItsSource()
    {
        QVERIFY(broker().createQueue("dead"));
        QVERIFY(broker().createQueue("work", {{"RedrivePolicy", redriveTo("dead", 1)}}));
        for (int i = 0; i < 3; ++i)
            QVERIFY(broker().send("work", plain("job " + std::to_string(i))).ok());
        QVERIFY(broker().receive("work", 0).ok());
        QVERIFY(broker().receive("work", 0).ok());   // dead-letters all three
        auto page = openPage("dead", 3);
        QTRY_VERIFY_WITH_TIMEOUT(page->isDeadLetterQueue(), kWaitMs);
        QAction *redrive = page->messageActions()->redrive();
        QVERIFY(redrive->isVisible());
        QVERIFY(!child<QToolButton>(page.get(), "redriveActionButton")->isHidden());
        selectRows(*page, 1, 1);
        QVERIFY(redrive->isEnabled());
        const std::string chosen = page->model()->messageAt(1)->messageId;
        saveScreenshot(page.get(), QStringLiteral("messages_page_actions_dead_letters"));
        const QString status = runAndWait(*page, [&] { redrive->trigger(); });
        QCOMPARE(status, QStringLiteral("Moved 1 dead letter back to work"));
        const auto work = broker().browse("work");
        QCOMPARE(work.size(), std::size_t(1));
        QCOMPARE(work[0].messageId, chosen);
        QCOMPARE(work[0].receiveCount, 0);
        QVERIFY(!work[0].deadLetterReason);
        QCOMPARE(broker().browse("dead").size(), std::size_t(2));
        QTRY_COMPARE_WITH_TIMEOUT(page->model()->rowCount(), 2, kWaitMs);

        // Two more at once.
        selectRows(*page, 0, 1);
        QCOMPARE(runAndWait(*page, [&] { redrive->trigger(); }), QStringLiteral("Moved 2 dead letters back to work"));
        QCOMPARE(broker().browse("work").size(), std::size_t(3));
        QVERIFY(broker().browse("dead").empty());
    }

    void export_thenImport_intoAnotherQueue()
    {
        QVERIFY(broker().createQueue("src.fifo", {{"FifoQueue", "true"}}));
        QVERIFY(broker().createQueue("dst.fifo", {{"FifoQueue", "true"}}));
        for (int i = 0; i < 3; ++i)
            QVERIFY(broker().send("src.fifo", fifoMessage("m" + std::to_string(i), "g", "d" + std::to_string(i))).ok());
        auto page = openPage("src.fifo", 3);
        const QString selectedPath = m_dir.filePath(QStringLiteral("selected.jsonl"));
        selectRows(*page, 1, 2);
        QCOMPARE(runAndWait(*page, [&] { page->messageActions()->exportMessages(selectedPath, true); }),
                 QStringLiteral("Exported 2 messages to selected.jsonl"));
        const QList<QByteArray> lines = readFile(selectedPath).trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        const QJsonObject first = QJsonDocument::fromJson(lines.at(0)).object();
        QCOMPARE(first.value(QLatin1String("Body")).toString(), QStringLiteral("m1"));
        QCOMPARE(first.value(QLatin1String("MessageGroupId")).toString(), QStringLiteral("g"));
        QCOMPARE(first.value(QLatin1String("MessageDeduplicationId")).toString(), QStringLiteral("d1"));
        QVERIFY(first.value(QLatin1String("Attributes")).toObject().contains(QLatin1String("SentTimestamp")));
        QVERIFY(first.value(QLatin1String("SentTime")).toString().endsWith(QLatin1Char('Z')));
        QCOMPARE(first.value(QLatin1String("MessageAttributes")).toObject().value(QLatin1String("blob")).toObject()
                     .value(QLatin1String("BinaryValue")).toString(),
                 QStringLiteral("AAH/"));

        const QString allPath = m_dir.filePath(QStringLiteral("all.jsonl"));
        QCOMPARE(runAndWait(*page, [&] { page->messageActions()->exportMessages(allPath, false); }),
                 QStringLiteral("Exported 3 messages to all.jsonl"));

        auto target = openPage("dst.fifo", 0);
        QCOMPARE(runAndWait(*target, [&] { target->messageActions()->importMessages(allPath); }),
                 QStringLiteral("Imported 3 messages from all.jsonl into dst.fifo"));
        const auto imported = broker().browse("dst.fifo");
        const auto source = broker().browse("src.fifo");
        QCOMPARE(imported.size(), std::size_t(3));
        for (std::size_t i = 0; i < 3; ++i) {
            QCOMPARE(imported[i].body, source[i].body);
            QCOMPARE(imported[i].attributes, source[i].attributes);
            QCOMPARE(imported[i].groupId, source[i].groupId);
            QCOMPARE(imported[i].deduplicationId, source[i].deduplicationId);
        }
    }

    // More than a batch: sent ten at a time, one batch after the other, in the file's order.
    void import_manyLines_inTheFilesOrder()
    {
        QVERIFY(broker().createQueue("many"));
        const QString path = m_dir.filePath(QStringLiteral("many.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        for (int i = 0; i < 25; ++i)
            file.write(QStringLiteral("{\"Body\":\"n%1\"}\n").arg(i).toUtf8());
        file.close();
        auto page = openPage("many", 0);
        QCOMPARE(runAndWait(*page, [&] { page->messageActions()->importMessages(path); }),
                 QStringLiteral("Imported 25 messages from many.jsonl into many"));
        const auto messages = broker().browse("many");
        QCOMPARE(messages.size(), std::size_t(25));
        for (int i = 0; i < 25; ++i)
            QCOMPARE(messages[std::size_t(i)].body, "n" + std::to_string(i));
    }

    void import_badLines_importsNothing_andNamesEachLine()
    {
        QVERIFY(broker().createQueue("dst"));
        const QString path = m_dir.filePath(QStringLiteral("bad.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"Body\":\"fine\"}\n"
                   "{not json\n"
                   "\n"
                   "{\"MessageAttributes\":{}}\n"
                   "{\"Body\":\"x\",\"MessageAttributes\":{\"a\":{\"DataType\":\"Binary\",\"BinaryValue\":\"!!\"}}}\n");
        file.close();
        auto page = openPage("dst", 0);
        const QString status = runAndWait(*page, [&] { page->messageActions()->importMessages(path); });
        QCOMPARE(status, QStringLiteral("Nothing imported: 3 lines of bad.jsonl are not messages."));
        auto *box = page->findChild<QMessageBox *>(QStringLiteral("importErrors"));
        QVERIFY(box);
        const QString details = box->detailedText();
        QVERIFY2(details.startsWith(QStringLiteral("line 2: not a JSON object\nline 4: ")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("MessageBody")) || details.contains(QStringLiteral("Body")), qPrintable(details));
        QVERIFY2(details.contains(QStringLiteral("line 5: ")), qPrintable(details));
        QVERIFY(broker().browse("dst").empty());
    }

    // The broker refuses some lines (a FIFO queue and no group id): the count says how many went in.
    void import_refusedByTheBroker_saysHowManyWentIn()
    {
        QVERIFY(broker().createQueue("dst.fifo", {{"FifoQueue", "true"}}));
        const QString path = m_dir.filePath(QStringLiteral("mixed.jsonl"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("{\"Body\":\"a\",\"MessageGroupId\":\"g\",\"MessageDeduplicationId\":\"1\"}\n"
                   "{\"Body\":\"b\"}\n");
        file.close();
        auto page = openPage("dst.fifo", 0);
        const QString status = runAndWait(*page, [&] { page->messageActions()->importMessages(path); });
        QCOMPARE(status, QStringLiteral("Imported 1 of 2 messages from mixed.jsonl into dst.fifo; the broker refused the rest."));
        auto *box = page->findChild<QMessageBox *>(QStringLiteral("importErrors"));
        QVERIFY(box);
        QVERIFY2(box->detailedText().startsWith(QStringLiteral("line 2: ")), qPrintable(box->detailedText()));
        QCOMPARE(broker().browse("dst.fifo").size(), std::size_t(1));
    }

    // Each action has a tool button named as its label, reachable by Tab, and is in the context menu.
    void actions_areNamedAndReachable()
    {
        QVERIFY(broker().createQueue("named"));
        QVERIFY(broker().send("named", plain("n")).ok());
        auto page = openPage("named", 1);
        selectRows(*page, 0, 0);
        QueueMessageActions &actions = *page->messageActions();
        QMenu *menu = actions.contextMenu(page.get());
        for (QAction *action : actions.actions()) {
            auto *button = child<QToolButton>(page.get(), qPrintable(action->objectName() + QStringLiteral("Button")));
            QVERIFY2(button, qPrintable(action->objectName()));
            QCOMPARE(button->accessibleName(), action->text().remove(QLatin1Char('&')));
            QVERIFY(button->focusPolicy() & Qt::TabFocus);
            QVERIFY(!action->shortcut().isEmpty());
            QVERIFY(menu->actions().contains(action));
        }
        delete menu;
        saveScreenshot(page.get(), QStringLiteral("messages_page_actions"));
    }
};

RELAYDESK_TEST_MAIN(QueueMessageActionsTest)
#include "queue_message_actions_test.moc"
