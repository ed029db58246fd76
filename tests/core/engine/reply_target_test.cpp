// SPDX-License-Identifier: MIT
// ReplyTarget: a reply produced on another thread reaches its context's
// thread while the context lives, and is dropped — never posted to freed
// memory — when the context or its thread is gone first.
#include "engine/reply_target.h"
#include "engine/sanitizer_handoff.h"
#include "support/test_main.h"

#include <QCoreApplication>
#include <QEvent>
#include <QObject>
#include <QTest>
#include <QThread>

#include <atomic>
#include <memory>
#include <string>
#include <vector>
#include <thread>

using namespace relaydesk;

namespace {
// Counts the events of one type any object receives while installed on the application.
class EventCounter final : public QObject {
public:
    EventCounter(QEvent::Type type, int &count) : m_type(type), m_count(count) {}
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == m_type)
            ++m_count;
        return false;
    }

private:
    QEvent::Type m_type;
    int &m_count;
};
} // namespace

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

    // A burst of replies from another thread costs one event on the context's
    // thread (the mailbox's drain), and they run in the order posted.
    void burstOfReplies_oneEventAndInOrder()
    {
        QObject context;
        const ReplyTarget target(&context);
        std::vector<int> order;
        std::thread producer([&] {
            for (int i = 0; i < 1000; ++i)
                target.post([&order, i] { order.push_back(i); });
        });
        producer.join();
        int metaCallEvents = 0;
        EventCounter counter(QEvent::MetaCall, metaCallEvents);
        QCoreApplication::instance()->installEventFilter(&counter);
        QCoreApplication::sendPostedEvents();
        QCoreApplication::instance()->removeEventFilter(&counter);
        QCOMPARE(metaCallEvents, 1);
        QCOMPARE(order.size(), std::size_t(1000));
        for (int i = 0; i < 1000; ++i)
            QCOMPARE(order[std::size_t(i)], i);
    }

    // A reply that runs a nested event loop does not hold back the replies
    // after it, and those posted meanwhile keep their order.
    void replyWithNestedEventLoop_laterRepliesRunInOrder()
    {
        QObject context;
        const ReplyTarget target(&context);
        std::vector<std::string> order;
        std::thread producer([&] {
            target.post([&] {
                order.push_back("a begins");
                target.post([&] { order.push_back("c"); }); // from the context's own thread
                QCoreApplication::sendPostedEvents();        // a nested loop's work
                order.push_back("a ends");
            });
            target.post([&] { order.push_back("b"); });
        });
        producer.join();
        QCoreApplication::sendPostedEvents();
        QCoreApplication::sendPostedEvents();
        const std::vector<std::string> expected = {"a begins", "b", "c", "a ends"};
        QCOMPARE(order, expected);
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
