// SPDX-License-Identifier: MIT
#pragma once
// Internal to the Zaqar route files: a route's work as one unit on the broker.

#include "api/zaqar/zaqar_api.h"

#include "broker/broker_error.h"
#include "broker/broker_identity.h"
#include "broker/id_source.h"
#include "broker/result.h"
#include "engine/broker_service.h"
#include "engine/unit_context.h"

#include <any>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk::zaqar {

// The answer a route computes inside its unit. A ZaqarAnswer value commits
// what the body wrote; a BrokerError rolls it back and is answered as
// brokerAnswer() maps it.
using UnitBody = std::function<Result<ZaqarAnswer>(UnitContext &, const BrokerIdentity &, IdSource &,
                                                   std::vector<std::string> &wake)>;

// A broker refusal in Zaqar's shape: 400 with the broker's message for a
// client's mistake, 404 for an unknown entity, 503 for the rest.
ZaqarAnswer brokerAnswer(const BrokerError &error);

// A refusal that rolls the unit back and answers 400 (Invalid API request) with `description`.
BrokerError badRequest(std::string description);

// Runs `body` as one unit (BrokerService::runUnit) and replies with its answer.
void answerInUnit(const ZaqarContext &context, const ZaqarReply &reply, UnitBody body, bool wakesDeliveries = false);

// The same for a route on queue `name`: `body` gets the queue's id, or
// nothing when there is no such queue.
using QueueBody = std::function<Result<ZaqarAnswer>(UnitContext &, const BrokerIdentity &, IdSource &,
                                                    std::vector<std::string> &wake, std::optional<std::int64_t> queueId)>;
void answerOnQueue(const ZaqarContext &context, const ZaqarReply &reply, const std::string &name, QueueBody body,
                   bool wakesDeliveries = false);

// The same after the queue's messages went in chunks of their own
// (BrokerService::emptyQueuesInChunks; docs/reliability.md "Bulk removals"):
// for deleting or purging a queue of any size. `body` runs in a unit after
// the last chunk; a message sent meanwhile may still be there.
void answerOnQueueAfterEmptying(const ZaqarContext &context, const ZaqarReply &reply, const std::string &name,
                                QueueBody body, bool wakesDeliveries = false);

// Reports that the queue's message counts changed.
void reportQueueCounts(UnitContext &unit, const std::string &name);

// ?limit= of a page: 1–20, default 10; the 400 in `refusal` otherwise.
std::optional<std::int64_t> pageLimit(const ZaqarRequest &request, std::optional<ZaqarAnswer> &refusal);

// Whether the request is on /v2/queues/NAME/RESOURCE[/ID].
bool onQueueResource(const ZaqarRequest &request, std::string_view resource);

// The request's queue name (path segment 1) checked: nothing when valid.
std::optional<ZaqarAnswer> queueNameRefusal(const std::string &name);

// "/v2/queues/NAME".
std::string queuePath(const std::string &name);

// The 404 of an unknown queue.
ZaqarAnswer queueNotFound(const std::string &name, const std::string &project);


// A message as Zaqar shows it (format_message): id, href (with ?claim_id=
// when claimed), ttl, age, body.
nlohmann::json messageJson(const std::string &queueName, const std::string &id, const std::string &bodyText,
                           std::int64_t sentMs, std::optional<std::int64_t> expiresMs, const std::string &claimId,
                           std::int64_t nowMs);

// ?NAME= as an integer within [low, high]; `fallback` when absent. The 400's
// description in `refusal` otherwise.
std::optional<std::int64_t> integerParam(const ZaqarRequest &request, const char *name, std::int64_t fallback,
                                         std::int64_t low, std::int64_t high, const std::string &description,
                                         std::optional<ZaqarAnswer> &refusal);
bool flagParam(const ZaqarRequest &request, const char *name);
// ?NAME=a,b,c; nothing when absent.
std::optional<std::vector<std::string>> listParam(const ZaqarRequest &request, const char *name);

} // namespace relaydesk::zaqar

namespace relaydesk::zaqar_routes {
// The DELETEs of …/messages (zaqar_message_deletes.cpp).
void deleteMessage(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply);
void deleteOrPop(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply);
} // namespace relaydesk::zaqar_routes
