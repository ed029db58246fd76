// SPDX-License-Identifier: MIT
// /v2/queues/NAME/messages: post, list, get and delete by id(s), pop
// (docs/behaviour.md §8.5; zaqar/transport/wsgi/v2_0/messages.py).
#include "api/zaqar/zaqar_api.h"

#include "api/zaqar/zaqar_binding.h"
#include "api/zaqar/zaqar_bodies.h"
#include "api/zaqar/zaqar_rules.h"
#include "broker/zaqar/zaqar_store.h"
#include "api/zaqar/zaqar_unit.h"

#include "api/wire/action_input.h"
#include "broker/deliveries/topic_publisher.h"
#include "broker/queues/message_sender.h"

#include <algorithm>

namespace relaydesk::zaqar_routes {

using namespace zaqar;

namespace {

void postMessages(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    std::vector<PostedMessage> posted;
    if (!request.body) {
        reply(ZaqarAnswer::badRequest("No messages were found in the request body."));
        return;
    }
    if (std::optional<std::string> problem = readPostedMessages(*request.body, posted)) {
        reply(ZaqarAnswer::badRequest(*problem));
        return;
    }
    const std::size_t size = jsonText(*request.body).size();
    const std::string name = request.path[1];
    const std::string project = request.projectId;
    const std::string clientId = request.clientId;
    const EnvelopeSigner *sign = &context.service.envelopeSigner();   // sqs subscriptions of the queue's topic
    answerInUnit(
        context, reply,
        [=](UnitContext &unit, const BrokerIdentity &identity, IdSource &ids, std::vector<std::string> &wake)
            -> Result<ZaqarAnswer> {
            bool created = false;   // Zaqar makes a queue on its first post
            auto queueId = zaqar_binding::ensureQueue(unit, identity, name, nlohmann::json::object(), project, created);
            if (!queueId)
                return queueId.error();
            auto metadata = zaqar_store::metadata(unit.database(), *queueId);
            if (!metadata)
                return metadata.error();
            const std::int64_t maxSize = integerField(*metadata, "_max_messages_post_size", kMaxMessagesPostSize)
                                             .value_or(kMaxMessagesPostSize);
            if (std::int64_t(size) > maxSize)
                return badRequest("Message collection size is too large. The max size for current queue is " +
                                  std::to_string(maxSize) + ". It is calculated by max size = min(max_messages_post_size_config: " +
                                  std::to_string(kMaxMessagesPostSize) + ", max_messages_post_size_queue: " +
                                  std::to_string(maxSize) + ").");
            const std::int64_t defaultTtl =
                integerField(*metadata, "_default_message_ttl", kDefaultMessageTtl).value_or(kDefaultMessageTtl);
            const std::int64_t defaultDelay = integerField(*metadata, "_default_message_delay", 0).value_or(0);
            if (Status dropped = zaqar_binding::dropExpiredSubscriptions(unit, identity, ids, name, *queueId); !dropped)
                return dropped.error();
            Result<bool> subscribed = zaqar_store::hasSubscriptions(unit.database(), *queueId, unit.now());
            if (!subscribed)
                return subscribed.error();
            MessageSender sender(unit.database(), ids);
            TopicPublisher publisher(unit.database(), identity, ids, sign);
            nlohmann::json resources = nlohmann::json::array();
            std::string idList;
            for (const PostedMessage &message : posted) {
                const std::int64_t ttl = message.ttl.value_or(defaultTtl);
                const std::int64_t delay = message.delay.value_or(defaultDelay);
                if (ttl < kMinMessageTtl || ttl > kMaxMessageTtl)
                    return badRequest("The TTL for a message may not exceed " + std::to_string(kMaxMessageTtl) +
                                      " seconds, and must be at least " + std::to_string(kMinMessageTtl) + " seconds long.");
                if (delay < 0 || delay > kMaxMessageDelay)
                    return badRequest("The Delay TTL for a message may not exceed " + std::to_string(kMaxMessageDelay) +
                                      " seconds, and must be at least 0 seconds long.");
                SendRequest send;
                send.body = jsonText(message.body);
                send.attributes[std::string(zaqar_store::kClientIdAttribute)] = MessageAttributeValue{"String", clientId, {}};
                send.delaySeconds = int(delay);
                send.timeToLiveSeconds = ttl;
                auto receipt = sender.send(name, send, unit.now());
                if (!receipt)
                    return receipt.error();
                resources.push_back(queuePath(name) + "/messages/" + receipt->messageId);
                idList += (idList.empty() ? "" : ",") + receipt->messageId;
                if (*subscribed) {
                    // The notification Zaqar's webhook task posts: the message and its queue.
                    nlohmann::json notification = {{"body", message.body}, {"ttl", ttl}, {"queue_name", name},
                                                   {"Message_Type", "Notification"}};
                    if (message.delay)
                        notification["delay"] = delay;
                    PublishRequest publish;
                    publish.message = jsonText(notification);
                    const std::string topic = zaqar_binding::notificationTopic(name);
                    if (auto published = publisher.publish(topic, publish, unit.now()); !published)
                        return published.error();
                    unit.countTopic(TopicCounter::Published, topic);
                }
            }
            reportQueueCounts(unit, name);
            unit.countQueue(QueueCounter::Sent, name, std::int64_t(posted.size()));
            wake.push_back(name);
            ZaqarAnswer answer = ZaqarAnswer::json(201, {{"resources", resources}});
            answer.headers.emplace_back("Location",
                                        QByteArray::fromStdString(queuePath(name) + "/messages?ids=" + idList));
            return answer;
        },
        true);
}

// The storage position a listing's `marker` names, as Zaqar's storage reads
// it (zaqar/storage/mongodb/messages.py: int(marker), nothing listed when
// that fails): absent => 0, an integer => itself (below 0 => 0), anything
// else (a message id, which the OpenStack SDK sends) => nothing: an empty page.
std::optional<std::int64_t> markerPosition(const ZaqarRequest &request)
{
    const std::optional<std::string> text = request.param("marker");
    if (!text)
        return 0;
    bool ok = false;
    const qlonglong value = QString::fromStdString(*text).trimmed().toLongLong(&ok);
    if (!ok)
        return std::nullopt;
    return std::max<qlonglong>(value, 0);
}

// GET …/messages: the queue's messages after the marker, as Zaqar lists them.
void listMessages(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    std::optional<ZaqarAnswer> refusal;
    const std::optional<std::int64_t> limit = pageLimit(request, refusal);
    if (!limit) {
        reply(*refusal);
        return;
    }
    const std::optional<std::int64_t> marker = markerPosition(request);
    if (!marker) {
        reply(ZaqarAnswer::json(200, {{"messages", nlohmann::json::array()}, {"links", nlohmann::json::array()}}));
        return;
    }
    const bool echo = flagParam(request, "echo");
    const bool includeClaimed = flagParam(request, "include_claimed");
    const bool includeDelayedAsked = flagParam(request, "include_delayed");
    const std::string name = request.path[1];
    const std::string clientId = request.clientId;
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &,
                                             std::optional<std::int64_t> queueId) -> Result<ZaqarAnswer> {
        nlohmann::json messages = nlohmann::json::array();
        if (!queueId)
            return ZaqarAnswer::json(200, {{"messages", messages}, {"links", nlohmann::json::array()}});
        auto metadata = zaqar_store::metadata(unit.database(), *queueId);
        if (!metadata)
            return metadata.error();
        // As Zaqar: a queue without _default_message_delay lists its delayed messages too.
        const bool includeDelayed = includeDelayedAsked || integerField(*metadata, "_default_message_delay", 0).value_or(0) == 0;
        const std::int64_t nowMs = toEpochMilliseconds(unit.now());
        std::int64_t after = *marker;
        bool more = true;
        while (more && messages.size() < std::size_t(*limit)) {
            auto page = zaqar_store::messagesAfter(unit.database(), *queueId, after, 100, unit.now());
            if (!page)
                return page.error();
            more = page->size() == 100;
            for (const zaqar_store::StoredMessage &message : *page) {
                after = message.rowId;
                if ((message.claimed && !includeClaimed) || (message.delayed && !includeDelayed) ||
                    (!echo && message.clientId == clientId))
                    continue;
                messages.push_back(messageJson(name, message.id, message.body, message.sentMs, message.expiresMs,
                                               message.claimId, nowMs));
                if (messages.size() == std::size_t(*limit))
                    break;
            }
        }
        nlohmann::json links = nlohmann::json::array();
        if (!messages.empty()) {
            std::string next = queuePath(name) + "/messages?marker=" + std::to_string(after) + "&limit=" +
                               std::to_string(*limit);
            if (echo)
                next += "&echo=true";
            if (includeClaimed)
                next += "&include_claimed=true";
            links.push_back({{"rel", "next"}, {"href", next}});
        }
        return ZaqarAnswer::json(200, {{"messages", messages}, {"links", links}});
    });
}

// GET …/messages?ids= and GET …/messages/ID.
void getMessages(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply,
                 std::vector<std::string> ids, bool single)
{
    if (ids.empty() || ids.size() > std::size_t(kMaxPerPage)) {
        reply(ZaqarAnswer::badRequest(kLimitProblem));
        return;
    }
    const std::string name = request.path[1];
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &,
                                             std::optional<std::int64_t> queueId) -> Result<ZaqarAnswer> {
        nlohmann::json messages = nlohmann::json::array();
        for (const std::string &id : queueId ? ids : std::vector<std::string>()) {
            auto message = zaqar_store::message(unit.database(), *queueId, id, unit.now());
            if (!message)
                return message.error();
            if (*message)
                messages.push_back(messageJson(name, id, (*message)->body, (*message)->sentMs, (*message)->expiresMs,
                                               (*message)->claimId, toEpochMilliseconds(unit.now())));
        }
        if (single)
            return messages.empty() ? ZaqarAnswer::notFound("Message " + ids.front() + " does not exist.")
                                    : ZaqarAnswer::json(200, messages.front());
        if (messages.empty())
            return ZaqarAnswer::notFound("No messages with IDs: " + jsonText(ids) + " found in the queue " + name + ".");
        return ZaqarAnswer::json(200, {{"messages", messages}});
    });
}

} // namespace

bool messages(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    if (!onQueueResource(request, "messages"))
        return false;
    const std::vector<std::string> &path = request.path;
    const std::string &method = request.method;
    if (path.size() == 3) {
        if (method == "POST")
            postMessages(request, context, reply);
        else if (method == "GET" && listParam(request, "ids"))
            getMessages(request, context, reply, *listParam(request, "ids"), false);
        else if (method == "GET")
            listMessages(request, context, reply);
        else if (method == "DELETE")
            deleteOrPop(request, context, reply);
        else
            reply(methodNotAllowed(request));
        return true;
    }
    if (method == "GET")
        getMessages(request, context, reply, {path[3]}, true);
    else if (method == "DELETE")
        deleteMessage(request, context, reply);
    else
        reply(methodNotAllowed(request));
    return true;
}

} // namespace relaydesk::zaqar_routes
