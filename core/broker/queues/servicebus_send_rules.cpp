// SPDX-License-Identifier: MIT
#include "broker/queues/servicebus_send_rules.h"

#include "broker/queues/message_sender.h"
#include "broker/queues/queue_records.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/queues/servicebus_session.h"
#include "broker/store_calls.h"

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

Status touchSession(Database &db, std::int64_t queueId, const std::string &sessionId, std::int64_t nowMs)
{
    return executeStatement(db,
                            "INSERT INTO servicebus_sessions (queue_id, session_id, updated_ms) VALUES (?1, ?2, ?3) "
                            "ON CONFLICT (queue_id, session_id) DO UPDATE SET updated_ms = ?3",
                            queueId, sessionId, nowMs);
}

// True when `messageId` was sent within the window; remembers it otherwise.
Result<bool> seenBefore(Database &db, std::int64_t queueId, const std::string &messageId, std::int64_t windowMs,
                        std::int64_t nowMs)
{
    if (Status forgotten =
            executeStatement(db, "DELETE FROM servicebus_duplicates WHERE queue_id = ? AND expires_ms <= ?", queueId,
                             nowMs);
        !forgotten)
        return forgotten.error();
    auto seen = selectOptionalInt64(
        db, "SELECT expires_ms FROM servicebus_duplicates WHERE queue_id = ? AND message_id = ?", queueId, messageId);
    if (!seen)
        return seen.error();
    if (*seen)
        return true;
    if (Status remembered = executeStatement(
            db, "INSERT INTO servicebus_duplicates (queue_id, message_id, expires_ms) VALUES (?, ?, ?)", queueId,
            messageId, nowMs + windowMs);
        !remembered)
        return remembered.error();
    return false;
}

} // namespace

Result<bool> admitServiceBusMessage(Database &db, const ServiceBusQueueProperties &properties,
                                    const SendRequest &request, ClockTime now)
{
    if (!properties.requiresSession && !properties.requiresDuplicateDetection)
        return true;
    Result<QueueRecord> queue = queue_records::require(db, properties.name);
    if (!queue)
        return queue.error();
    const std::int64_t nowMs = toEpochMilliseconds(now);
    if (properties.requiresSession) {
        if (!request.groupId || request.groupId->empty()
            || request.groupId->size() > servicebus_sessions::kMaxSessionIdLength)
            return BrokerError(Code::InvalidParameterValue,
                               "The SessionId was not set on a message, and it cannot be sent to the entity. "
                               "Entities that have session support enabled can only receive messages that have "
                               "the SessionId set to a valid value.");
        if (Status touched = touchSession(db, queue->id, *request.groupId, nowMs); !touched)
            return touched.error();
    }
    if (properties.requiresDuplicateDetection && request.serviceBusMessageId) {
        Result<bool> seen = seenBefore(db, queue->id, *request.serviceBusMessageId,
                                       properties.duplicateDetectionWindow * 1000, nowMs);
        if (!seen)
            return seen.error();
        if (*seen)
            return false;
    }
    return true;
}

Result<std::optional<std::string>> routeServiceBusMessage(Database &db, std::string_view queueName,
                                                          const SendRequest &request, ClockTime now)
{
    std::string target(queueName);
    for (int hop = 0;; ++hop) {
        Result<ServiceBusEntity> entity = servicebus_queues::find(db, target);
        if (!entity)
            return entity.error();
        Result<bool> admitted = admitServiceBusMessage(db, entity->properties, request, now);
        if (!admitted)
            return admitted.error();
        if (!*admitted)
            return std::optional<std::string>();
        if (entity->deadLetterQueue || entity->properties.forwardTo.empty())
            return std::optional<std::string>(target);
        if (hop == kMaxForwardHops)
            return BrokerError(Code::InvalidParameterValue,
                               "The message was forwarded more than " + std::to_string(kMaxForwardHops)
                                   + " times from \"" + std::string(queueName) + "\" (ForwardTo).");
        target = entity->properties.forwardTo;
    }
}

} // namespace relaydesk
