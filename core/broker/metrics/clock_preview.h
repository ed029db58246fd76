// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relaydesk {

class Database;

// What a move of the virtual clock would do (docs/behaviour.md §7.1, the
// window's Next event): the earliest pending delivery attempt and the
// earliest message expiry after `now`, and how many messages of which
// queues expire up to a time. Reads only; store failures as InternalError.
// Thread of `db`.
struct ExpiringMessages {
    std::string queue;
    std::int64_t messages = 0;

    bool operator==(const ExpiringMessages &) const = default;
};

struct ClockEvents {
    std::optional<ClockTime> nextDelivery; // a pending HTTP/S delivery attempt falls due
    std::string deliveryEndpoint;          // its subscription's endpoint
    std::optional<ClockTime> nextExpiry;   // a stored message's time to live ends
    std::string expiryQueue;               // that message's queue

    bool operator==(const ClockEvents &) const = default;
};

// The earliest delivery attempt and expiry due after `now`; O(1) along the
// due-time indexes.
Result<ClockEvents> readClockEvents(Database &db, ClockTime now);

// The messages whose expiry has come by `to` (an in-flight one only once its
// lock ends, as message_lifetime expires them), per queue by name.
// O(those messages).
Result<std::vector<ExpiringMessages>> readExpiringBy(Database &db, ClockTime to);

} // namespace relaydesk
