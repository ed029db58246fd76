// SPDX-License-Identifier: MIT
#include "broker/queues/servicebus_session.h"

#include "broker/echoed_value.h"
#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

#include <span>

namespace relaydesk::servicebus_sessions {

namespace {

using Code = BrokerErrorCode;

BrokerError lockLost(std::string_view sessionId)
{
    return BrokerError(Code::MessageNotInflight, "The session lock has expired on the session with id '"
                                                     + echoedValue(sessionId) + "', or another receiver holds it.");
}

std::int64_t lockEndMs(const QueueRecord &queue, ClockTime now)
{
    return toEpochMilliseconds(now) + std::int64_t(queue.attributes.visibilityTimeout) * 1000;
}

Status lockFor(Database &db, const QueueRecord &queue, std::string_view sessionId, std::string_view token,
               std::int64_t untilMs, ClockTime now)
{
    return executeStatement(db,
                            "INSERT INTO servicebus_sessions (queue_id, session_id, lock_token, locked_until_ms, "
                            "updated_ms) VALUES (:queue, :session, :token, :until, :now) ON CONFLICT "
                            "(queue_id, session_id) DO UPDATE SET lock_token = :token, locked_until_ms = :until",
                            named(":queue", queue.id), named(":session", sessionId), named(":token", token),
                            named(":until", untilMs), named(":now", toEpochMilliseconds(now)));
}

// The next unlocked session with a message to receive now (deferred ones
// wait for a receive by sequence number), oldest message first.
Result<std::optional<std::string>> nextAvailable(Database &db, std::int64_t queueId, std::int64_t nowMs)
{
    auto row = selectRow(db,
                         "SELECT m.group_id FROM messages m WHERE m.queue_id = :queue AND m.group_id IS NOT NULL "
                         "AND m.visible_at_ms <= :now AND m.deferred = 0 AND (m.expires_at_ms IS NULL OR m.expires_at_ms > :now) "
                         "AND NOT EXISTS (SELECT 1 FROM servicebus_sessions s WHERE "
                         "s.queue_id = m.queue_id AND s.session_id = m.group_id AND s.locked_until_ms > :now) "
                         "ORDER BY m.id LIMIT 1",
                         named(":queue", queueId), named(":now", nowMs));
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<std::string>();
    return std::optional<std::string>((**row)->columnText(0));
}

} // namespace

Result<Acceptance> accept(Database &db, std::string_view queueName, const std::optional<std::string> &sessionId,
                          std::string_view lockToken, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    const std::int64_t nowMs = toEpochMilliseconds(now);
    Acceptance acceptance;
    if (sessionId) {
        if (sessionId->size() > kMaxSessionIdLength)
            return BrokerError(Code::InvalidParameterValue, "A SessionId is at most 128 characters.");
        auto holder = selectRow(db,
                                "SELECT lock_token FROM servicebus_sessions WHERE queue_id = ? AND session_id = ? "
                                "AND locked_until_ms > ? AND lock_token IS NOT NULL",
                                queue->id, *sessionId, nowMs);
        if (!holder)
            return holder.error();
        if (*holder && (**holder)->columnText(0) != lockToken) {
            acceptance.outcome = Acceptance::Outcome::HeldByAnother;
            acceptance.sessionId = *sessionId;
            return acceptance;
        }
        acceptance.sessionId = *sessionId;
    } else {
        Result<std::optional<std::string>> next = nextAvailable(db, queue->id, nowMs);
        if (!next)
            return next.error();
        if (!*next)
            return acceptance;
        acceptance.sessionId = **next;
    }
    const std::int64_t untilMs = lockEndMs(*queue, now);
    if (Status locked = lockFor(db, *queue, acceptance.sessionId, lockToken, untilMs, now); !locked)
        return locked.error();
    acceptance.outcome = Acceptance::Outcome::Locked;
    acceptance.lockedUntil = fromEpochMilliseconds(untilMs);
    return acceptance;
}

Result<ClockTime> requireLock(Database &db, std::int64_t queueId, const ServiceBusSessionHold &hold, ClockTime now)
{
    auto until = selectOptionalInt64(db,
                                     "SELECT locked_until_ms FROM servicebus_sessions WHERE queue_id = ? AND "
                                     "session_id = ? AND lock_token = ? AND locked_until_ms > ?",
                                     queueId, hold.sessionId, hold.lockToken, toEpochMilliseconds(now));
    if (!until)
        return until.error();
    if (!*until)
        return lockLost(hold.sessionId);
    return fromEpochMilliseconds(**until);
}

Result<ClockTime> renew(Database &db, std::string_view queueName, const ServiceBusSessionHold &hold, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    if (Result<ClockTime> held = requireLock(db, queue->id, hold, now); !held)
        return held.error();
    const std::int64_t untilMs = lockEndMs(*queue, now);
    if (Status renewed = executeStatement(db,
                                          "UPDATE servicebus_sessions SET locked_until_ms = ? WHERE queue_id = ? AND "
                                          "session_id = ?",
                                          untilMs, queue->id, hold.sessionId);
        !renewed)
        return renewed.error();
    if (Status messages = executeStatement(db,
                                           "UPDATE messages SET visible_at_ms = ? WHERE queue_id = ? AND group_id = ? "
                                           "AND state = 'inflight' AND visible_at_ms > ?",
                                           untilMs, queue->id, hold.sessionId, toEpochMilliseconds(now));
        !messages)
        return messages.error();
    return fromEpochMilliseconds(untilMs);
}

Status release(Database &db, std::string_view queueName, const ServiceBusSessionHold &hold, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    if (Result<ClockTime> held = requireLock(db, queue->id, hold, now); !held)
        return {};
    const std::int64_t nowMs = toEpochMilliseconds(now);
    if (Status released = executeStatement(db,
                                           "UPDATE servicebus_sessions SET lock_token = NULL, locked_until_ms = 0 "
                                           "WHERE queue_id = ? AND session_id = ?",
                                           queue->id, hold.sessionId);
        !released)
        return released;
    return executeStatement(db,
                            "UPDATE messages SET state = 'queued', receipt_handle = NULL, receive_attempt_id = NULL, "
                            "visible_at_ms = ? WHERE queue_id = ? AND group_id = ? AND state = 'inflight' AND "
                            "visible_at_ms > ?",
                            nowMs, queue->id, hold.sessionId, nowMs);
}

Result<std::optional<std::string>> state(Database &db, std::string_view queueName, const ServiceBusSessionHold &hold,
                                         ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    if (Result<ClockTime> held = requireLock(db, queue->id, hold, now); !held)
        return held.error();
    auto row = selectRow(db, "SELECT state FROM servicebus_sessions WHERE queue_id = ? AND session_id = ?", queue->id,
                         hold.sessionId);
    if (!row)
        return row.error();
    if (!*row || (**row)->columnIsNull(0))
        return std::optional<std::string>();
    const std::vector<std::byte> bytes = (**row)->columnBlob(0);
    return std::optional<std::string>(std::string(reinterpret_cast<const char *>(bytes.data()), bytes.size()));
}

Status setState(Database &db, std::string_view queueName, const ServiceBusSessionHold &hold,
                const std::optional<std::string> &state, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    if (Result<ClockTime> held = requireLock(db, queue->id, hold, now); !held)
        return held.error();
    std::optional<BlobView> blob;
    if (state)
        blob = std::as_bytes(std::span(state->data(), state->size()));
    return executeStatement(db,
                            "UPDATE servicebus_sessions SET state = ?, updated_ms = ? WHERE queue_id = ? AND "
                            "session_id = ?",
                            blob, toEpochMilliseconds(now), queue->id, hold.sessionId);
}

Result<std::vector<std::string>> list(Database &db, std::string_view queueName, ClockTime updatedAfter,
                                      std::int64_t skip, std::int64_t top)
{
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    return selectColumn<std::string>(
        db,
        "SELECT s.session_id FROM servicebus_sessions s WHERE s.queue_id = :queue AND s.updated_ms > :after AND "
        "(s.state IS NOT NULL OR EXISTS (SELECT 1 FROM messages m WHERE m.queue_id = s.queue_id AND "
        "m.group_id = s.session_id)) ORDER BY s.session_id LIMIT :top OFFSET :skip",
        named(":queue", queue->id), named(":after", toEpochMilliseconds(updatedAfter)), named(":top", top),
        named(":skip", skip));
}

Result<std::vector<std::int64_t>> receivable(Database &db, std::int64_t queueId, std::string_view sessionId,
                                             std::size_t wanted, ClockTime now)
{
    return selectColumn<std::int64_t>(db,
                                      "SELECT id FROM messages WHERE queue_id = ?1 AND group_id = ?2 AND "
                                      "visible_at_ms <= ?3 AND deferred = 0 AND (expires_at_ms IS NULL OR "
                                      "expires_at_ms > ?3) ORDER BY id LIMIT ?4",
                                      queueId, sessionId, toEpochMilliseconds(now),
                                      static_cast<std::int64_t>(wanted));
}

} // namespace relaydesk::servicebus_sessions
