// SPDX-License-Identifier: MIT
// DELETE on /v2/queues/NAME/messages: one message (with its claim when
// claimed), several by ids, or pop (docs/behaviour.md §8.5;
// zaqar/transport/wsgi/v2_0/messages.py).
#include "api/zaqar/zaqar_api.h"

#include "api/zaqar/zaqar_rules.h"
#include "broker/zaqar/zaqar_store.h"
#include "api/zaqar/zaqar_unit.h"

#include "broker/queues/message_receiver.h"

namespace relaydesk::zaqar_routes {

using namespace zaqar;

namespace {

// Deletes message `id` whatever its state, counted as a delete when it was there.
Status deleteCounted(UnitContext &unit, const std::string &name, std::int64_t queueId, const std::string &id)
{
    Result<bool> deleted = zaqar_store::deleteMessage(unit.database(), queueId, id);
    if (!deleted)
        return deleted.error();
    if (*deleted)
        unit.countQueue(QueueCounter::Deleted, name);
    return {};
}

} // namespace

// DELETE …/messages/ID[?claim_id=]: a claimed message only with its claim.
void deleteMessage(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    const std::string name = request.path[1];
    const std::string id = request.path[3];
    const std::optional<std::string> claimId = request.param("claim_id");
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &, IdSource &ids, std::vector<std::string> &,
                                             std::optional<std::int64_t> queueId) -> Result<ZaqarAnswer> {
        if (!queueId)
            return ZaqarAnswer::empty(204);
        auto message = zaqar_store::message(unit.database(), *queueId, id, unit.now());
        if (!message)
            return message.error();
        if (claimId) {
            auto claim = zaqar_store::claim(unit.database(), *queueId, *claimId, unit.now());
            if (!claim)
                return claim.error();
            if (!*claim)
                return ZaqarAnswer::error(400, "Unable to delete", "The specified claim does not exist or has expired.");
            if (!*message || (*message)->claimId != *claimId)
                return ZaqarAnswer::error(400, "Unable to delete",
                                          "A claim was specified, but the message is not currently claimed.");
            if (Status deleted = MessageReceiver(unit.database(), ids).deleteMessage(name, *(*message)->receiptHandle, unit.now());
                !deleted)
                return deleted.error();
            unit.countQueue(QueueCounter::Deleted, name);
        } else if (*message) {
            if ((*message)->claimed)
                return ZaqarAnswer::error(403, "Unable to delete",
                                          "This message is claimed; it cannot be deleted without a valid claim ID.");
            if (Status deleted = deleteCounted(unit, name, *queueId, id); !deleted)
                return deleted.error();
        }
        reportQueueCounts(unit, name);
        return ZaqarAnswer::empty(204);
    });
}

// DELETE …/messages?ids= (whatever their state) or ?pop=N (the first N free
// messages, deleted and answered).
void deleteOrPop(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    const std::optional<std::vector<std::string>> ids = listParam(request, "ids");
    std::optional<ZaqarAnswer> refusal;
    const std::optional<std::int64_t> pop = integerParam(request, "pop", 0, 1, kMaxPerPage,
                                                         "Pop value must be at least 1 and may not be greater than 20.", refusal);
    if (!pop) {
        reply(*refusal);
        return;
    }
    if (ids && *pop > 0) {
        reply(ZaqarAnswer::badRequest("pop and id params cannot be present together in the delete request."));
        return;
    }
    if (!ids && *pop == 0) {
        reply(ZaqarAnswer::badRequest(
            "The request should have either \"ids\" or \"pop\" parameter in the request, to be able to delete."));
        return;
    }
    if (ids && (ids->empty() || ids->size() > std::size_t(kMaxPerPage))) {
        reply(ZaqarAnswer::badRequest("ids parameter should have at least 1 and not greater than 20 values."));
        return;
    }
    const std::string name = request.path[1];
    const std::vector<std::string> idList = ids.value_or(std::vector<std::string>());
    const std::int64_t popCount = *pop;
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &,
                                             std::optional<std::int64_t> queueId) -> Result<ZaqarAnswer> {
        nlohmann::json popped = nlohmann::json::array();
        if (queueId && popCount == 0) {
            for (const std::string &id : idList)
                if (Status deleted = deleteCounted(unit, name, *queueId, id); !deleted)
                    return deleted.error();
        }
        for (std::int64_t after = 0; queueId && std::int64_t(popped.size()) < popCount;) {
            auto page = zaqar_store::messagesAfter(unit.database(), *queueId, after, 100, unit.now());
            if (!page)
                return page.error();
            for (const zaqar_store::StoredMessage &message : *page) {
                after = message.rowId;
                if (message.claimed || message.delayed || std::int64_t(popped.size()) == popCount)
                    continue;
                if (Status deleted = deleteCounted(unit, name, *queueId, message.id); !deleted)
                    return deleted.error();
                nlohmann::json shown = messageJson(name, message.id, message.body, message.sentMs, message.expiresMs, "",
                                                   toEpochMilliseconds(unit.now()));
                shown.erase("href");
                popped.push_back(std::move(shown));
            }
            if (page->size() < 100)
                break;
        }
        reportQueueCounts(unit, name);
        if (popCount > 0)
            return ZaqarAnswer::json(200, {{"messages", popped}});
        return ZaqarAnswer::empty(204);
    });
}

} // namespace relaydesk::zaqar_routes
