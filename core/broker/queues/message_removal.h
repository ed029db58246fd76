// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

// The window's Delete of chosen messages that it holds no receipt handle for
// (docs/window.md "Messages"): removes the messages of `queueName` with these
// MessageIds whatever their state — available, in flight (the consumer
// holding one finds it gone: its own delete succeeds, as for a message already
// deleted), delayed, scheduled, expired or dead-lettered. It stands for a receive and a delete
// in one unit, without the receive's side effects (no receive count, no
// dead-lettering). Answers how many were removed; an id not in the queue is
// not counted. Errors: QueueDoesNotExist. Inside the caller's transaction;
// thread of `db`.
Result<std::int64_t> deleteMessagesById(Database &db, std::string_view queueName,
                                        const std::vector<std::string> &messageIds);

} // namespace relaydesk
