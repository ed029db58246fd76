// SPDX-License-Identifier: MIT
// Words and numbers in the window (issue 34 defect 10): counted texts in
// proper English plurals; the delete-queue question names the queues that use
// it as their dead-letter queue; the aws CLI lines carry keys and region; Edit
// and Resend names the message, not "New message"; the Send dialog keeps its
// place when an error appears; Preferences shows the database folder whole.
#include "broker/metrics/entity_overview.h"
#include "charts/time_ticks.h"
#include "dialogs/preferences_dialog.h"
#include "dialogs/send_message_dialog.h"
#include "views/connection_help.h"
#include "views/entity_actions.h"
#include "widgets/field_error.h"
#include "message_test_broker.h"
#include "support/test_main.h"
#include "window_test_support.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

QueueOverview queue(const std::string &name, std::int64_t available, std::optional<std::string> deadLetterQueue = {})
{
    QueueOverview q;
    q.name = name;
    q.counts.available = available;
    q.deadLetterQueue = std::move(deadLetterQueue);
    return q;
}

} // namespace

class WordsAndNumbersTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void initTestCase() { keepSettingsIn(m_dir); }

    void countedTexts_inEnglishPlurals_data()
    {
        QTest::addColumn<QString>("source");
        QTest::addColumn<int>("count");
        QTest::addColumn<QString>("shown");
        QTest::newRow("1 error") << "The policy has %n error(s)" << 1 << "The policy has 1 error";
        QTest::newRow("2 errors") << "The policy has %n error(s)" << 2 << "The policy has 2 errors";
        QTest::newRow("0 messages") << "%n message(s)" << 0 << "0 messages";
        QTest::newRow("1 message") << "%n message(s)" << 1 << "1 message";
        QTest::newRow("no count: as written") << "Delay (s)" << -1 << "Delay (s)";
    }
    void countedTexts_inEnglishPlurals()
    {
        QFETCH(QString, source);
        QFETCH(int, count);
        QFETCH(QString, shown);
        const QByteArray text = source.toUtf8();
        QCOMPARE(QCoreApplication::translate("relaydesk::Any", text.constData(), nullptr, count), shown);
    }

    void deleteQueue_namesTheQueuesThatDeadLetterIntoIt()
    {
        EntityOverview overview;
        overview.queues = {queue("billing", 0, "orders-dlq"), queue("orders", 3, "orders-dlq"), queue("orders-dlq", 0),
                           queue("single", 1)};
        QCOMPARE(deleteQueueQuestion(overview, QStringLiteral("orders-dlq")),
                 QStringLiteral("Delete queue orders-dlq and its 0 messages?\nIt is the dead-letter queue of billing, "
                                "orders: dead letters from there would have nowhere to go."));
        QCOMPARE(deleteQueueQuestion(overview, QStringLiteral("single")), QStringLiteral("Delete queue single and its 1 message?"));
        overview.queues.push_back(queue("big", 1209600));
        QCOMPARE(deleteQueueQuestion(overview, QStringLiteral("big")),
                 QStringLiteral("Delete queue big and its %1 messages?").arg(QLocale().toString(1209600)));
    }

    // Chart time ticks at round steps (the Deliveries chart showed 39 s steps).
    void timeTicks_atRoundSteps_data()
    {
        QTest::addColumn<qint64>("from");
        QTest::addColumn<qint64>("to");
        QTest::addColumn<int>("maxTicks");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<qint64>("tickFrom");
        QTest::addColumn<int>("count");
        const qint64 t = 1'795'046'400'000; // a whole day, so a whole step of each size
        QTest::newRow("156 s in 5 ticks: 1 min") << t + 3'000 << t + 159'000 << 5 << qint64(60'000) << t << 4;
        QTest::newRow("156 s in 8 ticks: 30 s") << t + 3'000 << t + 159'000 << 8 << qint64(30'000) << t << 7;
        QTest::newRow("20 s in 6 ticks: 5 s") << t + 1'000 << t + 21'000 << 6 << qint64(5'000) << t << 6;
        QTest::newRow("60 min in 7 ticks: 10 min") << t << t + 3'600'000 << 7 << qint64(600'000) << t << 7;
        QTest::newRow("15 min in 7 ticks: 5 min") << t << t + 900'000 << 7 << qint64(300'000) << t << 4;
        QTest::newRow("3 h in 5 ticks: 1 h") << t << t + 10'800'000 << 5 << qint64(3'600'000) << t << 4;
        QTest::newRow("1 d in 5 ticks: 6 h") << t << t + 86'400'000 << 5 << qint64(21'600'000) << t << 5;
    }
    void timeTicks_atRoundSteps()
    {
        QFETCH(qint64, from);
        QFETCH(qint64, to);
        QFETCH(int, maxTicks);
        QFETCH(qint64, step);
        QFETCH(qint64, tickFrom);
        QFETCH(int, count);
        const TimeTicks ticks = roundTimeTicks(from, to, maxTicks);
        QCOMPARE(ticks.stepMs, step);
        QCOMPARE(ticks.fromMs, tickFrom);
        QCOMPARE(ticks.count, count);
        QVERIFY(ticks.fromMs <= from && ticks.toMs >= to);
        QCOMPARE(ticks.toMs, ticks.fromMs + step * (count - 1));
    }

    void awsCliLines_runOnACleanMachine()
    {
        const QString line = awsCliLine(QStringLiteral("http://127.0.0.1:9911"), QStringLiteral("us-east-1"),
                                        QStringLiteral("sqs list-queues"));
        QCOMPARE(line, QStringLiteral("AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test aws --endpoint-url "
                                      "http://127.0.0.1:9911 --region us-east-1 sqs list-queues"));
    }

    void sendDialog_editAndResendNamesTheMessage_andAnErrorMovesNothing()
    {
        MessageTestBroker broker(m_dir, "send.db");
        QVERIFY(broker.createQueue("orders"));
        SendMessageDialog dialog(broker.service(), QStringLiteral("orders"));
        SendRequest request;
        request.body = "hello";
        dialog.setMessage(request, QStringLiteral("Message 6f44ec9d"));
        QCOMPARE(dialog.findChild<QComboBox *>(QStringLiteral("template"))->currentText(), QStringLiteral("Message 6f44ec9d"));
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QPushButton *send = dialog.findChild<QPushButton *>(QStringLiteral("send"));
        QWidget *delay = dialog.findChild<QWidget *>(QStringLiteral("delaySeconds"));
        const QPoint sendAt = send->mapTo(&dialog, QPoint());
        const QPoint delayAt = delay->mapTo(&dialog, QPoint());
        const QSize size = dialog.size();
        dialog.findChild<FieldError *>(QStringLiteral("bodyError"))->setMessage(QStringLiteral("The body is empty."));
        QCoreApplication::processEvents();
        QCOMPARE(send->mapTo(&dialog, QPoint()), sendAt);
        QCOMPARE(delay->mapTo(&dialog, QPoint()), delayAt);
        QCOMPARE(dialog.size(), size);
    }

    void preferences_showTheDatabaseFolderWhole()
    {
        PreferencesDialog dialog;
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QLineEdit *folder = dialog.folderEdit();
        const QString shown = folder->text().isEmpty() ? folder->placeholderText() : folder->text();
        QCOMPARE(folder->toolTip(), shown);
        QVERIFY2(folder->width() >= folder->fontMetrics().horizontalAdvance(shown),
                 qPrintable(QStringLiteral("%1 px for %2").arg(folder->width()).arg(shown)));
    }
};

RELAYDESK_TEST_MAIN(WordsAndNumbersTest)
#include "words_and_numbers_test.moc"
