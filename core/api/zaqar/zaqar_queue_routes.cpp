// SPDX-License-Identifier: MIT
// /v2/queues: list, create, get, JSON-patch update, delete, stats, purge
// (docs/behaviour.md §8.5; zaqar/transport/wsgi/v2_0/queues.py, stats.py).
#include "api/zaqar/zaqar_api.h"

#include "api/zaqar/zaqar_binding.h"
#include "api/zaqar/zaqar_rules.h"
#include "broker/zaqar/zaqar_store.h"
#include "api/zaqar/zaqar_unit.h"

#include "broker/queues/bulk_removal.h"
#include "broker/queues/queue_depths.h"
#include "broker/topics/subscription_catalog.h"
#include "broker/topics/topic_catalog.h"

#include <algorithm>

namespace relaydesk::zaqar_routes {

using namespace zaqar;

namespace {

void listQueues(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    std::optional<ZaqarAnswer> refusal;
    const std::optional<std::int64_t> limit = pageLimit(request, refusal);
    if (!limit) {
        reply(*refusal);
        return;
    }
    const std::string marker = request.param("marker").value_or("");
    const bool detailed = flagParam(request, "detailed");
    const bool withCount = flagParam(request, "with_count");
    answerInUnit(context, reply, [=](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &)
                                     -> Result<ZaqarAnswer> {
        auto queues = zaqar_store::queuesAfter(unit.database(), marker, int(*limit));
        if (!queues)
            return queues.error();
        nlohmann::json list = nlohmann::json::array();
        for (const zaqar_store::QueueEntry &queue : *queues) {
            nlohmann::json entry = {{"name", queue.name}, {"href", queuePath(queue.name)}};
            if (detailed)
                entry["metadata"] = withReservedDefaults(queue.metadata);
            list.push_back(std::move(entry));
        }
        nlohmann::json links = nlohmann::json::array();
        if (!queues->empty()) {
            std::string next = "/v2/queues?marker=" + queues->back().name + "&limit=" + std::to_string(*limit);
            if (detailed)
                next += "&detailed=true";
            links.push_back({{"rel", "next"}, {"href", next}});
        }
        nlohmann::json answer = {{"queues", list}, {"links", links}};
        if (withCount) {
            auto all = zaqar_store::queuesAfter(unit.database(), "", INT32_MAX);
            if (!all)
                return all.error();
            answer["count"] = all->size();
        }
        return ZaqarAnswer::json(200, answer);
    });
}

void createQueue(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    const nlohmann::json metadata = request.body.value_or(nlohmann::json::object());
    if (std::optional<std::string> problem = metadataProblem(metadata)) {
        reply(ZaqarAnswer::badRequest(*problem));
        return;
    }
    const std::string name = request.path[1];
    const std::string project = request.projectId;
    answerInUnit(context, reply, [=](UnitContext &unit, const BrokerIdentity &identity, IdSource &,
                                     std::vector<std::string> &) -> Result<ZaqarAnswer> {
        bool created = false;
        if (auto id = zaqar_binding::ensureQueue(unit, identity, name, metadata, project, created); !id)
            return id.error();
        ZaqarAnswer answer = ZaqarAnswer::empty(created ? 201 : 204);
        answer.headers.emplace_back("Location", QByteArray::fromStdString(queuePath(name)));
        return answer;
    });
}

void getQueue(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    const std::string name = request.path[1];
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &,
                                             std::optional<std::int64_t> id) -> Result<ZaqarAnswer> {
        if (!id)   // Zaqar answers an unknown queue's metadata as empty
            return ZaqarAnswer::json(200, withReservedDefaults(nlohmann::json::object()));
        auto metadata = zaqar_store::metadata(unit.database(), *id);
        if (!metadata)
            return metadata.error();
        return ZaqarAnswer::json(200, withReservedDefaults(*metadata));
    });
}

void patchQueue(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    if (!request.jsonPatch) {
        ZaqarAnswer refused = ZaqarAnswer::error(415, "Unsupported media type",
                                                 "Accepted media type for PATCH: "
                                                 "{'Accept-Patch': 'application/openstack-messaging-v2.0-json-patch'}.");
        refused.headers.emplace_back("Accept-Patch", "application/openstack-messaging-v2.0-json-patch");
        reply(refused);
        return;
    }
    if (!request.body) {
        reply(ZaqarAnswer::badBody("PATCH body could not be empty for update."));
        return;
    }
    const nlohmann::json changes = *request.body;
    const std::string name = request.path[1];
    const std::string project = request.projectId;
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &identity, IdSource &, std::vector<std::string> &,
                                             std::optional<std::int64_t> id) -> Result<ZaqarAnswer> {
        if (!id)
            return queueNotFound(name, project);
        auto metadata = zaqar_store::metadata(unit.database(), *id);
        if (!metadata)
            return metadata.error();
        PatchOutcome patched = applyMetadataPatch(*metadata, changes);
        if (patched.status == 409)
            return ZaqarAnswer::conflict(patched.description);
        if (patched.status != 200)
            return ZaqarAnswer::badBody(patched.description);
        if (std::optional<std::string> problem = metadataProblem(patched.metadata))
            return ZaqarAnswer::badBody(*problem);
        if (Status applied = zaqar_binding::applyMetadata(unit, identity, name, *id, patched.metadata, project); !applied)
            return applied.error();
        return ZaqarAnswer::json(200, withReservedDefaults(patched.metadata));
    });
}

void deleteQueue(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    const std::string name = request.path[1];
    answerOnQueueAfterEmptying(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &identity, IdSource &, std::vector<std::string> &wake,
                                             std::optional<std::int64_t> id) -> Result<ZaqarAnswer> {
        if (id) {
            if (Status deleted = zaqar_binding::deleteQueue(unit, identity, name); !deleted)
                return deleted.error();
            wake.push_back(name);
        }
        return ZaqarAnswer::empty(204);
    });
}

void queueStats(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    const std::string name = request.path[1];
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &,
                                             std::optional<std::int64_t> id) -> Result<ZaqarAnswer> {
        if (!id)   // as Zaqar: an unknown queue has no messages
            return ZaqarAnswer::json(200, {{"messages", {{"free", 0}, {"claimed", 0}, {"total", 0}}}});
        // The queue's kept counters (never a walk over its messages), and
        // two index seeks for the oldest and newest message.
        Result<QueueDepths> depths = queue_depths::read(unit.database(), *id, unit.now());
        if (!depths)
            return depths.error();
        const std::int64_t free = depths->counts.available;
        const std::int64_t claimed = depths->counts.inFlight;
        auto first = zaqar_store::messagesAfter(unit.database(), *id, 0, 1, unit.now());
        if (!first)
            return first.error();
        auto last = zaqar_store::newestMessage(unit.database(), *id, unit.now());
        if (!last)
            return last.error();
        const std::optional<zaqar_store::StoredMessage> oldest =
            first->empty() ? std::nullopt : std::optional<zaqar_store::StoredMessage>(first->front());
        const std::optional<zaqar_store::StoredMessage> newest = *last;
        nlohmann::json messages = {{"free", free}, {"claimed", claimed}, {"total", free + claimed}};
        const std::int64_t nowMs = toEpochMilliseconds(unit.now());
        const auto describe = [&](const zaqar_store::StoredMessage &message) {
            return nlohmann::json{{"href", queuePath(name) + "/messages/" + message.id},
                                  {"age", (nowMs - message.sentMs) / 1000},
                                  {"created", formatIso8601(fromEpochMilliseconds(message.sentMs))}};
        };
        if (free + claimed > 0 && oldest) {
            messages["oldest"] = describe(*oldest);
            messages["newest"] = describe(*newest);
        }
        return ZaqarAnswer::json(200, {{"messages", messages}});
    });
}

void purgeQueue(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    std::vector<std::string> types = {"messages", "subscriptions"};
    if (request.body && request.body->is_object() && request.body->contains("resource_types")) {
        const nlohmann::json &given = (*request.body)["resource_types"];
        types.clear();
        for (const nlohmann::json &type : given.is_array() ? given : nlohmann::json::array()) {
            if (!type.is_string() || (type != "messages" && type != "subscriptions")) {
                reply(ZaqarAnswer::badRequest("Resource types must be a sub set of ['messages', 'subscriptions']."));
                return;
            }
            types.push_back(type.get<std::string>());
        }
    }
    const std::string name = request.path[1];
    const std::string project = request.projectId;
    const bool messages = std::find(types.begin(), types.end(), "messages") != types.end();
    auto body = [=](UnitContext &unit, const BrokerIdentity &identity, IdSource &ids, std::vector<std::string> &,
                    std::optional<std::int64_t> id) -> Result<ZaqarAnswer> {
        if (!id)
            return queueNotFound(name, project);
        for (const std::string &type : types) {
            if (type == "messages") {
                // What came after the chunks (bulk_removal.h); one more chunk at most.
                if (auto done = bulk_removal::removeQueueMessages(unit.database(), *id, std::nullopt); !done)
                    return done.error();
                reportQueueCounts(unit, name);
            } else {
                auto arns = TopicCatalog(unit.database(), identity).subscriptionArns(zaqar_binding::notificationTopic(name));
                SubscriptionCatalog subscriptions(unit.database(), identity, ids);
                for (const std::string &arn : arns ? *arns : std::vector<std::string>())
                    if (Status done = subscriptions.unsubscribe(arn); !done)
                        return done.error();
            }
        }
        return ZaqarAnswer::empty(204);
    };
    if (messages)
        answerOnQueueAfterEmptying(context, reply, name, body);
    else
        answerOnQueue(context, reply, name, body);
}

} // namespace

bool queues(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    const std::vector<std::string> &path = request.path;
    if (path.empty() || path[0] != "queues")
        return false;
    const std::string &method = request.method;
    if (path.size() == 1) {
        method == "GET" ? listQueues(request, context, reply) : reply(methodNotAllowed(request));
        return true;
    }
    if (path.size() == 2) {
        if (method == "PUT")
            createQueue(request, context, reply);
        else if (method == "GET")
            getQueue(request, context, reply);
        else if (method == "PATCH")
            patchQueue(request, context, reply);
        else if (method == "DELETE")
            deleteQueue(request, context, reply);
        else
            reply(methodNotAllowed(request));
        return true;
    }
    if (path.size() == 3 && path[2] == "stats") {
        method == "GET" ? queueStats(request, context, reply) : reply(methodNotAllowed(request));
        return true;
    }
    if (path.size() == 3 && path[2] == "purge") {
        method == "POST" ? purgeQueue(request, context, reply) : reply(methodNotAllowed(request));
        return true;
    }
    return false;
}

} // namespace relaydesk::zaqar_routes

