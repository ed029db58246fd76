// SPDX-License-Identifier: MIT
// /v2/queues/NAME/subscriptions: create, list, get, update, delete
// (docs/behaviour.md §8.5; zaqar/transport/wsgi/v2_0/subscriptions.py). A
// subscription is an http(s) subscription of the queue's notification topic
// (zaqar_binding.h), confirmed at once (Zaqar's default: no confirmation).
#include "api/zaqar/zaqar_api.h"

#include "api/zaqar/zaqar_binding.h"
#include "api/zaqar/zaqar_bodies.h"
#include "api/zaqar/zaqar_rules.h"
#include "broker/zaqar/zaqar_store.h"
#include "api/zaqar/zaqar_unit.h"

#include "api/wire/action_input.h"
#include "broker/topics/endpoint_address.h"
#include "broker/topics/subscription_catalog.h"
#include "broker/topics/topic_catalog.h"

namespace relaydesk::zaqar_routes {

using namespace zaqar;

namespace {

// The subscription's DeliveryPolicy: the Zaqar form of its options' _retry_policy.
std::string subscriptionPolicy(const nlohmann::json &options)
{
    return options.contains("_retry_policy") ? jsonText({{"_retry_policy", options["_retry_policy"]}}) : std::string();
}

// A subscriber no notification may go to (broker/topics/endpoint_address.h).
std::optional<ZaqarAnswer> subscriberRefusal(const std::string &subscriber, const BrokerIdentity &identity)
{
    if (std::optional<std::string> reason = forbiddenEndpointReason(subscriber, identity))
        return ZaqarAnswer::badRequest("The subscriber is refused: " + *reason + ".");
    return std::nullopt;
}

nlohmann::json subscriptionJson(const zaqar_store::SubscriptionEntry &entry, std::int64_t nowMs)
{
    return {{"id", entry.id},           {"source", entry.queueName}, {"subscriber", entry.subscriber},
            {"ttl", entry.ttl},         {"age", (nowMs - entry.createdMs) / 1000},
            {"options", entry.options}, {"confirmed", true}};
}

void createSubscription(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    SubscriptionTerms terms;
    if (std::optional<std::string> problem = readSubscriptionTerms(request.body, terms)) {
        reply(ZaqarAnswer::badRequest(*problem));
        return;
    }
    if (!terms.subscriber) {
        reply(ZaqarAnswer::badRequest("Missing parameter subscriber in body."));
        return;
    }
    const std::string name = request.path[1];
    const std::string project = request.projectId;
    answerInUnit(context, reply, [=](UnitContext &unit, const BrokerIdentity &identity, IdSource &ids,
                                     std::vector<std::string> &) -> Result<ZaqarAnswer> {
        if (terms.ttl)
            if (std::optional<std::string> late = subscriptionEndProblem(*terms.ttl, unit.now()))
                return badRequest(*late);
        if (std::optional<ZaqarAnswer> refused = subscriberRefusal(*terms.subscriber, identity))
            return *refused;
        bool created = false;
        auto queueId = zaqar_binding::ensureQueue(unit, identity, name, nlohmann::json::object(), project, created);
        if (!queueId)
            return queueId.error();
        if (Status dropped = zaqar_binding::dropExpiredSubscriptions(unit, identity, ids, name, *queueId); !dropped)
            return dropped.error();
        auto existing = zaqar_store::hasSubscriber(unit.database(), *queueId, *terms.subscriber);
        if (!existing)
            return existing.error();
        if (*existing)
            return ZaqarAnswer::conflict("Such subscription already exists. Subscriptions are unique by project + queue "
                                         "+ subscriber URI.");
        const std::string topic = zaqar_binding::notificationTopic(name);
        TopicCatalog topics(unit.database(), identity);
        if (!topics.topicAttributes(topic).ok()) {
            auto metadata = zaqar_store::metadata(unit.database(), *queueId);
            if (!metadata)
                return metadata.error();
            if (auto made = topics.createTopic(topic, {{"DeliveryPolicy", zaqar_binding::topicDeliveryPolicy(*metadata)}}, {},
                                               unit.now());
                !made)
                return made.error();
            unit.reportChange({EntityChange::Kind::Created, EntityChange::Entity::Topic, QString::fromStdString(topic)});
        }
        const nlohmann::json options = terms.options.value_or(nlohmann::json::object());
        AttributeMap attributes = {{"RawMessageDelivery", "true"}};
        if (const std::string policy = subscriptionPolicy(options); !policy.empty())
            attributes["DeliveryPolicy"] = policy;
        const std::string scheme = terms.subscriber->substr(0, terms.subscriber->find(':'));
        auto receipt = SubscriptionCatalog(unit.database(), identity, ids)
                           .subscribe(topic, scheme, *terms.subscriber, attributes, true, unit.now());
        if (!receipt)
            return badRequest(receipt.error().message);
        const std::string uuid = receipt->subscriptionArn.substr(receipt->subscriptionArn.rfind(':') + 1);
        if (Status stored = zaqar_store::insertSubscription(unit.database(), uuid, *queueId, *terms.subscriber,
                                                            terms.ttl.value_or(kDefaultSubscriptionTtl), options, unit.now());
            !stored)
            return stored.error();
        unit.reportChange({EntityChange::Kind::Created, EntityChange::Entity::Subscription,
                           QString::fromStdString(receipt->subscriptionArn)});
        ZaqarAnswer answer = ZaqarAnswer::json(201, {{"subscription_id", uuid}});
        answer.headers.emplace_back("Location", QByteArray::fromStdString(queuePath(name) + "/subscriptions"));
        return answer;
    });
}

void listSubscriptions(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    std::optional<ZaqarAnswer> refusal;
    const std::optional<std::int64_t> limit = pageLimit(request, refusal);
    if (!limit) {
        reply(*refusal);
        return;
    }
    const std::string marker = request.param("marker").value_or("");
    const std::string name = request.path[1];
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &,
                                            std::optional<std::int64_t> queueId) -> Result<ZaqarAnswer> {
        nlohmann::json list = nlohmann::json::array();
        nlohmann::json links = nlohmann::json::array();
        if (queueId) {
            auto entries = zaqar_store::subscriptionsAfter(unit.database(), *queueId, marker, int(*limit), unit.now());
            if (!entries)
                return entries.error();
            for (const zaqar_store::SubscriptionEntry &entry : *entries)
                list.push_back(subscriptionJson(entry, toEpochMilliseconds(unit.now())));
            if (!entries->empty())
                links.push_back({{"rel", "next"},
                                 {"href", queuePath(name) + "/subscriptions?marker=" + entries->back().id +
                                              "&limit=" + std::to_string(*limit)}});
        }
        return ZaqarAnswer::json(200, {{"subscriptions", list}, {"links", links}});
    });
}

// GET, PATCH and DELETE of one subscription.
void oneSubscription(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    SubscriptionTerms terms;
    if (request.method == "PATCH") {
        if (std::optional<std::string> problem = readSubscriptionTerms(request.body, terms)) {
            reply(ZaqarAnswer::badRequest(*problem));
            return;
        }
    }
    const std::string method = request.method;
    const std::string name = request.path[1];
    const std::string uuid = request.path[3];
    answerOnQueue(context, reply, name, [=](UnitContext &unit, const BrokerIdentity &identity, IdSource &ids,
                                            std::vector<std::string> &, std::optional<std::int64_t> queueId)
                                            -> Result<ZaqarAnswer> {
        if (method == "PATCH" && terms.ttl)
            if (std::optional<std::string> late = subscriptionEndProblem(*terms.ttl, unit.now()))
                return badRequest(*late);
        const ZaqarAnswer missing = method == "DELETE" ? ZaqarAnswer::empty(204)
                                                       : ZaqarAnswer::notFound("Subscription " + uuid + " does not exist.");
        if (!queueId)
            return missing;
        auto entry = zaqar_store::subscription(unit.database(), *queueId, uuid, unit.now());
        if (!entry)
            return entry.error();
        if (!*entry)
            return missing;
        const std::string arn = identity.subscriptionArn(zaqar_binding::notificationTopic(name), uuid);
        SubscriptionCatalog subscriptions(unit.database(), identity, ids);
        if (method == "GET")
            return ZaqarAnswer::json(200, subscriptionJson(**entry, toEpochMilliseconds(unit.now())));
        if (method == "DELETE") {
            if (Status gone = subscriptions.unsubscribe(arn); !gone)
                return gone.error();
            unit.reportChange({EntityChange::Kind::Deleted, EntityChange::Entity::Subscription, QString::fromStdString(arn)});
            return ZaqarAnswer::empty(204);
        }
        const std::string subscriber = terms.subscriber.value_or((*entry)->subscriber);
        const nlohmann::json options = terms.options.value_or((*entry)->options);
        if (subscriber != (*entry)->subscriber)
            if (std::optional<ZaqarAnswer> refused = subscriberRefusal(subscriber, identity))
                return *refused; // the endpoint moves with zaqar_store::updateSubscription
        if (Status set = subscriptions.setSubscriptionAttribute(arn, "DeliveryPolicy", subscriptionPolicy(options)); !set)
            return badRequest(set.error().message);
        if (Status stored = zaqar_store::updateSubscription(unit.database(), (*entry)->rowId, subscriber, terms.ttl,
                                                            options, unit.now());
            !stored)
            return stored.error();
        unit.reportChange({EntityChange::Kind::Changed, EntityChange::Entity::Subscription, QString::fromStdString(arn)});
        return ZaqarAnswer::empty(204);
    });
}

} // namespace

bool subscriptions(const ZaqarRequest &request, const ZaqarContext &context, const ZaqarReply &reply)
{
    if (!onQueueResource(request, "subscriptions"))
        return false;
    const std::vector<std::string> &path = request.path;
    const std::string &method = request.method;
    if (path.size() == 3) {
        if (method == "POST")
            createSubscription(request, context, reply);
        else if (method == "GET")
            listSubscriptions(request, context, reply);
        else
            reply(methodNotAllowed(request));
    } else if (method == "GET" || method == "PATCH" || method == "DELETE") {
        oneSubscription(request, context, reply);
    } else {
        reply(methodNotAllowed(request));
    }
    return true;
}

} // namespace relaydesk::zaqar_routes
