// SPDX-License-Identifier: MIT
// AmqpConnection: the rules of a subscription over its $management node
// (docs/behaviour.md §8.6) — com.microsoft:add-rule, remove-rule and
// enumerate-rules, what the SDKs' rule managers send.
#include "api/servicebus/amqp_connection.h"

#include "api/servicebus/amqp_message.h"
#include "api/servicebus/amqp_rule_copy.h"
#include "engine/broker_service.h"

#include <proton/codec/encoder.hpp>
#include <proton/codec/map.hpp>
#include <proton/codec/vector.hpp>
#include <proton/error.hpp>
#include <proton/message.hpp>
#include <proton/scalar.hpp>
#include <proton/symbol.hpp>
#include <proton/timestamp.hpp>
#include <proton/uuid.hpp>
#include <proton/value.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <optional>
#include <utility>

namespace relaydesk {

namespace {

// The described types of a rule description (the service's AMQP encoding).
constexpr std::uint64_t kRuleDescription = 0x0000013700000004;
constexpr std::uint64_t kEmptyRuleAction = 0x0000013700000005;
constexpr std::uint64_t kSqlRuleAction = 0x0000013700000006;
constexpr std::uint64_t kSqlFilter = 0x0000001370000006;
constexpr std::uint64_t kTrueFilter = 0x0000001370000007;
constexpr std::uint64_t kFalseFilter = 0x0000001370000008;
constexpr std::uint64_t kCorrelationFilter = 0x0000001370000009;
constexpr std::int32_t kCompatibilityLevel = 20;

// A correlation filter's fields: the AMQP map key, the Azure name.
constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kCorrelationKeys = {{
    {"correlation-id", "CorrelationId"},
    {"message-id", "MessageId"},
    {"to", "To"},
    {"reply-to", "ReplyTo"},
    {"label", "Label"},
    {"session-id", "SessionId"},
    {"reply-to-session-id", "ReplyToSessionId"},
    {"content-type", "ContentType"},
}};

const char *const kArgumentError = "com.microsoft:argument-error";
const char *const kEntityNotFound = "com.microsoft:entity-not-found";

// A map's entries under text keys (strings or symbols); nothing when the
// value is no map.
std::optional<std::map<std::string, proton::value>> textMap(const proton::value &value)
{
    if (value.type() != proton::MAP)
        return std::nullopt;
    std::map<proton::value, proton::value> raw;
    proton::get(value, raw);
    std::map<std::string, proton::value> entries;
    for (const auto &[key, entry] : raw) {
        if (key.type() == proton::STRING)
            entries[proton::get<std::string>(key)] = entry;
        else if (key.type() == proton::SYMBOL)
            entries[proton::get<proton::symbol>(key)] = entry;
    }
    return entries;
}

// A scalar as a rule's JSON (Config.json's form): text, true/false, numbers,
// null; identifiers as text, times in milliseconds.
nlohmann::json jsonValue(const proton::value &value)
{
    switch (value.type()) {
    case proton::NULL_TYPE:
        return nullptr;
    case proton::BOOLEAN:
        return proton::get<bool>(value);
    case proton::STRING:
        return proton::get<std::string>(value);
    case proton::SYMBOL:
        return std::string(proton::get<proton::symbol>(value));
    case proton::FLOAT:
    case proton::DOUBLE:
        return proton::coerce<double>(value);
    case proton::UUID:
        return proton::get<proton::uuid>(value).str();
    case proton::TIMESTAMP:
        return proton::get<proton::timestamp>(value).milliseconds();
    case proton::ULONG:
        return static_cast<std::int64_t>(proton::get<std::uint64_t>(value));
    default:
        return proton::coerce<std::int64_t>(value);   // the other whole numbers; throws for the rest
    }
}

// An add-rule's "rule-description" map as Config.json writes a rule
// (servicebus_rule.h): {"sql-filter": {"expression"}} | {"true-filter"} |
// {"false-filter"} | {"correlation-filter": {"correlation-id", …,
// "properties": {…}}}, with an optional {"sql-rule-action": {"expression"}}.
nlohmann::json ruleJson(const std::string &name, const std::map<std::string, proton::value> &description)
{
    nlohmann::json properties = nlohmann::json::object();
    auto expression = [](const proton::value &entry) {
        const auto fields = textMap(entry);
        const auto found = fields ? fields->find("expression") : std::map<std::string, proton::value>::const_iterator();
        if (!fields || found == fields->end() || found->second.type() != proton::STRING)
            throw proton::error("an expression (text) is needed");
        return proton::get<std::string>(found->second);
    };
    if (const auto sql = description.find("sql-filter"); sql != description.end()) {
        properties["FilterType"] = "Sql";
        properties["SqlFilter"] = {{"SqlExpression", expression(sql->second)}};
    } else if (description.count("true-filter") || description.count("false-filter")) {
        properties["FilterType"] = "Sql";
        properties["SqlFilter"] = {{"SqlExpression", description.count("true-filter") ? "1=1" : "1=0"}};
    } else if (const auto correlation = description.find("correlation-filter"); correlation != description.end()) {
        const auto fields = textMap(correlation->second);
        if (!fields)
            throw proton::error("correlation-filter is a map");
        nlohmann::json filter = nlohmann::json::object();
        for (const auto &[key, azureName] : kCorrelationKeys) {
            const auto found = fields->find(std::string(key));
            if (found == fields->end() || found->second.type() == proton::NULL_TYPE)
                continue;
            const nlohmann::json value = jsonValue(found->second);
            filter[std::string(azureName)] = value.is_string() ? value : nlohmann::json(value.dump());
        }
        if (const auto values = fields->find("properties");
            values != fields->end() && values->second.type() != proton::NULL_TYPE) {
            const auto entries = textMap(values->second);
            if (!entries)
                throw proton::error("correlation-filter properties is a map");
            nlohmann::json json = nlohmann::json::object();
            for (const auto &[property, value] : *entries)
                json[property] = jsonValue(value);
            filter["Properties"] = json;
        }
        properties["FilterType"] = "Correlation";
        properties["CorrelationFilter"] = filter;
    } else {
        throw proton::error("the rule-description needs a sql-filter or a correlation-filter");
    }
    if (const auto action = description.find("sql-rule-action");
        action != description.end() && action->second.type() != proton::NULL_TYPE)
        properties["Action"] = {{"SqlExpression", expression(action->second)}};
    return nlohmann::json{{"Name", name}, {"Properties", properties}};
}

// One rule as enumerate-rules answers it: described rule-description
// [filter, action, name].
proton::value describedRule(const ServiceBusRule &rule)
{
    using proton::codec::finish;
    using proton::codec::start;
    proton::value described;
    proton::codec::encoder out(described);
    out << start::described() << kRuleDescription << start::list();
    if (rule.filter == ServiceBusRule::Filter::Correlation) {
        out << start::described() << kCorrelationFilter << start::list();
        for (const auto &[key, azureName] : kCorrelationKeys) {
            const auto found = rule.correlation.find(std::string(azureName));
            if (found == rule.correlation.end())
                out << nullptr;
            else
                out << amqp_message::filterValueAmqp(found->second);
        }
        std::map<std::string, proton::value> properties;
        for (const auto &[property, value] : rule.correlationProperties)
            properties[property] = proton::value(amqp_message::filterValueAmqp(value));
        out << proton::value(properties) << finish() << finish();
    } else {
        const std::uint64_t kind = rule.sqlExpression == "1=1"   ? kTrueFilter
                                   : rule.sqlExpression == "1=0" ? kFalseFilter
                                                                 : kSqlFilter;
        out << start::described() << kind << start::list() << rule.sqlExpression << kCompatibilityLevel << finish()
            << finish();
    }
    if (rule.action.empty())
        out << start::described() << kEmptyRuleAction << start::list() << finish() << finish();
    else
        out << start::described() << kSqlRuleAction << start::list() << rule.action.sqlExpression
            << kCompatibilityLevel << finish() << finish();
    out << rule.name << finish() << finish();
    return described;
}

// The topic and subscription a $management link's entity is; nothing for
// any other entity.
std::optional<std::pair<std::string, std::string>> subscriptionOf(const ServiceBusEntity &entity)
{
    const std::size_t at = entity.queueName.find(kServiceBusSubscriptionsPath);
    if (entity.topic || entity.deadLetterQueue || at == std::string::npos)
        return std::nullopt;
    return std::make_pair(entity.queueName.substr(0, at),
                          entity.queueName.substr(at + kServiceBusSubscriptionsPath.size()));
}

std::string ruleNameOf(const proton::message &request)
{
    const proton::value name = amqp_message::requestBodyEntry(request, "rule-name");
    if (name.type() != proton::STRING)
        throw proton::error("the request needs a rule-name (text)");
    return proton::get<std::string>(name);
}

} // namespace

bool AmqpConnection::isRuleOperation(const std::string &operation)
{
    return operation == "com.microsoft:add-rule" || operation == "com.microsoft:remove-rule"
           || operation == "com.microsoft:enumerate-rules";
}

void AmqpConnection::ruleRequest(const std::string &operation, const proton::message &request, const LinkPtr &link)
{
    const auto subscription = subscriptionOf(link->entity);
    if (!subscription) {
        respond(request, 400, "Rules belong to a topic subscription; '" + link->entity.queueName + "' is none.",
                kArgumentError);
        return;
    }
    const auto &[topic, name] = *subscription;
    auto answered = [request](const auto &self, Status done) {
        if (done) {
            self->respond(request, 200, "OK", {});
            return;
        }
        const BrokerErrorCode code = done.error().code;
        if (code == BrokerErrorCode::QueueAlreadyExists)
            self->respond(request, 409, done.error().message, "com.microsoft:entity-already-exists");
        else if (code == BrokerErrorCode::QueueDoesNotExist)
            self->respond(request, 404, done.error().message, kEntityNotFound);
        else
            self->respond(request, 400, done.error().message, kArgumentError);
    };
    if (operation == "com.microsoft:enumerate-rules")
        return enumerateRules(request, topic, name);
    std::string ruleName;
    nlohmann::json rule;
    try {
        ruleName = ruleNameOf(request);
        if (operation == "com.microsoft:add-rule") {
            const auto description = textMap(amqp_message::requestBodyEntry(request, "rule-description"));
            if (!description)
                throw proton::error("the request needs a rule-description (map)");
            rule = ruleJson(ruleName, *description);
        }
    } catch (const proton::error &error) {
        respond(request, 400, std::string("The rule request is not valid: ") + error.what(), kArgumentError);
        return;
    }
    if (operation == "com.microsoft:remove-rule") {
        m_service.removeServiceBusRule(topic, name, ruleName, nullptr, later<Status>(answered));
        return;
    }
    Result<ServiceBusRule> parsed = parseServiceBusRule(rule);
    if (!parsed) {
        respond(request, 400, parsed.error().message, kArgumentError);
        return;
    }
    m_service.addServiceBusRule(topic, name, std::move(*parsed), nullptr, later<Status>(answered));
}

// enumerate-rules: {"top": int, "skip": int} -> {"rules": [{"rule-description": …}…]}
// in the order they were added; status 204 when there is none from `skip` on.
void AmqpConnection::enumerateRules(const proton::message &request, const std::string &topic,
                                    const std::string &subscription)
{
    std::int64_t top = 0;
    std::int64_t skip = 0;
    try {
        top = proton::coerce<std::int64_t>(amqp_message::requestBodyEntry(request, "top"));
        const proton::value skipped = amqp_message::requestBodyEntry(request, "skip");
        skip = skipped.empty() ? 0 : proton::coerce<std::int64_t>(skipped);
    } catch (const proton::error &) {
        respond(request, 400, "The request needs top and skip.", kArgumentError);
        return;
    }
    m_service.listServiceBusRules(
        topic, subscription, nullptr,
        later<Result<std::vector<ServiceBusRule>>>([request, top, skip](const auto &self,
                                                                        Result<std::vector<ServiceBusRule>> rules) {
            if (!rules) {
                self->respond(request, 404, rules.error().message, kEntityNotFound);
                return;
            }
            std::vector<proton::value> page;
            for (std::size_t i = static_cast<std::size_t>(std::max<std::int64_t>(skip, 0));
                 i < rules->size() && static_cast<std::int64_t>(page.size()) < top; ++i) {
                std::map<std::string, proton::value> entry;
                entry["rule-description"] = describedRule((*rules)[i]);
                page.emplace_back(entry);
            }
            if (page.empty()) {
                self->respond(request, 204, "No rules.", {});
                return;
            }
            self->respond(request, 200, "OK", {}, [&page](proton::message &response) {
                std::map<std::string, proton::value> body;
                body["rules"] = page;
                response.body(body);
            });
        }));
}

} // namespace relaydesk
