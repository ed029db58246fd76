// SPDX-License-Identifier: MIT
#include "host/broker_health.h"

#include "broker/clock.h"
#include "api/native/native_api.h"

#include <nlohmann/json.hpp>

namespace relaydesk {

namespace {

const char *stateName(BrokerHealth::State state)
{
    switch (state) {
    case BrokerHealth::State::Starting: return "starting";
    case BrokerHealth::State::Ready: return "ready";
    case BrokerHealth::State::Stopping: return "stopping";
    }
    return "starting";
}

} // namespace

BrokerHealth::BrokerHealth(const Clock &clock, BrokerIdentity identity, std::string database)
    : m_clock(clock), m_identity(std::move(identity)), m_database(std::move(database))
{
}

HttpReply BrokerHealth::reply(const std::string &method) const
{
    if (method != "GET" && method != "HEAD") {
        const nlohmann::json error = {{"error", "MethodNotAllowed"}, {"message", method + " is not allowed on /health."}};
        return HttpReply{405, "application/json", {{"Allow", "GET, HEAD"}}, QByteArray::fromStdString(error.dump())};
    }
    const State state = m_state.load();
    const nlohmann::json body = {{"status", stateName(state)},
                                 {"version", RELAYDESK_VERSION},
                                 {"region", m_identity.region},
                                 {"account", m_identity.accountId},
                                 {"endpoint", m_identity.endpoint},
                                 {"clock", native_routes::clockJson(m_clock)},
                                 {"database", m_database}};
    return HttpReply{state == State::Ready ? 200 : 503, "application/json", {}, QByteArray::fromStdString(body.dump())};
}

} // namespace relaydesk
