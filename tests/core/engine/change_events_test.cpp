// SPDX-License-Identifier: MIT
// Tests of the engine's change events: units report changes, the engine
// coalesces them and emits changesPublished on the engine's thread — only for
// committed units; with a zero interval on the next event-loop turn.
#include "engine/broker_engine.h"

#include "broker/wall_time_source.h"
#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QSignalSpy>
#include <QTest>

#include <atomic>
#include <thread>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {
using Kind = EntityChange::Kind;
using Entity = EntityChange::Entity;

EntityChange change(Kind kind, const char *name, Entity entity = Entity::Queue) { return {kind, entity, QString::fromUtf8(name)}; }

BrokerEngineOptions throttledForever()
{
    BrokerEngineOptions options;
    options.changeInterval = std::chrono::hours(1); // only flushChanges() publishes
    return options;
}

Status reportUnit(BrokerEngine &engine, EntityChange reported)
{
    return engine.executeAndWait([reported](UnitContext &context) -> Status {
        context.reportChange(reported);
        return {};
    });
}

QList<EntityChange> changesOf(const QSignalSpy &spy, int emission) { return spy.at(emission).at(0).value<QList<EntityChange>>(); }
} // namespace

class ChangeEventsTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    SystemWallTimeSource m_wall;

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void hundredChangesToOneQueue_oneEvent()
    {
        BrokerEngine engine(openDatabase(m_dir, "hundred.db"), m_wall, throttledForever());
        QSignalSpy spy(&engine, &BrokerEngine::changesPublished);
        std::atomic<int> ok{0};
        std::vector<std::thread> threads;
        for (int t = 0; t < 4; ++t) {
            threads.emplace_back([&engine, &ok] {
                for (int i = 0; i < 25; ++i)
                    ok.fetch_add(reportUnit(engine, change(Kind::CountsChanged, "orders")).ok() ? 1 : 0);
            });
        }
        for (std::thread &thread : threads)
            thread.join();
        QCOMPARE(ok.load(), 100);
        engine.flushChanges();
        QVERIFY(spy.wait(30000));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(changesOf(spy, 0), QList<EntityChange>{change(Kind::CountsChanged, "orders")});
    }

    void createThenDelete_publishesNothing()
    {
        BrokerEngine engine(openDatabase(m_dir, "cancel.db"), m_wall, throttledForever());
        QSignalSpy spy(&engine, &BrokerEngine::changesPublished);
        QVERIFY(reportUnit(engine, change(Kind::Created, "short-lived", Entity::Topic)).ok());
        QVERIFY(reportUnit(engine, change(Kind::Deleted, "short-lived", Entity::Topic)).ok());
        engine.flushChanges(); // nothing to publish
        QVERIFY(reportUnit(engine, change(Kind::Changed, "marker")).ok());
        engine.flushChanges();
        QVERIFY(spy.wait(30000));
        QCOMPARE(spy.count(), 1);
        QCOMPARE(changesOf(spy, 0), QList<EntityChange>{change(Kind::Changed, "marker")});
    }

    void rejectedUnit_changesNotPublished()
    {
        BrokerEngine engine(openDatabase(m_dir, "rejected.db"), m_wall, throttledForever());
        QSignalSpy spy(&engine, &BrokerEngine::changesPublished);
        const Status rejected = engine.executeAndWait([](UnitContext &context) -> Status {
            context.reportChange(change(Kind::Created, "never"));
            return BrokerError(BrokerErrorCode::QueueAlreadyExists);
        });
        QVERIFY(!rejected.ok());
        engine.publishChanges({change(Kind::Changed, "marker")}); // not from a unit
        engine.flushChanges();
        QVERIFY(spy.wait(30000));
        QCOMPARE(changesOf(spy, 0), QList<EntityChange>{change(Kind::Changed, "marker")});
    }

    void zeroInterval_publishesWithoutFlush_onEngineThread()
    {
        BrokerEngineOptions options;
        options.changeInterval = 0ms;
        BrokerEngine engine(openDatabase(m_dir, "zero.db"), m_wall, options);
        QThread *emittedOn = nullptr;
        connect(&engine, &BrokerEngine::changesPublished, this, [&emittedOn] { emittedOn = QThread::currentThread(); });
        QSignalSpy spy(&engine, &BrokerEngine::changesPublished);
        QVERIFY(reportUnit(engine, change(Kind::Created, "fresh")).ok());
        QVERIFY(spy.wait(30000));
        QCOMPARE(changesOf(spy, 0), QList<EntityChange>{change(Kind::Created, "fresh")});
        QCOMPARE(emittedOn, QThread::currentThread());
    }
};

RELAYDESK_TEST_MAIN(ChangeEventsTest)
#include "change_events_test.moc"
