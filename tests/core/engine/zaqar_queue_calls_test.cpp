// SPDX-License-Identifier: MIT
// What the window reads of a Zaqar queue through the engine
// (zaqar_queue_calls::readFacts; docs/window.md "Zaqar queues"): its stored
// metadata, the claims live now (an ended one not counted), its
// subscriptions with their options; nothing for a queue Zaqar does not know.
#include "broker/zaqar/zaqar_store.h"
#include "engine/unit_context.h"
#include "engine/zaqar_queue_calls.h"

#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <any>

using namespace relaydesk;
using namespace relaydesk::testing;

class ZaqarQueueCallsTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"zaqarcalls"};
    ServiceBench &bench() { return m_benches.bench(); }

    Result<std::optional<ZaqarQueueFacts>> read(const std::string &name)
    {
        return bench().call<std::optional<ZaqarQueueFacts>>(
            [&](auto reply) { zaqar_queue_calls::readFacts(bench().service(), name, nullptr, reply); });
    }

private slots:
    void initTestCase() { QVERIFY(m_benches.isValid()); }
    void init() { m_benches.open(); }
    void cleanup() { m_benches.close(); }

    void readFacts_metadataLiveClaimsSubscriptions()
    {
        QVERIFY(bench().createQueue("jobs"));
        const std::int64_t nowMs = toEpochMilliseconds(kBenchStart);
        auto made = bench().call<std::any>([&](auto reply) {
            bench().service().runUnit(
                [&](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &) -> Result<std::any> {
                    Result<std::optional<std::int64_t>> id = zaqar_store::queueId(unit.database(), "jobs");
                    if (!id || !*id)
                        return BrokerError{};
                    Database &db = unit.database();
                    if (auto put = zaqar_store::putMetadata(db, **id, {{"_max_claim_count", 3}, {"color", "blue"}}, "p"); !put)
                        return put.error();
                    if (auto live = zaqar_store::insertClaim(db, **id, {"live", 60, 60, nowMs, nowMs}); !live)
                        return live.error();
                    if (auto ended = zaqar_store::insertClaim(db, **id, {"ended", 60, 60, nowMs - 120'000, nowMs - 120'000}); !ended)
                        return ended.error();
                    return std::any{};
                },
                false, nullptr, reply);
        });
        QVERIFY2(made.ok(), made ? "" : made.error().message.c_str());
        Result<std::optional<ZaqarQueueFacts>> facts = read("jobs");
        QVERIFY(facts.ok() && facts->has_value());
        QCOMPARE((*facts)->metadata.at("_max_claim_count").get<int>(), 3);
        QCOMPARE((*facts)->metadata.at("color").get<std::string>(), std::string("blue"));
        QCOMPARE((*facts)->liveClaims, std::int64_t(1));
        QVERIFY((*facts)->subscriptions.empty());
    }

    void readFacts_unknownQueue_nothing()
    {
        Result<std::optional<ZaqarQueueFacts>> facts = read("nowhere");
        QVERIFY(facts.ok());
        QVERIFY(!facts->has_value());
    }
};

RELAYDESK_TEST_MAIN(ZaqarQueueCallsTest)
#include "zaqar_queue_calls_test.moc"
