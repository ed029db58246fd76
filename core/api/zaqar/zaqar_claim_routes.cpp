// SPDX-License-Identifier: MIT
// /v2/queues/NAME/claims: create, get, renew, release (docs/behaviour.md §8.5;
// zaqar/transport/wsgi/v2_0/claims.py). A claim is a receive with a
// visibility timeout of its ttl; its messages live at least ttl + grace.
#include "api/zaqar/zaqar_api.h"

#include "api/zaqar/zaqar_bodies.h"
#include "api/zaqar/zaqar_rules.h"
#include "broker/zaqar/zaqar_store.h"
#include "api/zaqar/zaqar_unit.h"

#include "broker/queues/message_receiver.h"

namespace relaydesk::zaqar_routes {

using namespace zaqar;

namespace {

// The queue's _dead_letter_queue_messages_ttl on the messages a claim just moved.
Status keepDeadLetters(UnitContext &unit, std::int64_t queueId, const std::string &deadLetterQueue)
{
    Result<nlohmann::json> metadata = zaqar_store::metadata(unit.database(), queueId);
    if (!metadata)
        return metadata.error();
    if (!metadata->contains("_dead_letter_queue_messages_ttl"))
        return {};
    const std::int64_t ttl = integerField(*metadata, "_dead_letter_queue_messages_ttl", kMaxMessageTtl).value_or(kMaxMessageTtl);
    return zaqar_store::setDeadLetterLifetime(unit.database(), queueId, deadLetterQueue, ttl, unit.now());
}

void createClaim(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    ClaimTerms terms;
    std::optional<ZaqarAnswer> refusal;
    std::optional<std::int64_t> limit = pageLimit(request, refusal);
    if (!limit) {
        reply(*refusal);
        return;
    }
    if (std::optional<std::string> problem = readClaimTerms(request.body, terms)) {
        reply(ZaqarAnswer::badRequest(*problem));
        return;
    }
    if (terms.limit && !request.param("limit"))
        limit = terms.limit;
    const std::string name = request.path[1];
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &, IdSource &ids, std::vector<std::string> &wake,
                                             std::optional<std::int64_t> queueId) -> Result<ZaqarAnswer> {
        if (!queueId)
            return ZaqarAnswer::empty(204);
        MessageReceiver receiver(unit.database(), ids);
        std::vector<ReceivedMessage> claimed;
        while (claimed.size() < std::size_t(*limit)) {
            ReceiveRequest receive;
            receive.maxNumberOfMessages = int(std::min<std::int64_t>(10, *limit - std::int64_t(claimed.size())));
            receive.visibilityTimeout = int(terms.ttl);
            auto received = receiver.receive(name, receive, unit.now());
            if (!received)
                return received.error();
            if (!received->deadLetterQueue.empty()) {   // over _max_claim_count: moved to _dead_letter_queue
                if (Status kept = keepDeadLetters(unit, *queueId, received->deadLetterQueue); !kept)
                    return kept.error();
                reportQueueCounts(unit, received->deadLetterQueue);
                wake.push_back(received->deadLetterQueue);
            }
            if (received->messages.empty())
                break;
            for (ReceivedMessage &message : received->messages)
                claimed.push_back(std::move(message));
        }
        reportQueueCounts(unit, name);
        if (claimed.empty())
            return ZaqarAnswer::empty(204);
        const std::int64_t nowMs = toEpochMilliseconds(unit.now());
        const zaqar_store::Claim claim{ids.newMessageId(), terms.ttl, terms.grace, nowMs, nowMs};
        if (Status stored = zaqar_store::insertClaim(unit.database(), *queueId, claim); !stored)
            return stored.error();
        std::vector<std::string> messageIds;
        for (const ReceivedMessage &message : claimed) {
            if (Status stored = zaqar_store::addClaimedMessage(unit.database(), claim.id, message.messageId, message.receiptHandle);
                !stored)
                return stored.error();
            messageIds.push_back(message.messageId);
        }
        const std::int64_t until = nowMs + (terms.ttl + terms.grace) * 1000;
        if (Status extended = zaqar_store::extendLifetime(unit.database(), *queueId, messageIds, until); !extended)
            return extended.error();
        nlohmann::json messages = nlohmann::json::array();
        for (const ReceivedMessage &message : claimed) {
            std::optional<std::int64_t> expires;
            if (message.expiresAt)
                expires = std::max(toEpochMilliseconds(*message.expiresAt), until);
            messages.push_back(messageJson(name, message.messageId, message.body, toEpochMilliseconds(message.sentTimestamp),
                                           expires, claim.id, nowMs));
        }
        unit.countQueue(QueueCounter::Received, name, std::int64_t(claimed.size()));
        ZaqarAnswer answer = ZaqarAnswer::json(201, {{"messages", messages}});
        answer.headers.emplace_back("Location", QByteArray::fromStdString(queuePath(name) + "/claims/" + claim.id));
        return answer;
    });
}

// The claim's id and queue, found live; `missing` answers otherwise.
using ClaimWork = std::function<Result<ZaqarAnswer>(UnitContext &, IdSource &, std::int64_t queueId,
                                                     const zaqar_store::Claim &)>;

void withClaim(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply, ZaqarAnswer missing,
               ClaimWork work)
{
    const std::string name = request.path[1];
    const std::string claimId = request.path[3];
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &, IdSource &ids, std::vector<std::string> &,
                                             std::optional<std::int64_t> queueId) -> Result<ZaqarAnswer> {
        if (!queueId)
            return missing;
        auto claim = zaqar_store::claim(unit.database(), *queueId, claimId, unit.now());
        if (!claim)
            return claim.error();
        if (!*claim)
            return missing;
        return work(unit, ids, *queueId, **claim);
    });
}

void getClaim(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    const std::string name = request.path[1];
    const std::string claimId = request.path[3];
    withClaim(request, context, reply, ZaqarAnswer::notFound("Claim " + claimId + " does not exist."),
              [=](UnitContext &unit, IdSource &, std::int64_t queueId, const zaqar_store::Claim &claim)
                  -> Result<ZaqarAnswer> {
                  auto handles = zaqar_store::claimedHandles(unit.database(), claim.id, unit.now());
                  if (!handles)
                      return handles.error();
                  const std::int64_t nowMs = toEpochMilliseconds(unit.now());
                  nlohmann::json messages = nlohmann::json::array();
                  for (const auto &[messageId, handle] : *handles) {
                      auto message = zaqar_store::message(unit.database(), queueId, messageId, unit.now());
                      if (!message)
                          return message.error();
                      if (*message)
                          messages.push_back(messageJson(name, messageId, (*message)->body, (*message)->sentMs,
                                                         (*message)->expiresMs, claim.id, nowMs));
                  }
                  return ZaqarAnswer::json(200, {{"age", (nowMs - claim.createdMs) / 1000},
                                                 {"ttl", claim.ttl},
                                                 {"grace", claim.grace},
                                                 {"href", queuePath(name) + "/claims/" + claim.id},
                                                 {"messages", messages}});
              });
}

// PATCH renews (ttl from now, lifetime to ttl + grace); DELETE releases.
void changeClaim(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply, bool release)
{
    ClaimTerms terms;
    if (!release) {
        if (std::optional<std::string> problem = readClaimTerms(request.body, terms)) {
            reply(ZaqarAnswer::badRequest(*problem));
            return;
        }
    }
    const std::string name = request.path[1];
    const std::string claimId = request.path[3];
    ZaqarAnswer missing = release ? ZaqarAnswer::empty(204) : ZaqarAnswer::notFound("Claim " + claimId + " does not exist.");
    withClaim(request, context, reply, missing,
              [=](UnitContext &unit, IdSource &ids, std::int64_t queueId, const zaqar_store::Claim &claim)
                  -> Result<ZaqarAnswer> {
                  auto handles = zaqar_store::claimedHandles(unit.database(), claim.id, unit.now());
                  if (!handles)
                      return handles.error();
                  MessageReceiver receiver(unit.database(), ids);
                  std::vector<std::string> messageIds;
                  for (const auto &[messageId, handle] : *handles) {
                      if (Status changed = receiver.changeVisibility(name, handle, release ? 0 : int(terms.ttl), unit.now());
                          !changed)
                          return changed.error();
                      messageIds.push_back(messageId);
                  }
                  const Status done =
                      release ? zaqar_store::deleteClaim(unit.database(), claim.id)
                              : zaqar_store::renewClaim(unit.database(), claim.id, terms.ttl, terms.grace, unit.now());
                  if (!done)
                      return done.error();
                  if (!release) {
                      const std::int64_t until = toEpochMilliseconds(unit.now()) + (terms.ttl + terms.grace) * 1000;
                      if (Status extended = zaqar_store::extendLifetime(unit.database(), queueId, messageIds, until); !extended)
                          return extended.error();
                  }
                  reportQueueCounts(unit, name);
                  return ZaqarAnswer::empty(204);
              });
}

} // namespace

bool claims(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    if (!onQueueResource(request, "claims"))
        return false;
    const std::vector<std::string> &path = request.path;
    const std::string &method = request.method;
    if (path.size() == 3)
        method == "POST" ? createClaim(request, context, reply) : reply(methodNotAllowed(request));
    else if (method == "GET")
        getClaim(request, context, reply);
    else if (method == "PATCH")
        changeClaim(request, context, reply, false);
    else if (method == "DELETE")
        changeClaim(request, context, reply, true);
    else
        reply(methodNotAllowed(request));
    return true;
}

} // namespace relaydesk::zaqar_routes
