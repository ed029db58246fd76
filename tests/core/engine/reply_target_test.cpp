// SPDX-License-Identifier: MIT
// ReplyTarget: a reply produced on another thread reaches its context's
// thread while the context lives, and is dropped — never posted to freed
// memory — when the context or its thread is gone first.
#include "engine/reply_target.h"
#include "engine/sanitizer_handoff.h"
#include "support/queued_call_counter.h"
#include "support/test_main.h"

#include <QCoreApplication>
#include <QObject>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

using namespace relaydesk;
using relaydesk::testing::QueuedCallCounter;

class ReplyTargetTest : public QObject {
    Q_OBJECT

private slots:
    void noContext_runsAtOnceOnTheProducingThread()
    {
        const ReplyTarget target;
        QVERIFY(!target.hasContext());
        QVERIFY(!target.gone());
        const QThread *ranOn = nullptr;
        std::thread producer([&] { target.post([&] { ranOn = QThread::currentThread(); }); });
        producer.join();
        QVERIFY(ranOn != nullptr);
        QVERIFY(ranOn != QThread::currentThread());
    }

    void reply_runsOnTheContextsThread()
    {
        QObject context;
        const ReplyTarget target(&context);
        QVERIFY(target.hasContext());
        QVERIFY(target.livesOn(QThread::currentThread()));
        std::atomic<const QThread *> ranOn{nullptr};
        std::thread producer([&] { target.post([&] { ranOn = QThread::currentThread(); }); });
        producer.join();
        QCOMPARE(ranOn.load(), nullptr); // queued, not run on the producer
        QTRY_COMPARE(ranOn.load(), QThread::currentThread());
    }

    // docs/architecture.md "Replies and contexts": the replies one commit
    // sends to one thread wake it once, in the order they were posted; a
    // context deleted meanwhile still gets none.
    void repliesHeldByABatch_reachTheirThreadAsOneQueuedCall()
    {
        QObject context;
        auto gone = std::make_unique<QObject>();
        const ReplyTarget target(&context);
        const ReplyTarget goneTarget(gone.get());
        QueuedCallCounter counter;
        QCoreApplication::sendPostedEvents();
        QCoreApplication::instance()->installEventFilter(&counter);
        std::vector<int> order;
        bool ranForGone = false;
        std::thread producer([&] {
            const ReplyBatch batch;
            for (int i = 0; i < 5; ++i) {
                target.post([&order, i] { order.push_back(i); });
                if (i == 2)
                    goneTarget.post([&] { ranForGone = true; });
            }
        });
        producer.join();
        gone.reset();
        QCoreApplication::sendPostedEvents();
        QCoreApplication::instance()->removeEventFilter(&counter);
        QCOMPARE(order, (std::vector<int>{0, 1, 2, 3, 4}));
        QVERIFY(!ranForGone);
        QCOMPARE(counter.calls, 1);
    }

    void contextDeletedBeforeThePost_replyDropped()
    {
        auto context = std::make_unique<QObject>();
        const ReplyTarget target(context.get());
        context.reset();
        QVERIFY(target.gone());
        bool ran = false;
        std::thread producer([&] { target.post([&] { ran = true; }); });
        producer.join();
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        QVERIFY(!ran);
    }

    void contextDeletedAfterThePost_replyDropped()
    {
        auto context = std::make_unique<QObject>();
        const ReplyTarget target(context.get());
        bool ran = false;
        std::thread producer([&] { target.post([&] { ran = true; }); });
        producer.join();
        context.reset(); // the reply is queued; its context goes before it runs
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        QVERIFY(!ran);
    }

    // Deletion racing posts from another thread: a reply runs only for a
    // context that lives. The interleaving is the scheduler's; under
    // AddressSanitizer a post that reached a deleted context is reported.
    void contextsDeletedWhilePostsRace_noReplyRunsForADeletedContext()
    {
        constexpr int kContexts = 2000;
        std::vector<std::unique_ptr<QObject>> contexts;
        std::vector<ReplyTarget> targets;
        for (int i = 0; i < kContexts; ++i) {
            contexts.push_back(std::make_unique<QObject>());
            targets.emplace_back(contexts.back().get());
        }
        std::atomic<int> ranForDeleted{0};
        std::atomic<int> ran{0};
        auto deleted = std::make_shared<std::vector<std::atomic<bool>>>(kContexts);
        std::thread producer([&] {
            for (int i = 0; i < kContexts; ++i)
                targets[i].post([&, deleted, i] {
                    ++ran;
                    if ((*deleted)[i])
                        ++ranForDeleted;
                });
        });
        for (int i = 0; i < kContexts; i += 2) { // every other context goes while posts arrive
            (*deleted)[i] = true;
            contexts[i].reset();
        }
        producer.join();
        QCoreApplication::sendPostedEvents();
        QCOMPARE(ranForDeleted.load(), 0);
        QCOMPARE(ran.load(), kContexts / 2);
    }

    void contextsThreadEnded_replyDropped()
    {
        QThread worker;
        QObject helper;
        helper.moveToThread(&worker);
        std::unique_ptr<ReplyTarget> target;
        worker.start();
        sanitizer_handoff::queueAndWait(&helper, [&] {
            auto context = std::make_unique<QObject>(); // made and deleted on the worker
            target = std::make_unique<ReplyTarget>(context.get());
        });
        QVERIFY(target->livesOn(&worker));
        QVERIFY(target->gone());
        worker.quit();
        QVERIFY(worker.wait());
        std::atomic<bool> ran{false};
        target->post([&] { ran = true; });
        QCoreApplication::sendPostedEvents();
        QVERIFY(!ran);
    }
};

RELAYDESK_TEST_MAIN(ReplyTargetTest)
#include "reply_target_test.moc"
