// SPDX-License-Identifier: MIT
// sanitizer_handoff: each hand-off is the plain Qt call it wraps — a queued
// call runs on the receiver's thread, a blocking one has run when it
// returns, a pool task runs on a pool thread — and a call dropped unrun (its
// receiver deleted first) is destroyed, not leaked. Under ThreadSanitizer
// (installer/dev.sh check-sanitizers) the same tests prove the annotations:
// each side's plain writes are read on the other without a report.
#include "engine/sanitizer_handoff.h"
#include "support/test_main.h"

#include <QCoreApplication>
#include <QObject>
#include <QTest>
#include <QThread>
#include <QThreadPool>

#include <atomic>
#include <memory>
#include <string>
#include <thread>

using namespace relaydesk;

class SanitizerHandoffTest : public QObject {
    Q_OBJECT

private slots:
    void queue_runsOnTheReceiversThread_seesTheSendersWrites()
    {
        QObject receiver;
        std::string written; // plain data: written by the sender, read by the receiver
        const QThread *ranOn = nullptr;
        std::string seen;
        std::thread sender([&] {
            written = "from the sender";
            sanitizer_handoff::queue(&receiver, [&] {
                ranOn = QThread::currentThread();
                seen = written;
            });
        });
        sender.join();
        QCOMPARE(ranOn, nullptr); // queued, not run on the sender
        QCoreApplication::sendPostedEvents(&receiver);
        QCOMPARE(ranOn, QThread::currentThread());
        QCOMPARE(seen, std::string("from the sender"));
    }

    void queueAndWait_returnsAfterTheCallRan_seesItsWrites()
    {
        QThread worker;
        QObject helper;
        helper.moveToThread(&worker);
        worker.start();
        std::string written;
        const QThread *ranOn = nullptr;
        sanitizer_handoff::queueAndWait(&helper, [&] {
            ranOn = QThread::currentThread();
            written = "from the worker";
        });
        QCOMPARE(ranOn, &worker);
        QCOMPARE(written, std::string("from the worker"));
        worker.quit();
        QVERIFY(worker.wait());
    }

    void startOnPool_runsOnAPoolThread_andItsReplyComesBack()
    {
        QThreadPool pool;
        QObject receiver;
        std::string written;
        std::atomic<const QThread *> workedOn{nullptr};
        std::atomic<bool> replied{false};
        sanitizer_handoff::startOnPool(pool, [&] {
            written = "from the pool";
            workedOn = QThread::currentThread();
            sanitizer_handoff::queue(&receiver, [&] { replied = true; });
        });
        QVERIFY(pool.waitForDone());
        QTRY_VERIFY(replied.load());
        QVERIFY(workedOn.load() != nullptr);
        QVERIFY(workedOn.load() != QThread::currentThread());
        QCOMPARE(written, std::string("from the pool"));
    }

    void receiverDeletedFirst_callDroppedAndFreed()
    {
        auto receiver = std::make_unique<QObject>();
        auto owned = std::make_shared<int>(7); // held by the call only
        std::weak_ptr<int> watch = owned;
        bool ran = false;
        std::thread sender([&, owned = std::move(owned)] {
            sanitizer_handoff::queue(receiver.get(), [&ran, owned] { ran = *owned == 7; });
        });
        sender.join();
        receiver.reset(); // drops the posted call with it
        QCoreApplication::sendPostedEvents();
        QVERIFY(!ran);
        QVERIFY(watch.expired());
    }
};

RELAYDESK_TEST_MAIN(SanitizerHandoffTest)
#include "sanitizer_handoff_test.moc"
