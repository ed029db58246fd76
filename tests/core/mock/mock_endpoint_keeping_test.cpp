// SPDX-License-Identifier: MIT
// MockEndpoints kept in the broker's store (docs/behaviour.md §4.7): what was
// set, replaced and removed is what the next engine on the same database
// loads, in the order it was done; a set with a reply answers after its
// commit; a refused set writes nothing; adopt() takes over what a config
// unit stored.
#include "broker/deliveries/mock_endpoint_records.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "mock/mock_endpoints.h"

#include "support/call_and_wait.h"
#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <memory>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

std::vector<StoredMockEndpoint> storedIn(BrokerEngine &engine)
{
    auto stored = engine.executeAndWait([](Database &db, ClockTime) { return mock_endpoint_records::list(db); });
    return stored ? *stored : std::vector<StoredMockEndpoint>{};
}

} // namespace

class MockEndpointKeepingTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    SystemWallTimeSource m_wall;

    std::unique_ptr<BrokerEngine> engineOn(const char *file)
    {
        return std::make_unique<BrokerEngine>(openDatabase(m_dir, file), m_wall, virtualClockOptions());
    }

private slots:
    void changes_areStoredInOrder_andLoadedByTheNextEngine()
    {
        QVERIFY(m_dir.isValid());
        {
            auto engine = engineOn("kept.db");
            MockEndpoints mocks(engine->clock());
            QVERIFY(mocks.keepIn(*engine));
            QVERIFY(mocks.set("orders-hook", "503 x 5, then 200"));
            QVERIFY(mocks.set("gone", "200"));
            QVERIFY(mocks.remove("gone"));
            QVERIFY(mocks.set("replaced", "429 always"));
            QVERIFY(mocks.set("replaced", "close"));
            // A refused set changes nothing, in memory or stored.
            QVERIFY(!callAndWaitStatus([&](auto reply) { mocks.set("replaced", "503 x", nullptr, reply); }));
            // The reply of the last change comes after every earlier change committed.
            QVERIFY(callAndWaitStatus([&](auto reply) { mocks.set("last", "204", nullptr, reply); }));
            const std::vector<StoredMockEndpoint> expected = {
                {"last", "204", 0}, {"orders-hook", "503 x 5, then 200", 0}, {"replaced", "close", 0}};
            QCOMPARE(storedIn(*engine), expected);
            engine->stop();
        }
        auto engine = engineOn("kept.db");
        MockEndpoints mocks(engine->clock());
        QVERIFY(mocks.list().empty());
        QVERIFY(mocks.keepIn(*engine));
        const std::vector<MockEndpointSummary> loaded = {
            {"last", "204", 0}, {"orders-hook", "503 x 5, then 200", 0}, {"replaced", "close", 0}};
        QCOMPARE(mocks.list(), loaded);
        const Result<bool> removed =
            callAndWait<bool>([&](auto reply) { mocks.remove("last", nullptr, reply); });
        QVERIFY(removed && *removed);
        QCOMPARE(storedIn(*engine).size(), std::size_t(2));
        engine->stop();
    }

    void storedPlaceInTheScript_isWhereALoadedEndpointGoesOn()
    {
        auto engine = engineOn("place.db");
        QVERIFY(engine->executeAndWait([](Database &db, ClockTime) -> Status {
            if (Status put = mock_endpoint_records::put(db, "hook", "503 x 2, then 200"); !put)
                return put;
            return mock_endpoint_records::setRequestCount(db, "hook", "503 x 2, then 200", 2);
        }));
        MockEndpoints mocks(engine->clock());
        QVERIFY(mocks.keepIn(*engine));
        QCOMPARE(mocks.find("hook")->requestCount, std::uint64_t(2));
        // adopt(): an unchanged script goes on where it was; a changed one starts afresh.
        mocks.adopt({{"hook", "503 x 2, then 200", 0}, {"new", "200", 0}});
        QCOMPARE(mocks.find("hook")->requestCount, std::uint64_t(2));
        QVERIFY(mocks.find("new"));
        mocks.adopt({{"hook", "200", 0}});
        QCOMPARE(mocks.find("hook")->requestCount, std::uint64_t(0));
        QCOMPARE(mocks.find("hook")->script, std::string("200"));
        engine->stop();
    }
};

RELAYDESK_TEST_MAIN(MockEndpointKeepingTest)
#include "mock_endpoint_keeping_test.moc"
