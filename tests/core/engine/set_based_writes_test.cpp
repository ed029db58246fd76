// SPDX-License-Identifier: MIT
// The sends of one commit written set-based (docs/architecture.md §4
// "Set-based sends", PendingSends): each unit keeps its own outcome — one
// refused by validation or by a constraint among good ones fails alone — and
// the queues' kept counters equal a full count after a mixed batch; the same
// for the deletes of one commit (written one by one: the set-based deletes
// were measured slower and dropped).
#include "engine/broker_service.h"

#include "broker/queues/queue_depths.h"
#include "broker/store_calls.h"
#include "engine/broker_engine.h"
#include "support/engine_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <algorithm>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::testing;

class SetBasedWritesTest final : public QObject {
    Q_OBJECT

private:
    ServiceBenchSeries m_benches{"sends"};

    BrokerEngine &engine() { return m_benches.bench().engine(); }
    BrokerService &service() { return m_benches.bench().service(); }

    // Sends (queue, body) pairs in one commit: the broker thread is held until
    // all are submitted. Answers each body's error message ("" when sent).
    std::map<std::string, std::string> sendInOneCommit(const std::vector<std::pair<std::string, std::string>> &sends)
    {
        std::promise<void> release;
        std::shared_future<void> held = release.get_future().share();
        engine().post([held] { held.wait(); });
        std::map<std::string, std::string> outcomes;
        for (const auto &[queue, body] : sends)
            service().sendMessage(queue, message(body), this, [&outcomes, body = body](Result<SendReceipt> sent) {
                outcomes[body] = sent ? std::string() : sent.error().message;
            });
        release.set_value();
        if (!QTest::qWaitFor([&] { return outcomes.size() == sends.size(); }, kWaitMs))
            qWarning("not every send answered");
        return outcomes;
    }

    // The queue's kept counters and a full count, both at the clock's now.
    std::pair<QueueCounts, QueueCounts> keptAndCounted(const std::string &queue)
    {
        auto both = engine().executeAndWait(
            [queue](Database &db, ClockTime now) -> Result<std::pair<QueueCounts, QueueCounts>> {
                auto id = selectOptionalInt64(db, "SELECT id FROM queues WHERE name = ?", queue);
                if (!id)
                    return id.error();
                auto kept = queue_depths::read(db, id->value_or(0), now);
                auto counted = queue_depths::countEveryMessage(db, id->value_or(0), now);
                if (!kept || !counted)
                    return BrokerError(BrokerErrorCode::InternalError, "no depths");
                return std::make_pair(kept->counts, counted->counts);
            });
        return both ? *both : std::pair<QueueCounts, QueueCounts>{};
    }

    std::vector<std::string> receiveAll(const std::string &queue)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = 10;
        auto received = callAndWait<ReceiveResult>([&](auto reply) { service().receiveMessage(queue, request, nullptr, reply); });
        std::vector<std::string> bodies;
        if (received)
            for (const auto &m : received->messages)
                bodies.push_back(m.body);
        std::sort(bodies.begin(), bodies.end());
        return bodies;
    }

    // Deletes by the given receipt handles in one commit; answers each
    // handle's error message ("" when deleted).
    std::vector<std::string> deleteInOneCommit(const std::string &queue, const std::vector<std::string> &handles)
    {
        std::promise<void> release;
        std::shared_future<void> held = release.get_future().share();
        engine().post([held] { held.wait(); });
        std::vector<std::optional<std::string>> outcomes(handles.size());
        for (std::size_t i = 0; i < handles.size(); ++i)
            service().deleteMessage(queue, handles[i], this, [&outcomes, i](Status deleted) {
                outcomes[i] = deleted ? std::string() : deleted.error().message;
            });
        release.set_value();
        const auto answered = [&] {
            return std::all_of(outcomes.begin(), outcomes.end(), [](const auto &o) { return o.has_value(); });
        };
        if (!QTest::qWaitFor(answered, kWaitMs))
            qWarning("not every delete answered");
        std::vector<std::string> messages;
        for (const auto &o : outcomes)
            messages.push_back(o.value_or("no answer"));
        return messages;
    }

    // Receives every message of `queue` (up to 10): their receipt handles by body.
    std::map<std::string, std::string> receiveHandles(const std::string &queue)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = 10;
        auto received = callAndWait<ReceiveResult>([&](auto reply) { service().receiveMessage(queue, request, nullptr, reply); });
        std::map<std::string, std::string> handles;
        if (received)
            for (const auto &m : received->messages)
                handles[m.body] = m.receiptHandle;
        return handles;
    }

    bool createTrigger(const std::string &sql)
    {
        return engine().executeAndWait([sql](Database &db, ClockTime) -> Result<bool> {
            const Status made = executeStatement(db, sql);
            if (!made)
                return made.error();
            return true;
        }).ok();
    }

private slots:
    void initTestCase() { QVERIFY(m_benches.isValid()); }

    void init()
    {
        m_benches.open();
        QVERIFY(m_benches.bench().createQueue("orders"));
        QVERIFY(m_benches.bench().createQueue("audit"));
    }

    void cleanup() { m_benches.close(); }

    // A send refused by validation (an empty body) among good ones into two queues.
    void oneInvalidSend_failsAlone_countersRight()
    {
        const auto outcomes = sendInOneCommit({{"orders", "a"}, {"orders", ""}, {"audit", "x"}, {"orders", "b"}});
        QCOMPARE(outcomes.at("a"), std::string());
        QCOMPARE(outcomes.at("b"), std::string());
        QCOMPARE(outcomes.at("x"), std::string());
        QVERIFY(outcomes.at("").find("MessageBody") != std::string::npos);
        QCOMPARE(receiveAll("orders"), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(receiveAll("audit"), (std::vector<std::string>{"x"}));
        for (const char *queue : {"orders", "audit"}) {
            const auto [kept, counted] = keptAndCounted(queue);
            QCOMPARE(kept, counted);
        }
    }

    // A row the store refuses (a constraint: here a trigger) fails only its
    // own send; the batch's other sends commit and are counted.
    void oneRefusedRow_failsAlone_countersRight()
    {
        QVERIFY(createTrigger("CREATE TRIGGER refuse_poison BEFORE INSERT ON messages "
                              "WHEN NEW.body = 'poison' BEGIN SELECT RAISE(ABORT, 'poison refused'); END"));
        const auto outcomes = sendInOneCommit({{"orders", "a"}, {"audit", "x"}, {"orders", "poison"}, {"orders", "b"}});
        QCOMPARE(outcomes.at("a"), std::string());
        QCOMPARE(outcomes.at("b"), std::string());
        QCOMPARE(outcomes.at("x"), std::string());
        QVERIFY2(!outcomes.at("poison").empty(), "the refused row's send answers an error");
        const auto [kept, counted] = keptAndCounted("orders");
        QCOMPARE(kept, counted);
        QCOMPARE(kept.available, std::int64_t(2));
        QCOMPARE(receiveAll("orders"), (std::vector<std::string>{"a", "b"}));
        QCOMPARE(receiveAll("audit"), (std::vector<std::string>{"x"}));
    }

    // A unit that does not defer (a receive) between sends of one commit sees
    // the sends before it, as if each had been written at once.
    void receiveBetweenSends_seesTheSendsBeforeIt()
    {
        std::promise<void> release;
        std::shared_future<void> held = release.get_future().share();
        engine().post([held] { held.wait(); });
        std::optional<Result<ReceiveResult>> received;
        int sent = 0;
        service().sendMessage("orders", message("first"), this, [&sent](Result<SendReceipt> r) { sent += r ? 1 : 0; });
        service().receiveMessage("orders", {}, this, [&received](Result<ReceiveResult> r) { received.emplace(std::move(r)); });
        service().sendMessage("orders", message("second"), this, [&sent](Result<SendReceipt> r) { sent += r ? 1 : 0; });
        release.set_value();
        QTRY_VERIFY_WITH_TIMEOUT(received.has_value() && sent == 2, kWaitMs);
        QVERIFY(received->ok());
        QCOMPARE((*received)->messages.size(), std::size_t(1));
        QCOMPARE((*received)->messages.front().body, std::string("first"));
        const auto [kept, counted] = keptAndCounted("orders");
        QCOMPARE(kept, counted);
    }

    // Deletes of one commit: a handle that is no handle fails alone, a
    // handle whose message is gone succeeds (SQS), the others delete; the
    // counters equal a full count.
    void deletesOfOneCommit_eachKeepsItsOutcome_countersRight()
    {
        sendInOneCommit({{"orders", "a"}, {"orders", "b"}, {"orders", "c"}, {"orders", "d"}});
        const auto handles = receiveHandles("orders");
        QCOMPARE(handles.size(), std::size_t(4));
        QCOMPARE(deleteInOneCommit("orders", {handles.at("a")}), std::vector<std::string>{""});
        const auto outcomes =
            deleteInOneCommit("orders", {handles.at("b"), "not-a-handle", handles.at("a"), handles.at("c")});
        QCOMPARE(outcomes[0], std::string());
        QVERIFY(!outcomes[1].empty());
        QCOMPARE(outcomes[2], std::string());
        QCOMPARE(outcomes[3], std::string());
        const auto [kept, counted] = keptAndCounted("orders");
        QCOMPARE(kept, counted);
        QCOMPARE(kept.inFlight, std::int64_t(1));   // d: received, not deleted
    }

    // A delete the store refuses (a trigger) fails only its own unit.
    void oneRefusedDelete_failsAlone()
    {
        QVERIFY(createTrigger("CREATE TRIGGER keep_poison BEFORE DELETE ON messages "
                              "WHEN OLD.body = 'poison' BEGIN SELECT RAISE(ABORT, 'poison kept'); END"));
        sendInOneCommit({{"orders", "a"}, {"orders", "poison"}, {"orders", "b"}});
        const auto handles = receiveHandles("orders");
        QCOMPARE(handles.size(), std::size_t(3));
        const auto outcomes = deleteInOneCommit("orders", {handles.at("a"), handles.at("poison"), handles.at("b")});
        QCOMPARE(outcomes[0], std::string());
        QVERIFY(!outcomes[1].empty());
        QCOMPARE(outcomes[2], std::string());
        const auto [kept, counted] = keptAndCounted("orders");
        QCOMPARE(kept, counted);
        QCOMPARE(kept.inFlight, std::int64_t(1));
    }
};

RELAYDESK_TEST_MAIN(SetBasedWritesTest)
#include "set_based_writes_test.moc"
