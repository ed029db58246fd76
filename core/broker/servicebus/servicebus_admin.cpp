// SPDX-License-Identifier: MIT
#include "broker/servicebus/servicebus_admin.h"

#include "broker/echoed_value.h"
#include "broker/queues/queue_records.h"
#include "broker/servicebus/servicebus_topic.h"
#include "broker/store_calls.h"

#include <nlohmann/json.hpp>

namespace relaydesk::servicebus_admin {

namespace {

using Code = BrokerErrorCode;

BrokerError notFound(std::string_view what, std::string_view name)
{
    return BrokerError(Code::QueueDoesNotExist,
                       "The Service Bus " + std::string(what) + " '" + echoedValue(name) + "' could not be found.");
}

// Deletes a Service Bus queue row and its sub-queue row (messages, sessions
// and duplicates go with them: ON DELETE CASCADE); adds their names to `deleted`.
Status deleteWithSubQueue(Database &db, const std::string &queue, std::vector<std::string> &deleted)
{
    for (const std::string &name : {queue + std::string(kServiceBusDeadLetterSuffix), queue}) {
        Result<std::optional<QueueRecord>> record = queue_records::find(db, name);
        if (!record)
            return record.error();
        if (!*record)
            continue;
        if (Status removed = executeStatement(db, "DELETE FROM queues WHERE id = ?", (*record)->id); !removed)
            return removed;
        deleted.push_back(name);
    }
    return {};
}

} // namespace

Result<std::vector<std::string>> deleteQueue(Database &db, std::string_view name)
{
    auto entity = servicebus_queues::find(db, name);
    if (!entity || entity->deadLetterQueue)
        return notFound("queue", name);
    auto subscription = selectRow(db,
                                  "SELECT 1 FROM servicebus_subscriptions s JOIN queues q ON q.id = s.queue_id "
                                  "WHERE q.name = ?",
                                  name);
    if (!subscription)
        return subscription.error();
    if (*subscription)
        return notFound("queue", name);
    std::vector<std::string> deleted;
    if (Status removed = deleteWithSubQueue(db, std::string(name), deleted); !removed)
        return removed.error();
    return deleted;
}

Result<std::vector<std::string>> deleteTopic(Database &db, std::string_view name)
{
    Result<ServiceBusTopic> topic = servicebus_topics::find(db, name);
    if (!topic)
        return notFound("topic", name);
    std::vector<std::string> deleted;
    for (const ServiceBusSubscription &subscription : topic->subscriptions)
        if (Status removed = deleteWithSubQueue(db, serviceBusSubscriptionQueue(name, subscription.name), deleted);
            !removed)
            return removed.error();
    if (Status removed = executeStatement(db, "DELETE FROM servicebus_topics WHERE name = ?", name); !removed)
        return removed.error();
    return deleted;
}

Result<std::vector<std::string>> deleteSubscription(Database &db, std::string_view topic, std::string_view subscription)
{
    const std::string queue = serviceBusSubscriptionQueue(topic, subscription);
    auto row = selectRow(db, "SELECT 1 FROM servicebus_subscriptions WHERE topic = ? AND name = ?", topic, subscription);
    if (!row)
        return row.error();
    if (!*row)
        return notFound("subscription", queue);
    std::vector<std::string> deleted;
    if (Status removed = deleteWithSubQueue(db, queue, deleted); !removed)
        return removed.error();
    return deleted;
}

Status updateQueue(Database &db, const ServiceBusQueueProperties &properties, const BrokerIdentity &identity,
                   ClockTime now)
{
    auto entity = servicebus_queues::find(db, properties.name);
    if (!entity || entity->deadLetterQueue)
        return notFound("queue", properties.name);
    const ServiceBusQueueProperties &stored = entity->properties;
    const auto fixed = [&](std::string_view property) {
        return BrokerError(Code::InvalidParameterValue, "Service Bus queue \"" + echoedValue(properties.name) + "\": "
                                                            + std::string(property) + " cannot be changed after creation");
    };
    if (stored.requiresSession != properties.requiresSession)
        return fixed("RequiresSession");
    if (stored.requiresDuplicateDetection != properties.requiresDuplicateDetection)
        return fixed("RequiresDuplicateDetection");
    Result<QueueRecord> record = queue_records::require(db, properties.name);
    if (!record)
        return record.error();
    if (Status updated = queue_records::update(db, record->id, serviceBusQueueAttributes(properties, identity), now);
        !updated)
        return updated;
    return executeStatement(db, "UPDATE queues SET servicebus = ? WHERE id = ?", serviceBusQueueJson(properties).dump(),
                            record->id);
}

} // namespace relaydesk::servicebus_admin
