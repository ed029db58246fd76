// SPDX-License-Identifier: MIT
#pragma once

#include "broker/zaqar/zaqar_store.h"
#include "engine/broker_service.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

class QObject;

namespace relaydesk {

// What the window shows of a Zaqar queue (docs/window.md "Zaqar queues"):
// its metadata as stored, the claims live now and its subscriptions (with
// their options, where _retry_policy lives). Plain value type.
struct ZaqarQueueFacts {
    nlohmann::json metadata = nlohmann::json::object();
    std::int64_t liveClaims = 0;
    std::vector<zaqar_store::SubscriptionEntry> subscriptions;   // unexpired, by uuid (at most kMaxSubscriptions)
    static constexpr int kMaxSubscriptions = 100;
};

namespace zaqar_queue_calls {

// Reads the facts of Zaqar queue `name` in one unit (a read: reports
// nothing); nothing when no standard queue has that name. Replied to
// `context`'s thread. Any thread.
void readFacts(BrokerService &service, std::string name, QObject *context,
               std::function<void(Result<std::optional<ZaqarQueueFacts>>)> reply);

} // namespace zaqar_queue_calls

} // namespace relaydesk
