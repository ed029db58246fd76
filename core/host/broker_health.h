// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "http/http_reply.h"

#include <atomic>
#include <string>

namespace relaydesk {

class Clock;

// What GET /health answers (docs/api.md "Health"), for container
// health checks and scripts:
//   200 {"status": "ready", "version", "region", "account", "endpoint",
//        "clock": {"mode", "scale", "now", "nowMs"}, "database"}
//   503 the same with "status": "starting" (before the config file is
//        applied and the delivery worker runs) or "stopping" (after SIGINT/SIGTERM)
//   405 for a method other than GET/HEAD.
// Ownership: borrows the clock, which must outlive it. Thread: reply() and
// setState() from any thread (the state is atomic).
class BrokerHealth final {
public:
    enum class State { Starting, Ready, Stopping };

    BrokerHealth(const Clock &clock, BrokerIdentity identity, std::string database);

    void setState(State state) { m_state.store(state); }
    State state() const { return m_state.load(); }
    // The answer to a request with `method` ("GET", "HEAD", …).
    HttpReply reply(const std::string &method) const;

private:
    const Clock &m_clock;
    const BrokerIdentity m_identity;
    const std::string m_database;
    std::atomic<State> m_state{State::Starting};
};

} // namespace relaydesk
