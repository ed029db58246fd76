// SPDX-License-Identifier: MIT
// The management API's subscriptions and their rules (management_api.h).
#include "api/servicebus/management/atom_description_writer.h"
#include "api/servicebus/management/atom_descriptions.h"
#include "api/servicebus/management/management_unit.h"
#include "broker/servicebus/servicebus_admin.h"
#include "engine/servicebus_admin_calls.h"
#include "engine/unit_context.h"

namespace relaydesk::management {

namespace {

using Kind = EntityChange::Kind;
using Entity = EntityChange::Entity;

QString subscriptionPath(const std::string &topic, const std::string &name)
{
    return QLatin1Char('/') + qs(serviceBusSubscriptionQueue(topic, name));
}

// The subscription `name` of `topic`, or nothing; QueueDoesNotExist when the topic is not there.
Result<std::optional<ServiceBusSubscription>> findSubscription(Database &db, const std::string &topic, const std::string &name)
{
    auto found = servicebus_topics::find(db, topic);
    if (!found)
        return notFound(topic);
    for (ServiceBusSubscription &subscription : found->subscriptions)
        if (subscription.name == name)
            return std::optional<ServiceBusSubscription>(std::move(subscription));
    return std::optional<ServiceBusSubscription>();
}

Status subscriptionEntry(AtomDocument &document, Database &db, const std::string &topic,
                         const ServiceBusSubscription &subscription, ClockTime now)
{
    auto runtime = servicebus_runtime::read(db, subscription.properties.name, now);
    if (!runtime)
        return runtime.error();
    document.entry(subscriptionPath(topic, subscription.name), qs(subscription.name),
                   [&](QXmlStreamWriter &xml) { writeSubscriptionDescription(xml, subscription, *runtime); });
    return {};
}

Result<Answer> subscriptionAnswer(UnitContext &unit, const QString &base, const std::string &topic,
                                  const std::string &name, int status)
{
    auto found = findSubscription(unit.database(), topic, name);
    if (!found)
        return found.error();
    if (!*found)
        return notFound(topic + "/Subscriptions/" + name);
    AtomDocument document(base, unit.now());
    if (Status written = subscriptionEntry(document, unit.database(), topic, **found, unit.now()); !written)
        return written.error();
    return Answer{status, document.finish()};
}

void ruleEntry(AtomDocument &document, const std::string &topic, const std::string &subscription, const ServiceBusRule &rule)
{
    document.entry(subscriptionPath(topic, subscription) + QStringLiteral("/Rules/") + qs(rule.name), qs(rule.name),
                   [&](QXmlStreamWriter &xml) { writeRuleDescription(xml, rule); });
}

Result<Answer> ruleAnswer(UnitContext &unit, const QString &base, const std::string &topic,
                          const std::string &subscription, const std::string &name, int status)
{
    auto rules = servicebus_topics::rules(unit.database(), topic, subscription);
    if (!rules)
        return notFound(topic + "/Subscriptions/" + subscription);
    for (const ServiceBusRule &rule : *rules) {
        if (rule.name != name)
            continue;
        AtomDocument document(base, unit.now());
        ruleEntry(document, topic, subscription, rule);
        return Answer{status, document.finish()};
    }
    return notFound(topic + "/Subscriptions/" + subscription + "/Rules/" + name);
}

void putSubscription(const Call &call, const std::string &topic, const std::string &name, const QByteArray &body, bool update)
{
    auto entry = readAtomElement(body);
    if (!entry)
        return call.reply(errorReply(entry.error()));
    auto described = readSubscriptionDescription(*entry, topic, name);
    if (!described)
        return call.reply(errorReply(described.error()));
    runUnit(call, [base = call.base, topic, subscription = *described, update](
                      UnitContext &unit, const BrokerIdentity &identity, std::vector<std::string> &wake) -> Result<Answer> {
        auto found = findSubscription(unit.database(), topic, subscription.name);
        if (!found)
            return found.error();
        const std::string &queue = subscription.properties.name;
        if (update) {
            if (!*found)
                return notFound(queue);
            if (Status updated = servicebus_admin::updateQueue(unit.database(), subscription.properties, identity, unit.now());
                !updated)
                return updated.error();
            unit.reportChange({Kind::Changed, Entity::Queue, qs(queue)});
            wake.push_back(queue);
            return subscriptionAnswer(unit, base, topic, subscription.name, 200);
        }
        if (*found)
            return exists(queue);
        auto created = servicebus_topics::createSubscription(unit.database(), topic, subscription, identity, unit.now());
        if (!created)
            return created.error();
        unit.reportChange({Kind::Created, Entity::Queue, qs(queue + std::string(kServiceBusDeadLetterSuffix))});
        unit.reportChange({Kind::Created, Entity::Queue, qs(queue)});
        return subscriptionAnswer(unit, base, topic, subscription.name, 201);
    });
}

} // namespace

void answerSubscriptionList(const Call &call, const QString &topic, const Page &page)
{
    runUnit(call, [base = call.base, topic = topic.toStdString(), page](UnitContext &unit, const BrokerIdentity &,
                                                                      std::vector<std::string> &) -> Result<Answer> {
        auto found = servicebus_topics::find(unit.database(), topic);
        if (!found)
            return notFound(topic);
        const QString path = QLatin1Char('/') + qs(topic) + QStringLiteral("/Subscriptions");
        AtomDocument document(base, unit.now());
        const auto &all = found->subscriptions;
        document.beginFeed(QStringLiteral("Subscriptions"), path, nextPage(path, page, all.size()));
        for (std::size_t i = std::size_t(page.skip); i < all.size() && i < std::size_t(page.skip + page.top); ++i)
            if (Status written = subscriptionEntry(document, unit.database(), topic, all[i], unit.now()); !written)
                return written.error();
        return Answer{200, document.finish(), kAtomFeedContentType};
    });
}

void answerSubscription(const Call &call, const QByteArray &method, const QString &topicName, const QString &subscription,
                        const QByteArray &body, bool update)
{
    const std::string topic = topicName.toStdString();
    const std::string name = subscription.toStdString();
    if (method == "PUT")
        return putSubscription(call, topic, name, body, update);
    if (method == "GET")
        return runUnit(call, [base = call.base, topic, name](UnitContext &unit, const BrokerIdentity &,
                                                              std::vector<std::string> &) -> Result<Answer> {
            return subscriptionAnswer(unit, base, topic, name, 200);
        });
    servicebus_admin_calls::deleteSubscription(*call.service, topic, name, call.context, [reply = call.reply](Status deleted) {
        reply(deleted ? HttpReply{200, kAtomContentType, {}, {}} : errorReply(deleted.error()));
    });
}

void answerRuleList(const Call &call, const QString &topic, const QString &subscription, const Page &page)
{
    runUnit(call, [base = call.base, topic = topic.toStdString(), subscription = subscription.toStdString(),
                   page](UnitContext &unit, const BrokerIdentity &, std::vector<std::string> &) -> Result<Answer> {
        auto rules = servicebus_topics::rules(unit.database(), topic, subscription);
        if (!rules)
            return notFound(topic + "/Subscriptions/" + subscription);
        const QString path = subscriptionPath(topic, subscription) + QStringLiteral("/Rules");
        AtomDocument document(base, unit.now());
        document.beginFeed(QStringLiteral("Rules"), path, nextPage(path, page, rules->size()));
        for (std::size_t i = std::size_t(page.skip); i < rules->size() && i < std::size_t(page.skip + page.top); ++i)
            ruleEntry(document, topic, subscription, (*rules)[i]);
        return Answer{200, document.finish(), kAtomFeedContentType};
    });
}

void answerRule(const Call &call, const QByteArray &method, const QString &topicName, const QString &subscriptionName,
                const QString &ruleName, const QByteArray &body, bool update)
{
    const std::string topic = topicName.toStdString();
    const std::string subscription = subscriptionName.toStdString();
    const std::string name = ruleName.toStdString();
    if (method == "GET")
        return runUnit(call, [base = call.base, topic, subscription, name](
                                 UnitContext &unit, const BrokerIdentity &, std::vector<std::string> &) -> Result<Answer> {
            return ruleAnswer(unit, base, topic, subscription, name, 200);
        });
    if (method == "DELETE")
        return runUnit(call, [topic, subscription, name](UnitContext &unit, const BrokerIdentity &,
                                                         std::vector<std::string> &) -> Result<Answer> {
            if (Status removed = servicebus_topics::removeRule(unit.database(), topic, subscription, name); !removed)
                return removed.error();
            return Answer{200, {}};
        });
    auto entry = readAtomElement(body);
    if (!entry)
        return call.reply(errorReply(entry.error()));
    auto rule = readRuleDescription(*entry, name);
    if (!rule)
        return call.reply(errorReply(rule.error()));
    runUnit(call, [base = call.base, topic, subscription, rule = *rule, update](
                      UnitContext &unit, const BrokerIdentity &, std::vector<std::string> &) -> Result<Answer> {
        if (update) {
            if (Status removed = servicebus_topics::removeRule(unit.database(), topic, subscription, rule.name); !removed)
                return removed.error();
        }
        if (Status added = servicebus_topics::addRule(unit.database(), topic, subscription, rule); !added)
            return added.error();
        return ruleAnswer(unit, base, topic, subscription, rule.name, update ? 200 : 201);
    });
}

} // namespace relaydesk::management
