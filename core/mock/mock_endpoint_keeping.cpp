// SPDX-License-Identifier: MIT
// MockEndpoints kept in the broker's store (docs/behaviour.md §4.7): loading,
// adopting what a config file stored, and the writes of every change.
#include "mock/mock_endpoints.h"

#include "engine/broker_engine.h"

namespace relaydesk {

Status MockEndpoints::keepIn(BrokerEngine &engine)
{
    Result<std::vector<StoredMockEndpoint>> stored =
        engine.executeAndWait([](Database &db, ClockTime) { return mock_endpoint_records::list(db); });
    if (!stored)
        return stored.error();
    const std::lock_guard lock(m_mutex);
    m_engine = &engine;
    for (const StoredMockEndpoint &endpoint : *stored) {
        Result<MockScript> parsed = parseMockScript(endpoint.script);
        if (parsed) // a stored script was checked before it was written
            m_endpoints.insert_or_assign(endpoint.name, Endpoint{std::move(*parsed), endpoint.requestCount, {}});
    }
    m_revision.fetch_add(1, std::memory_order_release);
    return {};
}

void MockEndpoints::adopt(const std::vector<StoredMockEndpoint> &stored)
{
    const std::lock_guard lock(m_mutex);
    for (const StoredMockEndpoint &endpoint : stored) {
        const auto found = m_endpoints.find(endpoint.name);
        if (found != m_endpoints.end() && found->second.script.text == endpoint.script)
            continue;
        Result<MockScript> parsed = parseMockScript(endpoint.script);
        if (!parsed)
            continue;
        if (found != m_endpoints.end())
            forget(found->second);
        m_endpoints.insert_or_assign(endpoint.name, Endpoint{std::move(*parsed), 0, {}});
    }
    m_revision.fetch_add(1, std::memory_order_release);
}

void MockEndpoints::set(std::string_view name, std::string_view script, QObject *context,
                        std::function<void(Status)> committed)
{
    std::unique_lock lock(m_mutex);
    if (Status refused = setLocked(name, script); !refused) {
        lock.unlock();
        return committed(refused);
    }
    write([](Database &) { return Status(); }, context, std::move(committed)); // after the set's own write
}

void MockEndpoints::remove(std::string_view name, QObject *context, std::function<void(Result<bool>)> committed)
{
    std::unique_lock lock(m_mutex);
    if (!removeLocked(name)) {
        lock.unlock();
        return committed(false);
    }
    write([](Database &) { return Status(); }, context, [committed = std::move(committed)](Status done) {
        committed(done ? Result<bool>(true) : Result<bool>(done.error()));
    });
}

void MockEndpoints::write(std::function<Status(Database &)> change, QObject *context, std::function<void(Status)> done)
{
    if (m_engine == nullptr) {
        if (done)
            done({});
        return;
    }
    m_engine->execute([change = std::move(change)](Database &db, ClockTime) { return change(db); }, context,
                      [done = std::move(done)](Status written) {
                          if (done)
                              done(std::move(written));
                      });
}

} // namespace relaydesk
