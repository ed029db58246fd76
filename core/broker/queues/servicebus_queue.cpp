// SPDX-License-Identifier: MIT
#include "broker/queues/servicebus_queue.h"

#include "broker/broker_identity.h"
#include "broker/queues/queue_records.h"
#include "broker/echoed_value.h"
#include "broker/store_calls.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cmath>
#include <unordered_map>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

BrokerError badProperty(const std::string &queue, std::string_view property, std::string_view problem)
{
    return BrokerError(Code::InvalidParameterValue,
                       "Service Bus queue \"" + echoedValue(queue) + "\": " + std::string(property) + " "
                           + std::string(problem));
}

bool isAlphanumeric(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

} // namespace

std::string serviceBusDurationText(std::int64_t seconds)
{
    if (seconds % 86'400 == 0)
        return "P" + std::to_string(seconds / 86'400) + "D";
    std::string text = "PT";
    if (seconds >= 3600)
        text += std::to_string(seconds / 3600) + "H";
    if (seconds % 3600 >= 60)
        text += std::to_string(seconds % 3600 / 60) + "M";
    if (seconds % 60 != 0)
        text += std::to_string(seconds % 60) + "S";
    return text;
}

namespace {

// A duration property: an ISO 8601 text; nothing for "never".
Result<std::optional<std::int64_t>> durationProperty(const std::string &queue, const nlohmann::json &value,
                                                     std::string_view property)
{
    if (!value.is_string())
        return badProperty(queue, property, "must be an ISO 8601 duration such as \"PT1M\"");
    const std::optional<std::int64_t> seconds = parseServiceBusDuration(value.get<std::string>());
    if (!seconds)
        return badProperty(queue, property, "must be an ISO 8601 duration such as \"PT1M\"");
    if (*seconds >= kServiceBusNever)
        return std::optional<std::int64_t>();
    return seconds;
}

// A property Relaydesk does not build yet: only its "off" value is taken.
Status offOnly(const std::string &queue, std::string_view property, const nlohmann::json &value)
{
    const bool off = value.is_null() || (value.is_boolean() && !value.get<bool>())
                     || (value.is_string() && value.get<std::string>().empty());
    if (!off)
        return badProperty(queue, property, "is not supported by Relaydesk yet (docs/behaviour.md §8.6)");
    return {};
}

// A duration property within [min, max] seconds ("never" is out of range).
Status boundedDuration(const std::string &queue, const nlohmann::json &value, std::string_view property,
                       std::int64_t min, std::int64_t max, std::string_view range, std::int64_t &seconds)
{
    auto parsed = durationProperty(queue, value, property);
    if (!parsed)
        return parsed.error();
    if (!*parsed || **parsed < min || **parsed > max)
        return badProperty(queue, property, range);
    seconds = **parsed;
    return {};
}

Status applyProperty(ServiceBusQueueProperties &properties, const std::string &key, const nlohmann::json &value)
{
    const std::string &queue = properties.name;
    if (key == "LockDuration") {
        return boundedDuration(queue, value, key, ServiceBusQueueProperties::kMinLockDuration,
                               ServiceBusQueueProperties::kMaxLockDuration, "must be between PT5S and PT5M",
                               properties.lockDuration);
    } else if (key == "MaxDeliveryCount") {
        if (!value.is_number_integer() || value.get<std::int64_t>() < 1
            || value.get<std::int64_t>() > ServiceBusQueueProperties::kMaxMaxDeliveryCount)
            return badProperty(queue, key, "must be an integer between 1 and 1000");
        properties.maxDeliveryCount = value.get<int>();
    } else if (key == "DefaultMessageTimeToLive") {
        auto seconds = durationProperty(queue, value, key);
        if (!seconds)
            return seconds.error();
        if (*seconds && **seconds < 1)
            return badProperty(queue, key, "must be at least PT1S");
        properties.defaultMessageTimeToLive = *seconds;
    } else if (key == "AutoDeleteOnIdle") {
        auto seconds = durationProperty(queue, value, key);
        if (!seconds)
            return seconds.error();
        if (*seconds && **seconds < 300)
            return badProperty(queue, key, "must be at least PT5M");
        properties.autoDeleteOnIdle = *seconds;
    } else if (key == "DeadLetteringOnMessageExpiration") {
        if (!value.is_boolean())
            return badProperty(queue, key, "must be true or false");
        properties.deadLetteringOnMessageExpiration = value.get<bool>();
    } else if (key == "DuplicateDetectionHistoryTimeWindow") {
        return boundedDuration(queue, value, key, ServiceBusQueueProperties::kMinDuplicateDetectionWindow,
                               ServiceBusQueueProperties::kMaxDuplicateDetectionWindow,
                               "must be between PT20S and P7D", properties.duplicateDetectionWindow);
    } else if (key == "RequiresSession" || key == "RequiresDuplicateDetection") {
        if (!value.is_boolean())
            return badProperty(queue, key, "must be true or false");
        (key == "RequiresSession" ? properties.requiresSession : properties.requiresDuplicateDetection) =
            value.get<bool>();
    } else if (key == "ForwardTo" || key == "ForwardDeadLetteredMessagesTo") {
        if (value.is_null() || (value.is_string() && value.get<std::string>().empty()))
            return {};
        if (!value.is_string() || !validateServiceBusQueueName(value.get<std::string>()).ok())
            return badProperty(queue, key, "must name a Service Bus queue");
        if (value.get<std::string>() == queue)
            return badProperty(queue, key, "cannot name the queue itself");
        (key == "ForwardTo" ? properties.forwardTo : properties.forwardDeadLetteredMessagesTo) =
            value.get<std::string>();
    } else if (key == "EnablePartitioning" || key == "EnableBatchedOperations") {
        if (key == "EnableBatchedOperations")
            return {};   // a transport hint of the service; nothing to build
        return offOnly(queue, key, value);
    } else {
        return badProperty(queue, key, "is not a Service Bus queue property");
    }
    return {};
}

} // namespace

std::optional<std::int64_t> parseServiceBusDuration(std::string_view text)
{
    if (text.size() < 2 || text[0] != 'P')
        return std::nullopt;
    double total = 0;
    bool inTime = false;
    bool any = false;
    std::size_t at = 1;
    while (at < text.size()) {
        if (text[at] == 'T') {
            if (inTime)
                return std::nullopt;
            inTime = true;
            ++at;
            continue;
        }
        const std::size_t start = at;
        while (at < text.size() && (std::isdigit(static_cast<unsigned char>(text[at])) || text[at] == '.'))
            ++at;
        if (at == start || at == text.size())
            return std::nullopt;
        const std::string number(text.substr(start, at - start));
        if (number.find('.') != number.rfind('.'))
            return std::nullopt;
        const double value = std::stod(number);
        const char unit = text[at++];
        if (!inTime && unit == 'D')
            total += value * 86'400;
        else if (inTime && unit == 'H')
            total += value * 3600;
        else if (inTime && unit == 'M')
            total += value * 60;
        else if (inTime && unit == 'S')
            total += value;
        else
            return std::nullopt;
        any = true;
    }
    if (!any || total > 1e15)
        return std::nullopt;
    return static_cast<std::int64_t>(std::ceil(total));
}

Status validateServiceBusQueueName(std::string_view name)
{
    const bool shape = !name.empty() && name.size() <= 260 && isAlphanumeric(name.front())
                       && isAlphanumeric(name.back());
    bool characters = true;
    for (const char c : name)
        characters = characters && (isAlphanumeric(c) || c == '.' || c == '-' || c == '_' || c == '/');
    if (!shape || !characters)
        return BrokerError(Code::InvalidParameterValue,
                           "Service Bus queue name \"" + echoedValue(name)
                               + "\" must be 1 to 260 letters, digits, '.', '-', '_' or '/', starting and ending "
                                 "with a letter or digit.");
    return {};
}

bool isServiceBusDeadLetterQueue(std::string_view name)
{
    const std::size_t suffix = kServiceBusDeadLetterSuffix.size();
    return name.size() > suffix && name.substr(name.size() - suffix) == kServiceBusDeadLetterSuffix
           && validateServiceBusQueueName(name.substr(0, name.size() - suffix)).ok();
}

Result<ServiceBusQueueProperties> parseServiceBusQueue(const nlohmann::json &queue)
{
    if (!queue.is_object() || !queue.contains("Name") || !queue["Name"].is_string())
        return BrokerError(Code::InvalidParameterValue, "A Service Bus queue needs a \"Name\" (text).");
    ServiceBusQueueProperties properties;
    properties.name = queue["Name"].get<std::string>();
    if (Status name = validateServiceBusQueueName(properties.name); !name)
        return name.error();
    for (const auto &[key, value] : queue.items()) {
        if (key != "Name" && key != "Properties")
            return badProperty(properties.name, key, "is not a field of a Service Bus queue (Name, Properties)");
    }
    if (!queue.contains("Properties"))
        return properties;
    const nlohmann::json &given = queue["Properties"];
    if (!given.is_object())
        return badProperty(properties.name, "Properties", "must be an object");
    for (const auto &[key, value] : given.items()) {
        if (Status applied = applyProperty(properties, key, value); !applied)
            return applied.error();
    }
    return properties;
}

nlohmann::json serviceBusQueueJson(const ServiceBusQueueProperties &properties)
{
    nlohmann::json json = nlohmann::json::object();
    json["LockDuration"] = serviceBusDurationText(properties.lockDuration);
    json["MaxDeliveryCount"] = properties.maxDeliveryCount;
    if (properties.defaultMessageTimeToLive)
        json["DefaultMessageTimeToLive"] = serviceBusDurationText(*properties.defaultMessageTimeToLive);
    json["DeadLetteringOnMessageExpiration"] = properties.deadLetteringOnMessageExpiration;
    if (properties.autoDeleteOnIdle)
        json["AutoDeleteOnIdle"] = serviceBusDurationText(*properties.autoDeleteOnIdle);
    json["RequiresSession"] = properties.requiresSession;
    json["RequiresDuplicateDetection"] = properties.requiresDuplicateDetection;
    json["DuplicateDetectionHistoryTimeWindow"] = serviceBusDurationText(properties.duplicateDetectionWindow);
    if (!properties.forwardTo.empty())
        json["ForwardTo"] = properties.forwardTo;
    if (!properties.forwardDeadLetteredMessagesTo.empty())
        json["ForwardDeadLetteredMessagesTo"] = properties.forwardDeadLetteredMessagesTo;
    return nlohmann::json{{"Name", properties.name}, {"Properties", json}};
}

std::string serviceBusDeadLetterTarget(const ServiceBusQueueProperties &properties)
{
    if (!properties.forwardDeadLetteredMessagesTo.empty())
        return properties.forwardDeadLetteredMessagesTo;
    return properties.name + std::string(kServiceBusDeadLetterSuffix);
}

QueueAttributes serviceBusQueueAttributes(const ServiceBusQueueProperties &properties, const BrokerIdentity &identity)
{
    QueueAttributes attributes;
    attributes.visibilityTimeout = static_cast<int>(properties.lockDuration);
    attributes.messageRetentionPeriod = QueueAttributes::kMaxRetentionPeriod;
    attributes.maximumMessageSize = QueueAttributes::kMaxMaximumMessageSize;
    attributes.redrivePolicy = QueueRedrivePolicy{identity.queueArn(serviceBusDeadLetterTarget(properties)),
                                                  properties.maxDeliveryCount};
    attributes.defaultMessageTimeToLive = properties.defaultMessageTimeToLive;
    attributes.deadLetteringOnMessageExpiration = properties.deadLetteringOnMessageExpiration;
    attributes.autoDeleteOnIdle = properties.autoDeleteOnIdle;
    return attributes;
}

namespace servicebus_queues {

namespace {

// parseServiceBusQueue() of a queue's stored text. Parsing is a pure function
// of the text, and a send reads its queue's properties for every message (a
// fifth of an AMQP send's broker-thread time was this parse), so each thread
// keeps its recent parses by text.
Result<ServiceBusQueueProperties> parseStored(const std::string &stored)
{
    constexpr std::size_t kRemembered = 256;
    thread_local std::unordered_map<std::string, ServiceBusQueueProperties> parsed;
    if (const auto found = parsed.find(stored); found != parsed.end())
        return found->second;
    Result<ServiceBusQueueProperties> properties = parseServiceBusQueue(nlohmann::json::parse(stored, nullptr, false));
    if (!properties)
        return properties.error();
    if (parsed.size() >= kRemembered)
        parsed.clear();
    parsed.emplace(stored, *properties);
    return properties;
}

Result<std::optional<ServiceBusQueueProperties>> findQueue(Database &db, std::string_view name)
{
    auto row = selectRow(db, "SELECT servicebus FROM queues WHERE name = ?", name);
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<ServiceBusQueueProperties>();
    const std::optional<std::string> stored = (**row)->columnOptionalText(0);
    if (!stored)
        return BrokerError(Code::QueueAlreadyExists,
                           "A queue named \"" + echoedValue(name) + "\" exists and is not a Service Bus queue.");
    auto parsed = parseStored(*stored);
    if (!parsed)
        return BrokerError(Code::InternalError, "a stored Service Bus queue is damaged: " + parsed.error().message);
    return std::optional<ServiceBusQueueProperties>(*parsed);
}

BrokerError notFound(std::string_view address)
{
    return BrokerError(Code::QueueDoesNotExist,
                       "The messaging entity '" + echoedValue(address) + "' could not be found.");
}

} // namespace

Result<bool> create(Database &db, const ServiceBusQueueProperties &properties, const BrokerIdentity &identity,
                    ClockTime now)
{
    auto existing = findQueue(db, properties.name);
    if (!existing)
        return existing.error();
    if (*existing) {
        // Without duplicate detection the window changes nothing (and queues
        // stored before it was built kept none): it is not compared then.
        ServiceBusQueueProperties stored = **existing;
        if (!stored.requiresDuplicateDetection && !properties.requiresDuplicateDetection)
            stored.duplicateDetectionWindow = properties.duplicateDetectionWindow;
        if (stored == properties)
            return false;
        return BrokerError(Code::QueueAlreadyExists, "The Service Bus queue \"" + echoedValue(properties.name)
                                                         + "\" exists with other properties.");
    }
    if (auto topic = selectRow(db, "SELECT 1 FROM servicebus_topics WHERE name = ?", properties.name); !topic || *topic)
        return topic ? BrokerError(Code::QueueAlreadyExists, "A Service Bus topic named \"" + echoedValue(properties.name)
                                                                 + "\" exists already.")
                     : topic.error();
    const std::string deadLetterName = properties.name + std::string(kServiceBusDeadLetterSuffix);
    if (auto taken = queue_records::find(db, deadLetterName); !taken || *taken)
        return taken ? BrokerError(Code::QueueAlreadyExists, "A queue named \"" + echoedValue(deadLetterName)
                                                                 + "\" exists already.")
                     : taken.error();
    QueueAttributes deadLetters;
    deadLetters.visibilityTimeout = static_cast<int>(properties.lockDuration);
    deadLetters.messageRetentionPeriod = QueueAttributes::kMaxRetentionPeriod;
    deadLetters.maximumMessageSize = QueueAttributes::kMaxMaximumMessageSize;
    if (auto id = queue_records::insert(db, deadLetterName, deadLetters, now); !id)
        return id.error();
    auto id = queue_records::insert(db, properties.name, serviceBusQueueAttributes(properties, identity), now);
    if (!id)
        return id.error();
    if (Status marked = executeStatement(db, "UPDATE queues SET servicebus = ? WHERE id = ?",
                                         serviceBusQueueJson(properties).dump(), *id);
        !marked)
        return marked.error();
    return true;
}

Result<ServiceBusEntity> find(Database &db, std::string_view address)
{
    ServiceBusEntity entity;
    std::string_view queue = address;
    if (address.size() > kServiceBusDeadLetterSuffix.size()
        && address.substr(address.size() - kServiceBusDeadLetterSuffix.size()) == kServiceBusDeadLetterSuffix) {
        queue = address.substr(0, address.size() - kServiceBusDeadLetterSuffix.size());
        entity.deadLetterQueue = true;
    }
    auto properties = findQueue(db, queue);
    if (!properties) {
        if (properties.error().code == Code::QueueAlreadyExists)
            return notFound(address);
        return properties.error();
    }
    if (!*properties)
        return notFound(address);
    entity.properties = **properties;
    entity.queueName = std::string(address);
    if (entity.deadLetterQueue) {
        auto row = queue_records::find(db, address);
        if (!row)
            return row.error();
        if (!*row)
            return notFound(address);
    }
    return entity;
}

Result<std::vector<ServiceBusQueueProperties>> list(Database &db)
{
    Result<CachedStatement> statement =
        prepareBound(db, "SELECT servicebus FROM queues WHERE servicebus IS NOT NULL AND id NOT IN (SELECT queue_id FROM "
                         "servicebus_subscriptions) ORDER BY name");
    if (!statement)
        return statement.error();
    std::vector<ServiceBusQueueProperties> queues;
    bool damaged = false;
    Status walked = forEachRow(**statement, [&](Statement &row) {
        auto parsed = parseServiceBusQueue(nlohmann::json::parse(row.columnText(0), nullptr, false));
        if (parsed)
            queues.push_back(*parsed);
        else
            damaged = true;
    });
    if (!walked)
        return walked.error();
    if (damaged)
        return BrokerError(Code::InternalError, "a stored Service Bus queue is damaged");
    return queues;
}

} // namespace servicebus_queues

} // namespace relaydesk
