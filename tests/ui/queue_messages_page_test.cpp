// SPDX-License-Identifier: MIT
// The Messages page and its dialogs, offscreen, against a real engine on a
// real database file and a virtual clock: send with a TTL and a scheduled
// time → the countdowns; an invalid send refused at its field with nothing
// sent; purge after the confirmation; move dead letters back (a rated move
// shows its progress chunk by chunk and stops half-way); publish to a
// topic with an sqs subscription → the message in the queue; every control
// named as its label says. Screenshots go to tests/ui/screenshots/.
#include "views/queue_messages_page.h"

#include "widgets/field_error.h"
#include "dialogs/message_attributes_editor.h"
#include "dialogs/move_dead_letters_dialog.h"
#include "dialogs/publish_dialog.h"
#include "dialogs/send_message_dialog.h"
#include "message_test_broker.h"
#include "parity_screenshots.h"
#include "models/message_browse_model.h"
#include "views/message_viewer.h"
#include "support/test_main.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProgressBar>
#include <QPushButton>
#include <QRadioButton>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTest>
#include <QTimeZone>
#include <QTreeWidget>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

SendRequest bodyOnly(const std::string &body)
{
    SendRequest request;
    request.body = body;
    return request;
}

template <class T>
T *child(QWidget *parent, const char *name)
{
    return parent->findChild<T *>(QLatin1String(name));
}

QString cell(const MessageBrowseModel &model, int row, int column)
{
    return model.index(row, column).data().toString();
}

// Every input of `root` is reachable by Tab and has an accessible name; a
// buddy label's text (without '&' and ':') is its control's name.
void checkAccessible(QWidget *root)
{
    for (QLabel *label : root->findChildren<QLabel *>()) {
        if (!label->buddy())
            continue;
        QString text = label->text().remove(QLatin1Char('&'));
        if (text.endsWith(QLatin1Char(':')))
            text.chop(1);
        QCOMPARE(label->buddy()->accessibleName(), text);
    }
    const QList<QWidget *> inputs = root->findChildren<QWidget *>();
    for (QWidget *input : inputs) {
        const bool isInput = qobject_cast<QLineEdit *>(input) || qobject_cast<QPlainTextEdit *>(input)
                          || qobject_cast<QAbstractSpinBox *>(input) || qobject_cast<QComboBox *>(input)
                          || qobject_cast<QAbstractItemView *>(input);
        if (auto *combo = qobject_cast<QComboBox *>(input->parentWidget()); combo && combo->lineEdit() == input) {
            QCOMPARE(input->accessibleName(), combo->accessibleName());   // AT-SPI shows it as an input of its own
            continue;
        }
        if (!isInput || qobject_cast<QHeaderView *>(input) || qobject_cast<QLineEdit *>(input->parentWidget())
            || qobject_cast<QAbstractSpinBox *>(input->parentWidget()) || qobject_cast<QComboBox *>(input->parentWidget())
            || qobject_cast<QAbstractItemView *>(input->parentWidget()->parentWidget())
            || qobject_cast<QComboBox *>(input->parentWidget()->parentWidget()))
            continue;   // the line edit inside a spin box, a combo box's list, editors inside views
        QVERIFY2(!input->accessibleName().isEmpty(), qPrintable(QString::fromLatin1(input->metaObject()->className()) + " " + input->objectName()
                                                                       + " has no accessible name"));
        QVERIFY2(input->focusPolicy() & Qt::TabFocus, qPrintable(input->objectName() + " is not reachable by Tab"));
    }
    for (QAbstractButton *button : root->findChildren<QAbstractButton *>())
        if (!button->text().isEmpty())
            QVERIFY2(button->focusPolicy() & Qt::TabFocus, qPrintable(button->text() + " is not reachable by Tab"));
}

} // namespace

class QueueMessagesPageTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QTemporaryDir m_settingsDir;
    int m_files = 0;
    std::unique_ptr<MessageTestBroker> m_broker;

    MessageTestBroker &broker() { return *m_broker; }

private slots:
    void initTestCase()
    {
        // The dialogs remember their choices in QSettings: in a folder of this test's own.
        QStandardPaths::setTestModeEnabled(true);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settingsDir.path());
        QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settingsDir.path());
        QCoreApplication::setOrganizationName(QStringLiteral("relaydesk-tests"));
        QCoreApplication::setApplicationName(QStringLiteral("queue_messages_page_test"));
        QVERIFY(QSettings().allKeys().isEmpty());
    }
    void init()
    {
        const std::string file = "page" + std::to_string(++m_files) + ".db";
        m_broker = std::make_unique<MessageTestBroker>(m_dir, file.c_str());
    }
    void cleanup() { m_broker.reset(); }

    // A send with a time-to-live and a scheduled enqueue time through the
    // dialog: the row appears as Scheduled counting down to its enqueue; at
    // that time it becomes Available, counting down to its expiry.
    void sendWithTtlAndSchedule_countsDown()
    {
        QVERIFY(broker().createQueue("orders"));
        QueueMessagesPage page(broker().service(), broker().engine(), QStringLiteral("orders"));
        page.resize(1100, 640);
        MessageBrowseModel &model = *page.model();
        QTRY_VERIFY_WITH_TIMEOUT(!model.isLoading(), kWaitMs);
        QSignalSpy inserted(&model, &QAbstractItemModel::rowsInserted);

        SendMessageDialog dialog(broker().service(), QStringLiteral("orders"));
        dialog.setClock(&broker().engine().clock());
        child<QPlainTextEdit>(&dialog, "body")->setPlainText(QStringLiteral("{\"order\":42,\"items\":[1,2]}"));
        child<MessageAttributesEditor>(&dialog, "attributes")->addAttribute(QStringLiteral("customer"), QStringLiteral("String"), QStringLiteral("ada"));
        child<MessageAttributesEditor>(&dialog, "attributes")->addAttribute(QStringLiteral("blob"), QStringLiteral("Binary"), QStringLiteral("AAEC/w=="));
        child<QSpinBox>(&dialog, "timeToLive")->setValue(120);
        child<QCheckBox>(&dialog, "schedule")->setChecked(true);
        const ClockTime enqueueAt = broker().engine().clock().now() + 10min;
        child<QDateTimeEdit>(&dialog, "scheduledTime")
            ->setDateTime(QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(enqueueAt), QTimeZone::utc()));
        dialog.show();
        saveScreenshot(&dialog, QStringLiteral("messages_send_dialog"));
        QTest::mouseClick(child<QPushButton>(&dialog, "send"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(dialog.result(), int(QDialog::Accepted), kWaitMs);
        QVERIFY(!dialog.sentMessageId().isEmpty());

        QTRY_COMPARE_WITH_TIMEOUT(model.rowCount(), 1, kWaitMs);
        QCOMPARE(inserted.count(), 1);
        QCOMPARE(cell(model, 0, MessageBrowseModel::StateColumn), QStringLiteral("Scheduled"));
        QCOMPARE(cell(model, 0, MessageBrowseModel::CountdownColumn), QStringLiteral("enqueued in 10 min 00 s"));
        QCOMPARE(model.messageAt(0)->expiresAt, std::optional<ClockTime>(enqueueAt + 120s));

        // The viewer: plain text, JSON pretty-printed, typed attributes, binary in hex with its length.
        QVERIFY(page.selectMessage(dialog.sentMessageId()));
        auto *body = child<QPlainTextEdit>(page.viewer(), "messageBody");
        QVERIFY(body->toPlainText().contains(QStringLiteral("\n    \"items\": [")));
        auto *attributes = child<QTreeWidget>(page.viewer(), "messageAttributes");
        const QList<QTreeWidgetItem *> blob = attributes->findItems(QStringLiteral("blob"), Qt::MatchRecursive);
        QCOMPARE(blob.size(), 1);
        QCOMPARE(blob.front()->text(1), QStringLiteral("Binary"));
        QCOMPARE(blob.front()->text(2), QStringLiteral("00 01 02 ff (4 bytes)"));
        QVERIFY(child<QPushButton>(&page, "cancelScheduled")->isEnabled());
        QTest::mouseClick(child<QPushButton>(page.viewer(), "copyJson"), Qt::LeftButton);
        QVERIFY(QApplication::clipboard()->text().contains(QStringLiteral("\"scheduledEnqueueTime\"")));
        page.show();
        saveScreenshot(&page, QStringLiteral("messages_page_scheduled"));

        // At the enqueue time it is available, counting down to its expiry.
        QVERIFY(broker().advance(600));
        page.tick();
        QTRY_COMPARE_WITH_TIMEOUT(cell(model, 0, MessageBrowseModel::StateColumn), QStringLiteral("Available"), kWaitMs);
        QCOMPARE(cell(model, 0, MessageBrowseModel::CountdownColumn), QStringLiteral("expires in 2 min 00 s"));
        QCOMPARE(page.table()->selectionModel()->currentIndex().row(), 0);   // the selection stayed
    }

    // A refused send: the broker's own message at the field, the dialog open, nothing sent.
    void invalidSend_refusedAtTheField_data()
    {
        QTest::addColumn<QString>("queue");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("message");
        QTest::newRow("empty body") << "plain" << "body" << "" << "The request must contain the parameter MessageBody.";
        QTest::newRow("bad group id") << "jobs.fifo" << "groupId" << "no spaces"
                                      << "Value no spaces for parameter MessageGroupId is invalid.";
        QTest::newRow("missing group id") << "jobs.fifo" << "groupId" << ""
                                          << "The request must contain the parameter MessageGroupId.";
        QTest::newRow("reserved attribute name") << "plain" << "attributes" << "AWS.trace"
                                                 << "Message (user) attribute name 'AWS.trace' is invalid";
    }
    void invalidSend_refusedAtTheField()
    {
        QFETCH(QString, queue);
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, message);
        QVERIFY(broker().createQueue(queue.toStdString(),
                                     queue.endsWith(QLatin1String(".fifo")) ? AttributeMap{{"FifoQueue", "true"}} : AttributeMap{}));
        SendMessageDialog dialog(broker().service(), queue);
        child<QPlainTextEdit>(&dialog, "body")->setPlainText(field == QLatin1String("body") ? value : QStringLiteral("hello"));
        if (field == QLatin1String("groupId"))
            child<QLineEdit>(&dialog, "groupId")->setText(value);
        if (field == QLatin1String("attributes"))
            child<MessageAttributesEditor>(&dialog, "attributes")->addAttribute(value, QStringLiteral("String"), QStringLiteral("x"));
        dialog.show();
        QTest::mouseClick(child<QPushButton>(&dialog, "send"), Qt::LeftButton);
        auto *error = dialog.findChild<FieldError *>(field + QStringLiteral("Error"));
        QVERIFY(error);
        QTRY_VERIFY_WITH_TIMEOUT(!error->message().isEmpty(), kWaitMs); // its line is reserved: always there
        QVERIFY2(error->text().contains(message), qPrintable(error->text()));
        QCOMPARE(error->field()->property("policyIssue").toString(), QStringLiteral("error"));
        QVERIFY(dialog.isVisible());
        QCOMPARE(dialog.result(), int(QDialog::Rejected));
        QVERIFY(broker().browse(queue.toStdString()).empty());
        if (field == QLatin1String("groupId"))
            saveScreenshot(&dialog, QStringLiteral("messages_send_dialog_refused"));
    }

    void sentMessages_areOfferedAsTemplates()
    {
        QVERIFY(broker().createQueue("again"));
        {
            SendMessageDialog first(broker().service(), QStringLiteral("again"));
            child<QPlainTextEdit>(&first, "body")->setPlainText(QStringLiteral("remember me"));
            child<QSpinBox>(&first, "delaySeconds")->setValue(5);
            first.accept();
            QTRY_COMPARE_WITH_TIMEOUT(first.result(), int(QDialog::Accepted), kWaitMs);
        }
        SendMessageDialog second(broker().service(), QStringLiteral("again"));
        auto *templates = child<QComboBox>(&second, "template");
        QVERIFY(templates->count() >= 2);
        QCOMPARE(templates->itemText(1), QStringLiteral("remember me"));
        templates->setCurrentIndex(1);
        emit templates->activated(1);
        QCOMPARE(child<QPlainTextEdit>(&second, "body")->toPlainText(), QStringLiteral("remember me"));
        QCOMPARE(child<QSpinBox>(&second, "delaySeconds")->value(), 5);
    }

    void purge_afterConfirmation_emptiesTheQueue()
    {
        QVERIFY(broker().createQueue("trash"));
        for (int i = 0; i < 3; ++i)
            QVERIFY(broker().send("trash", bodyOnly("m" + std::to_string(i))).ok());
        QueueMessagesPage page(broker().service(), broker().engine(), QStringLiteral("trash"));
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 3, kWaitMs);
        QSignalSpy removed(page.model(), &QAbstractItemModel::rowsRemoved);
        page.purge();
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = page.findChild<QMessageBox *>(QStringLiteral("purgeConfirmation"))), kWaitMs);
        QCOMPARE(box->text(), QStringLiteral("Purge 3 messages from trash?"));
        saveScreenshot(box, QStringLiteral("messages_purge_confirmation"));
        QTest::mouseClick(box->findChild<QPushButton *>(QStringLiteral("confirmPurge")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 0, kWaitMs);
        QVERIFY(removed.count() >= 1);
        QVERIFY(broker().browse("trash").empty());
    }

    void purge_cancelled_changesNothing()
    {
        QVERIFY(broker().createQueue("keep"));
        QVERIFY(broker().send("keep", bodyOnly("m")).ok());
        QueueMessagesPage page(broker().service(), broker().engine(), QStringLiteral("keep"));
        page.purge();
        QMessageBox *box = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((box = page.findChild<QMessageBox *>(QStringLiteral("purgeConfirmation"))), kWaitMs);
        box->reject();
        QCOMPARE(broker().browse("keep").size(), std::size_t(1));
    }

    // The viewer shows a JSON body as it was sent: pretty-printed, its keys
    // in the sender's order (not sorted), nested objects too.
    void viewer_keepsJsonKeyOrder()
    {
        QVERIFY(broker().createQueue("sales"));
        const auto sent = broker().send(
            "sales", bodyOnly(R"({"order":7,"customer":"ada","items":[{"sku":"b-1","qty":2,"price":1.5}],"note":"é"})"));
        QVERIFY(sent.ok());
        QueueMessagesPage page(broker().service(), broker().engine(), QStringLiteral("sales"));
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 1, kWaitMs);
        QVERIFY(page.selectMessage(QString::fromStdString(sent->messageId)));
        QCOMPARE(child<QPlainTextEdit>(page.viewer(), "messageBody")->toPlainText(),
                 QStringLiteral("{\n"
                                "    \"order\": 7,\n"
                                "    \"customer\": \"ada\",\n"
                                "    \"items\": [\n"
                                "        {\n"
                                "            \"sku\": \"b-1\",\n"
                                "            \"qty\": 2,\n"
                                "            \"price\": 1.5\n"
                                "        }\n"
                                "    ],\n"
                                "    \"note\": \"é\"\n"
                                "}"));
    }

    void cancelScheduled_removesTheMessage()
    {
        QVERIFY(broker().createQueue("plans"));
        SendRequest planned = bodyOnly("planned");
        planned.scheduledEnqueueTime = broker().engine().clock().now() + 1h;
        auto sent = broker().send("plans", planned);
        QVERIFY(sent.ok());
        QueueMessagesPage page(broker().service(), broker().engine(), QStringLiteral("plans"));
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 1, kWaitMs);
        QVERIFY(page.selectMessage(QString::fromStdString(sent->messageId)));
        QTest::mouseClick(child<QPushButton>(&page, "cancelScheduled"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 0, kWaitMs);
        QVERIFY(broker().browse("plans").empty());
    }

    void moveDeadLettersBack_toTheirSource()
    {
        QVERIFY(broker().createQueue("dead"));
        QVERIFY(broker().createQueue("work", {{"RedrivePolicy", redriveTo("dead", 1)}}));
        for (int i = 0; i < 3; ++i)
            QVERIFY(broker().send("work", bodyOnly("job " + std::to_string(i))).ok());
        QVERIFY(broker().receive("work", 0).ok());
        QVERIFY(broker().receive("work", 0).ok());   // dead-letters all three
        QCOMPARE(broker().browse("dead").size(), std::size_t(3));

        QueueMessagesPage page(broker().service(), broker().engine(), QStringLiteral("dead"));
        QTRY_VERIFY_WITH_TIMEOUT(page.isDeadLetterQueue(), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 3, kWaitMs);
        QVERIFY(!child<QPushButton>(&page, "moveDeadLettersBack")->isHidden());
        page.resize(1100, 600);
        page.show();
        QVERIFY(page.selectMessage(QString::fromStdString(page.model()->messageAt(0)->messageId)));
        saveScreenshot(&page, QStringLiteral("messages_page_dead_letters"));

        MoveDeadLettersDialog dialog(broker().service(), broker().engine(), QStringLiteral("dead"));
        dialog.show();
        auto *move = child<QPushButton>(&dialog, "move");
        QTRY_VERIFY_WITH_TIMEOUT(move->isEnabled(), kWaitMs);
        QCOMPARE(child<QLabel>(&dialog, "summary")->text(), QStringLiteral("dead holds 3 messages. Where should they go?"));
        saveScreenshot(&dialog, QStringLiteral("messages_move_dialog"));
        QSignalSpy finished(&dialog, &MoveDeadLettersDialog::moveFinished);
        QTest::mouseClick(move, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kWaitMs);
        QCOMPARE(dialog.movedCount(), 3);
        QCOMPARE(child<QProgressBar>(&dialog, "progress")->value(), 3);
        saveScreenshot(&dialog, QStringLiteral("messages_move_dialog_done"));
        QCOMPARE(broker().browse("work").size(), std::size_t(3));
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 0, kWaitMs);   // the page followed
    }

    void moveDeadLetters_toAChosenQueue()
    {
        QVERIFY(broker().createQueue("dead"));
        QVERIFY(broker().createQueue("other"));
        QVERIFY(broker().createQueue("work", {{"RedrivePolicy", redriveTo("dead", 1)}}));
        QVERIFY(broker().send("work", bodyOnly("job")).ok());
        QVERIFY(broker().receive("work", 0).ok());
        QVERIFY(broker().receive("work", 0).ok());
        MoveDeadLettersDialog dialog(broker().service(), broker().engine(), QStringLiteral("dead"));
        QTRY_COMPARE_WITH_TIMEOUT(child<QComboBox>(&dialog, "destination")->count(), 2, kWaitMs);
        dialog.setDestination(QStringLiteral("other"));
        QTRY_VERIFY_WITH_TIMEOUT(child<QPushButton>(&dialog, "move")->isEnabled(), kWaitMs);
        QTest::mouseClick(child<QPushButton>(&dialog, "move"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(dialog.movedCount(), 1, kWaitMs);
        QCOMPARE(broker().browse("other").size(), std::size_t(1));
        QVERIFY(broker().browse("work").empty());
    }

    void moveDeadLetters_rated_showsProgress_andStopsHalfWay()
    {
        QVERIFY(broker().createQueue("dead"));
        QVERIFY(broker().createQueue("work", {{"RedrivePolicy", redriveTo("dead", 1)}}));
        for (int i = 0; i < 12; ++i)
            QVERIFY(broker().send("work", bodyOnly("job " + std::to_string(i))).ok());
        for (int round = 0; round < 48 && broker().browse("dead").size() < 12; ++round)
            QVERIFY(broker().receive("work", 0).ok());   // a second receive dead-letters
        QCOMPARE(broker().browse("dead").size(), std::size_t(12));

        MoveDeadLettersDialog dialog(broker().service(), broker().engine(), QStringLiteral("dead"));
        dialog.show();
        auto *move = child<QPushButton>(&dialog, "move");
        QTRY_VERIFY_WITH_TIMEOUT(move->isEnabled(), kWaitMs);
        dialog.setRate(5);
        QCOMPARE(child<QSpinBox>(&dialog, "rate")->accessibleName(), QStringLiteral("Rate"));
        QSignalSpy progressed(&dialog, &MoveDeadLettersDialog::progressed);
        QSignalSpy finished(&dialog, &MoveDeadLettersDialog::moveFinished);
        QTest::mouseClick(move, Qt::LeftButton);
        // The first chunk: 5 of 12, the task runs, Cancel now stops the move.
        QTRY_COMPARE_WITH_TIMEOUT(dialog.movedCount(), 5, kWaitMs);
        auto *progress = child<QProgressBar>(&dialog, "progress");
        QCOMPARE(progress->maximum(), 12);
        QCOMPARE(progress->value(), 5);
        QCOMPARE(dialog.taskStatus(), QStringLiteral("RUNNING"));
        auto *stop = child<QPushButton>(&dialog, "cancel");
        QCOMPARE(stop->text(), QStringLiteral("&Stop moving"));
        QVERIFY(child<QLabel>(&dialog, "outcome")->text().contains(QStringLiteral("5 of 12 messages")));
        // A clock second later, the next chunk: the bar follows without a click.
        QVERIFY(broker().advance(1));
        QTRY_COMPARE_WITH_TIMEOUT(progress->value(), 10, kWaitMs);
        QVERIFY(progressed.count() >= 2);
        saveScreenshot(&dialog, QStringLiteral("messages_move_dialog_running"));
        QCOMPARE(finished.count(), 0);
        QTest::mouseClick(stop, Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 1, kWaitMs);
        QCOMPARE(dialog.taskStatus(), QStringLiteral("CANCELLED"));
        QCOMPARE(dialog.movedCount(), 10);
        QCOMPARE(child<QLabel>(&dialog, "outcome")->text(),
                 QStringLiteral("Stopped: 10 of 12 messages moved; the rest stay in dead."));
        QVERIFY(dialog.isVisible());   // stopping does not close: the dialog says what happened
        QVERIFY(child<QPushButton>(&dialog, "close"));
        saveScreenshot(&dialog, QStringLiteral("messages_move_dialog_stopped"));
        // Nothing moves after the stop; nothing was lost or moved twice.
        QVERIFY(broker().advance(5));
        QCOMPARE(broker().browse("work").size(), std::size_t(10));
        QCOMPARE(broker().browse("dead").size(), std::size_t(2));
    }

    void publish_toATopicWithAnSqsSubscription_reachesTheQueue()
    {
        QVERIFY(broker().createQueue("inbox"));
        QVERIFY(callAndWait<std::string>([&](auto reply) {
                    broker().service().createTopic("events", {}, {}, nullptr, reply);
                }).ok());
        QVERIFY(callAndWait<SubscribeReceipt>([&](auto reply) {
                    broker().service().subscribe("events", "sqs", BrokerIdentity{}.queueArn("inbox"),
                                                 {{"RawMessageDelivery", "true"}}, true, nullptr, reply);
                }).ok());
        QueueMessagesPage page(broker().service(), broker().engine(), QStringLiteral("inbox"));
        QTRY_VERIFY_WITH_TIMEOUT(!page.model()->isLoading(), kWaitMs);

        PublishDialog dialog(broker().service(), QStringLiteral("events"));
        child<QPlainTextEdit>(&dialog, "message")->setPlainText(QStringLiteral("{\"default\": \"order shipped\"}"));
        child<QComboBox>(&dialog, "structure")->setCurrentIndex(1);   // json
        child<QLineEdit>(&dialog, "subject")->setText(QStringLiteral("Shipping"));
        child<MessageAttributesEditor>(&dialog, "attributes")->addAttribute(QStringLiteral("region"), QStringLiteral("String"), QStringLiteral("eu"));
        dialog.show();
        saveScreenshot(&dialog, QStringLiteral("messages_publish_dialog"));
        QTest::mouseClick(child<QPushButton>(&dialog, "publish"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(dialog.result(), int(QDialog::Accepted), kWaitMs);
        QTRY_COMPARE_WITH_TIMEOUT(page.model()->rowCount(), 1, kWaitMs);
        QCOMPARE(page.model()->messageAt(0)->body, std::string("order shipped"));
        QCOMPARE(page.model()->messageAt(0)->attributes.at("region").stringValue, std::string("eu"));
    }

    void publish_badStructure_refusedAtTheField()
    {
        QVERIFY(callAndWait<std::string>([&](auto reply) {
                    broker().service().createTopic("events", {}, {}, nullptr, reply);
                }).ok());
        PublishDialog dialog(broker().service(), QStringLiteral("events"));
        child<QPlainTextEdit>(&dialog, "message")->setPlainText(QStringLiteral("not json"));
        child<QComboBox>(&dialog, "structure")->setCurrentIndex(1);
        dialog.show();
        QTest::mouseClick(child<QPushButton>(&dialog, "publish"), Qt::LeftButton);
        auto *error = dialog.findChild<FieldError *>(QStringLiteral("structureError"));
        QVERIFY(error && error->isVisible());
        QVERIFY(error->text().contains(QStringLiteral("No default entry in JSON message body")));
        QVERIFY(dialog.isVisible());
    }

    // A large queue: "Row N of M" counts the whole queue, not the loaded rows;
    // Ctrl+End shows its last messages without loading those before (one page),
    // scrolling to the top reads the page before, Ctrl+Home goes back.
    void largeQueue_rowOfDepth_endOfQueueByKeyboard()
    {
        constexpr int kCount = 1250;
        QVERIFY(broker().createQueue("big"));
        std::vector<BatchEntry<SendRequest>> batch;
        for (int i = 0; i < kCount; ++i) {
            batch.push_back({std::to_string(i % 10), bodyOnly("m" + std::to_string(i))});
            if (batch.size() < 10)
                continue;
            QVERIFY(callAndWait<std::vector<BatchEntryResult<SendReceipt>>>([&](auto reply) {
                        broker().service().sendMessageBatch("big", batch, nullptr, reply);
                    }).ok());
            batch.clear();
        }
        QueueMessagesPage page(broker().service(), broker().engine(), QStringLiteral("big"));
        page.resize(1000, 700);
        page.show();
        QApplication::setActiveWindow(&page);
        QVERIFY(QTest::qWaitForWindowActive(&page));
        MessageBrowseModel *model = page.model();
        QTRY_VERIFY_WITH_TIMEOUT(!model->isLoading() && model->rowCount() >= MessageBrowseModel::kPageSize, kWaitMs);
        QTableView *table = page.table();
        table->setFocus();
        table->selectRow(0);
        const QLocale locale;
        const QString depth = locale.toString(kCount);
        auto *position = child<QLabel>(&page, "messagePosition");
        QTRY_COMPARE_WITH_TIMEOUT(position->text(), QStringLiteral("Row 1 of %1").arg(depth), kWaitMs);

        QTest::keyClick(table, Qt::Key_End, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(model->atTail() && !model->isLoading() && table->currentIndex().row() == model->rowCount() - 1,
                                 kWaitMs);
        QCOMPARE(model->rowCount(), MessageBrowseModel::kPageSize);   // the last page only
        QCOMPARE(table->currentIndex().siblingAtColumn(MessageBrowseModel::BodyColumn).data().toString(),
                 QStringLiteral("m%1").arg(kCount - 1));
        QCOMPARE(model->index(0, MessageBrowseModel::BodyColumn).data().toString(),
                 QStringLiteral("m%1").arg(kCount - MessageBrowseModel::kPageSize));
        QCOMPARE(position->text(), QStringLiteral("Row %1 of %1").arg(depth));

        // At the top, the page before comes above; the current message keeps its place in the queue.
        table->scrollToTop();
        table->verticalScrollBar()->setValue(table->verticalScrollBar()->minimum() + 1);
        table->verticalScrollBar()->setValue(table->verticalScrollBar()->minimum());
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 2 * MessageBrowseModel::kPageSize, kWaitMs);
        QCOMPARE(model->index(0, MessageBrowseModel::BodyColumn).data().toString(),
                 QStringLiteral("m%1").arg(kCount - 2 * MessageBrowseModel::kPageSize));
        QCOMPARE(model->positionOf(0), qint64(kCount - 2 * MessageBrowseModel::kPageSize + 1));
        QCOMPARE(position->text(), QStringLiteral("Row %1 of %1").arg(depth));

        QTest::keyClick(table, Qt::Key_Home, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!model->atTail() && table->currentIndex().row() == 0, kWaitMs);
        QCOMPARE(table->currentIndex().siblingAtColumn(MessageBrowseModel::BodyColumn).data().toString(), QStringLiteral("m0"));
        QCOMPARE(position->text(), QStringLiteral("Row 1 of %1").arg(depth));

        QTest::keyClick(table, Qt::Key_End, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(model->atTail() && !model->isLoading() && table->currentIndex().row() == model->rowCount() - 1,
                                 kWaitMs);
        shootSizesAndThemes(page, QStringLiteral("parity-messages-end-of-queue"));
    }

    void everyControl_isNamedAndReachable()
    {
        QVERIFY(broker().createQueue("named.fifo", {{"FifoQueue", "true"}}));
        QVERIFY(callAndWait<std::string>([&](auto reply) {
                    broker().service().createTopic("named", {}, {}, nullptr, reply);
                }).ok());
        QueueMessagesPage page(broker().service(), broker().engine(), QStringLiteral("named.fifo"));
        checkAccessible(&page);
        SendMessageDialog send(broker().service(), QStringLiteral("named.fifo"));
        checkAccessible(&send);
        PublishDialog publish(broker().service(), QStringLiteral("named"));
        child<MessageAttributesEditor>(&publish, "attributes")->addAttribute(QStringLiteral("region"), QStringLiteral("String"), QStringLiteral("eu"));
        checkAccessible(&publish);
        MoveDeadLettersDialog move(broker().service(), broker().engine(), QStringLiteral("named.fifo"));
        checkAccessible(&move);
    }
};

RELAYDESK_TEST_MAIN(QueueMessagesPageTest)
#include "queue_messages_page_test.moc"
