// SPDX-License-Identifier: MIT
#pragma once
// The power-loss and I/O-fault tests' broker: a BrokerEngine on a virtual
// clock over a database file (opened through Database::open, so through the
// test VFS once installed), a DeliveryWorker, a BrokerService and a scripted
// HTTP endpoint on loopback; and a scenario run through the service's normal
// calls — sends single and batched, receives, deletes single and batched,
// publishes (single and batched) fanned out to a queue and to the HTTP
// endpoint (answering 500, so retries stay pending), queue attribute
// changes, a config import, dead letters moved back — that records in a
// Ledger what was acknowledged (the reply said OK) and what was refused.
// ledger_checks.h states what must then hold in the file.

#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "engine/delivery_worker.h"
#include "support/script_endpoint.h"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace relaydesk::durability {

// What the scenario's client was told.
struct Ledger {
    struct Sent {
        std::string queue;
        std::string messageId;            // empty for a fan-out copy (it gets its own id)
        std::string group;                // FIFO
        std::int64_t sequenceNumber = -1; // FIFO
    };
    std::map<std::string, Sent> live;        // acknowledged bodies not deleted since
    std::set<std::string> deleted;           // bodies whose delete was acknowledged
    std::map<std::string, int> receives;     // acknowledged receives of each body of "work"
    std::set<std::string> refused;           // bodies of sends/publishes answered with an error
    std::set<std::string> uncertain;         // bodies an unanswered delete or move may have changed (a crash)
    std::set<std::string> queues;            // queues whose creation (or import) was acknowledged
    std::set<std::string> refusedQueues;     // queues of an import answered with an error
    std::vector<std::string> publishedIds;   // acknowledged publishes (to the HTTP subscription)
    std::optional<int> visibilityTimeout;    // of "work": the last acknowledged value
    std::optional<int> visibilityInFlight;   // the value of a change that got no acknowledgement
    std::int64_t acknowledged = 0;           // operations acknowledged
    std::vector<std::string> errors;         // "step: name message" of each refused operation
};

class ScenarioBroker final {
public:
    ScenarioBroker();
    ~ScenarioBroker();

    // Opens (or reopens) `path`; false with `error` when Database::open refused it.
    bool open(const std::string &path, std::string *error);
    // Detaches and stops the worker, the service and the engine (idempotent).
    void close();

    BrokerEngine &engine() { return *m_engine; }
    BrokerService &service() { return *m_service; }
    testing::ScriptEndpoint &endpoint() { return m_endpoint; }
    const std::string &httpEndpoint() const { return m_url; }

private:
    SystemWallTimeSource m_wall;
    testing::ScriptEndpoint m_endpoint{nullptr};
    std::string m_url;
    std::unique_ptr<BrokerEngine> m_engine;
    std::unique_ptr<DeliveryWorker> m_worker;
    std::unique_ptr<BrokerService> m_service;
};

// A migrated, cleanly closed database at `path` (its WAL checkpointed away),
// which each run copies; false with `error` when Database::open refused.
bool makeTemplateDatabase(const std::string &path, std::string *error);
// Copies the template over `to`, removing `to`'s -wal and -shm first.
bool copyTemplateDatabase(const std::string &from, const std::string &to);

// Runs the scenario (`rounds` rounds after the set-up) on an open broker.
// stopAtFirstError: return at the first refused operation (a crash: nothing
// after it can succeed); otherwise go on, recording each refusal.
// `afterSetUp` (may be null) runs once the queues, topic and subscriptions are made.
void runScenario(ScenarioBroker &broker, int rounds, bool stopAtFirstError, Ledger &ledger,
                 const std::function<void()> &afterSetUp = nullptr);

} // namespace relaydesk::durability
