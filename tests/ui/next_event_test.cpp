// SPDX-License-Identifier: MIT
// The clock's Next event (docs/window.md "The clock"): before the press the
// status bar says what falls due and when; a jump longer than an hour, or one
// that expires messages, asks first and names how many messages of which
// queues expire; declined, nothing moves. The broker time sits in the status bar.
#include "views/clock_toolbar.h"
#include "views/main_window.h"
#include "views/next_event_text.h"
#include "engine/broker_engine.h"
#include "support/test_main.h"
#include "window_test_support.h"

#include <QAccessible>
#include <QAction>
#include <QLabel>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QStatusBar>
#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

constexpr int kWaitMs = 10000;

} // namespace

class NextEventTest final : public QObject {
    Q_OBJECT

private:
    TestBroker m_broker;
    ClockTime now() { return m_broker.host->engine().clock().now(); }

private slots:
    void init()
    {
        m_broker.host.reset();
        QVERIFY(m_broker.dir.isValid());
        QFile::remove(m_broker.databasePath());
        QVERIFY(m_broker.start());
    }

    void brokerTime_isInTheStatusBar()
    {
        MainWindow window;
        auto *time = window.statusBar()->findChild<QLabel *>(QStringLiteral("clockTime"));
        QVERIFY(time);
        QCOMPARE(time->accessibleName(), QStringLiteral("Broker time: no broker"));
        QVERIFY(!window.findChild<ClockToolbar *>()->isAncestorOf(time));
    }

    // What the label says, and whether the press asks, per kind of next event.
    void nextEvent_saysWhatAndWhenAndAsksWhenItShould_data()
    {
        QTest::addColumn<int>("retentionSeconds"); // 0: no expiring message
        QTest::addColumn<int>("dueInSeconds");     // a message due (delay, lock) this far on; 0: none
        QTest::addColumn<QString>("label");
        QTest::addColumn<QString>("question");     // empty: moves without asking
        QTest::addColumn<int>("movedBy");
        QTest::newRow("a delay ends in 30 s: moves at once")
            << 0 << 30 << QStringLiteral("Next: a message of later becomes available at %1 (+30 s)") << QString() << 30;
        QTest::newRow("a delay ends in 2 h: asks")
            << 0 << 7200 << QStringLiteral("Next: a message of later becomes available at %1 (+2 h)")
            << QStringLiteral("Move the virtual clock 2 h on, to %1 UTC? Next due there: a message of later becomes "
                              "available.")
            << 7200;
        QTest::newRow("messages expire in 1 min: asks, naming them")
            << 60 << 0 << QStringLiteral("Next: messages of billing expire at %1 (+1 min)")
            << QStringLiteral("Move the virtual clock 1 min on, to %1 UTC? Next due there: messages of billing "
                              "expire.\n\n1 message of billing and 2 messages of orders expire on the way.")
            << 60;
    }

    void nextEvent_saysWhatAndWhenAndAsksWhenItShould()
    {
        QFETCH(int, retentionSeconds);
        QFETCH(int, dueInSeconds);
        QFETCH(QString, label);
        QFETCH(QString, question);
        QFETCH(int, movedBy);
        if (retentionSeconds > 0) {
            const AttributeMap retention{{"MessageRetentionPeriod", std::to_string(retentionSeconds)}};
            QVERIFY(m_broker.createQueue("billing", retention).ok());
            QVERIFY(m_broker.createQueue("orders", retention).ok());
            QVERIFY(m_broker.send("billing", "b").ok());
            QVERIFY(m_broker.send("orders", "o1").ok());
            QVERIFY(m_broker.send("orders", "o2").ok());
        }
        const ClockTime start = now();
        const ClockTime due = start + std::chrono::seconds(dueInSeconds);
        ClockToolbar clock;
        clock.setEngine(&m_broker.host->engine(), [&]() -> std::optional<MessageDue> {
            if (dueInSeconds == 0 || now() >= due)
                return std::nullopt;
            return MessageDue{due, "later"};
        });
        const ClockTime target = start + std::chrono::seconds(movedBy);
        const QString hhmmss = next_event_text::when(target, start);
        const QString full = QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(target), Qt::UTC)
                                 .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        QTRY_COMPARE_WITH_TIMEOUT(clock.nextEventLabel()->accessibleName(), label.arg(hhmmss), kWaitMs);
        // Shown whole or elided in the middle: the start and the time stay.
        const QString shown = clock.nextEventLabel()->text();
        QVERIFY2(shown == label.arg(hhmmss) || (shown.contains(QChar(0x2026)) && shown.startsWith(QLatin1String("Next: "))
                                               && label.arg(hhmmss).endsWith(shown.mid(shown.indexOf(QChar(0x2026)) + 1))),
                 qPrintable(shown));
        QCOMPARE(clock.nextEventLabel()->toolTip(), label.arg(hhmmss));
        QVERIFY(clock.stepNextAction()->toolTip().contains(label.arg(hhmmss)));

        if (!question.isEmpty()) {
            // Declined: the clock stays and every message is still there.
            clock.stepNextAction()->trigger();
            QMessageBox *box = nullptr;
            QTRY_VERIFY_WITH_TIMEOUT((box = clock.findChild<QMessageBox *>(QStringLiteral("nextEventConfirmation"))),
                                     kWaitMs);
            QCOMPARE(box->text(), question.arg(full));
            const QPointer<QMessageBox> declined = box;
            box->reject();
            QTRY_VERIFY_WITH_TIMEOUT(!declined, kWaitMs);
            QCOMPARE(now(), start);
            // Accepted: it moves to exactly the time it named.
            clock.stepNextAction()->trigger();
            QTRY_VERIFY_WITH_TIMEOUT((box = clock.findChild<QMessageBox *>(QStringLiteral("nextEventConfirmation"))),
                                     kWaitMs);
            box->findChild<QPushButton *>(QStringLiteral("confirmNextEvent"))->click();
        } else {
            clock.stepNextAction()->trigger();
            QVERIFY(!clock.findChild<QMessageBox *>(QStringLiteral("nextEventConfirmation")));
        }
        QTRY_COMPARE_WITH_TIMEOUT(now(), target, kWaitMs);
    }
};

RELAYDESK_TEST_MAIN(NextEventTest)
#include "next_event_test.moc"
