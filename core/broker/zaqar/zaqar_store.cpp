// SPDX-License-Identifier: MIT
#include "broker/zaqar/zaqar_store.h"

#include "json/bounded_json.h"

#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

namespace relaydesk::zaqar_store {

namespace {

// JSON as stored: compact, invalid UTF-8 replaced.
std::string jsonText(const nlohmann::json &value)
{
    return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

nlohmann::json parsedObject(const std::string &text)
{
    nlohmann::json value = parseBoundedJson(text);
    return value.is_object() ? value : nlohmann::json::object();
}

constexpr std::string_view kMessageColumns =
    "SELECT m.id, m.message_id, m.body, m.attributes, m.sent_ms, m.expires_at_ms, m.state, m.visible_at_ms, "
    "m.receipt_handle, (SELECT c.claim_id FROM zaqar_claimed_messages c WHERE c.receipt_handle = m.receipt_handle "
    "LIMIT 1) FROM messages m ";

StoredMessage readMessage(Statement &row, ClockTime now)
{
    StoredMessage message;
    message.rowId = row.columnInt64(0);
    message.id = row.columnText(1);
    message.body = row.columnText(2);
    const MessageAttributes attributes = queue_records::readMessageAttributes(row.columnText(3));
    if (auto found = attributes.find(std::string(kClientIdAttribute)); found != attributes.end())
        message.clientId = found->second.stringValue;
    message.sentMs = row.columnInt64(4);
    message.expiresMs = row.columnOptionalInt64(5);
    const bool invisible = row.columnInt64(7) > toEpochMilliseconds(now);
    message.claimed = invisible && row.columnText(6) == "inflight";
    message.delayed = invisible && !message.claimed;
    if (message.claimed) {
        message.receiptHandle = row.columnOptionalText(8);
        message.claimId = row.columnOptionalText(9).value_or("");
    }
    return message;
}

SubscriptionEntry readSubscription(Statement &row)
{
    return SubscriptionEntry{row.columnText(0), row.columnInt64(1), row.columnText(2), row.columnText(3),
                             row.columnInt64(4), parsedObject(row.columnText(5)), row.columnInt64(6)};
}

constexpr std::string_view kSubscriptionColumns =
    "SELECT s.uuid, s.id, q.name, z.subscriber, z.ttl_s, z.options, z.created_ms FROM zaqar_subscriptions z "
    "JOIN subscriptions s ON s.id = z.subscription_id JOIN queues q ON q.id = z.queue_id ";

} // namespace

Result<std::optional<std::int64_t>> queueId(Database &db, std::string_view name)
{
    return selectOptionalInt64(db, "SELECT id FROM queues WHERE name = ? AND fifo = 0", name);
}

Result<nlohmann::json> metadata(Database &db, std::int64_t queueId)
{
    auto row = selectRow(db, "SELECT metadata FROM zaqar_queues WHERE queue_id = ?", queueId);
    if (!row)
        return row.error();
    if (!*row)
        return nlohmann::json::object();
    return parsedObject((**row)->columnText(0));
}

Status putMetadata(Database &db, std::int64_t queueId, const nlohmann::json &metadata, const std::string &project)
{
    return executeStatement(db,
                            "INSERT INTO zaqar_queues (queue_id, metadata, project) VALUES (?, ?, ?) "
                            "ON CONFLICT (queue_id) DO UPDATE SET metadata = excluded.metadata",
                            queueId, jsonText(metadata), project);
}

Result<std::vector<QueueEntry>> queuesAfter(Database &db, const std::string &marker, int limit)
{
    auto statement = prepareBound(db,
                                  "SELECT q.name, z.metadata FROM queues q LEFT JOIN zaqar_queues z ON z.queue_id = q.id "
                                  "WHERE q.fifo = 0 AND q.name > ? ORDER BY q.name LIMIT ?",
                                  marker, std::int64_t(limit));
    if (!statement)
        return statement.error();
    std::vector<QueueEntry> queues;
    const Status read = forEachRow(**statement, [&](Statement &row) {
        queues.push_back({row.columnText(0), parsedObject(row.columnOptionalText(1).value_or("{}"))});
    });
    if (!read)
        return read.error();
    return queues;
}

Result<std::vector<StoredMessage>> messagesAfter(Database &db, std::int64_t queueId, std::int64_t afterRowId,
                                                 int limit, ClockTime now)
{
    auto statement = prepareBound(db,
                                  std::string(kMessageColumns) +
                                      "WHERE m.queue_id = ? AND m.id > ? AND m.state <> 'scheduled' AND "
                                      "(m.expires_at_ms IS NULL OR m.expires_at_ms > ?) ORDER BY m.id LIMIT ?",
                                  queueId, afterRowId, toEpochMilliseconds(now), std::int64_t(limit));
    if (!statement)
        return statement.error();
    std::vector<StoredMessage> messages;
    const Status read = forEachRow(**statement, [&](Statement &row) { messages.push_back(readMessage(row, now)); });
    if (!read)
        return read.error();
    return messages;
}

Result<std::optional<StoredMessage>> newestMessage(Database &db, std::int64_t queueId, ClockTime now)
{
    auto row = selectRow(db,
                         std::string(kMessageColumns) +
                             "WHERE m.queue_id = ? AND m.state <> 'scheduled' AND "
                             "(m.expires_at_ms IS NULL OR m.expires_at_ms > ?) ORDER BY m.id DESC LIMIT 1",
                         queueId, toEpochMilliseconds(now));
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<StoredMessage>();
    return std::optional<StoredMessage>(readMessage(***row, now));
}

Result<std::optional<StoredMessage>> message(Database &db, std::int64_t queueId, std::string_view messageId,
                                             ClockTime now)
{
    auto row = selectRow(db,
                         std::string(kMessageColumns) +
                             "WHERE m.queue_id = ? AND m.message_id = ? AND m.state <> 'scheduled' AND "
                             "(m.expires_at_ms IS NULL OR m.expires_at_ms > ?)",
                         queueId, messageId, toEpochMilliseconds(now));
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<StoredMessage>();
    return std::optional<StoredMessage>(readMessage(***row, now));
}

Result<bool> deleteMessage(Database &db, std::int64_t queueId, std::string_view messageId)
{
    if (Status done = executeStatement(db, "DELETE FROM messages WHERE queue_id = ? AND message_id = ?", queueId, messageId);
        !done)
        return done.error();
    return db.changes() > 0;
}

Status insertClaim(Database &db, std::int64_t queueId, const Claim &claim)
{
    return executeStatement(db,
                            "INSERT INTO zaqar_claims (claim_id, queue_id, ttl_s, grace_s, updated_ms, created_ms) "
                            "VALUES (?, ?, ?, ?, ?, ?)",
                            claim.id, queueId, claim.ttl, claim.grace, claim.updatedMs, claim.createdMs);
}

Status addClaimedMessage(Database &db, const std::string &claimId, const std::string &messageId,
                         const std::string &receiptHandle)
{
    return executeStatement(db, "INSERT INTO zaqar_claimed_messages (claim_id, message_id, receipt_handle) VALUES (?, ?, ?)",
                            claimId, messageId, receiptHandle);
}

Result<std::optional<Claim>> claim(Database &db, std::int64_t queueId, std::string_view claimId, ClockTime now)
{
    auto row = selectRow(db,
                         "SELECT claim_id, ttl_s, grace_s, updated_ms, created_ms FROM zaqar_claims "
                         "WHERE claim_id = ? AND queue_id = ? AND updated_ms + ttl_s * 1000 > ?",
                         claimId, queueId, toEpochMilliseconds(now));
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<Claim>();
    Statement &found = ***row;
    return std::optional<Claim>(
        Claim{found.columnText(0), found.columnInt64(1), found.columnInt64(2), found.columnInt64(3), found.columnInt64(4)});
}

Result<std::int64_t> liveClaims(Database &db, std::int64_t queueId, ClockTime now)
{
    Result<std::optional<std::int64_t>> count = selectOptionalInt64(
        db, "SELECT count(*) FROM zaqar_claims WHERE queue_id = ? AND updated_ms + ttl_s * 1000 > ?", queueId,
        toEpochMilliseconds(now));
    if (!count)
        return count.error();
    return count->value_or(0);
}

Result<std::vector<std::pair<std::string, std::string>>> claimedHandles(Database &db, std::string_view claimId,
                                                                        ClockTime now)
{
    auto statement = prepareBound(db,
                                  "SELECT c.message_id, c.receipt_handle FROM zaqar_claimed_messages c "
                                  "JOIN messages m ON m.receipt_handle = c.receipt_handle "
                                  "WHERE c.claim_id = ? AND m.state = 'inflight' AND m.visible_at_ms > ? ORDER BY m.id",
                                  claimId, toEpochMilliseconds(now));
    if (!statement)
        return statement.error();
    std::vector<std::pair<std::string, std::string>> handles;
    const Status read = forEachRow(**statement, [&](Statement &row) {
        handles.emplace_back(row.columnText(0), row.columnText(1));
    });
    if (!read)
        return read.error();
    return handles;
}

Status renewClaim(Database &db, std::string_view claimId, std::int64_t ttl, std::int64_t grace, ClockTime now)
{
    return executeStatement(db, "UPDATE zaqar_claims SET ttl_s = ?, grace_s = ?, updated_ms = ? WHERE claim_id = ?", ttl,
                            grace, toEpochMilliseconds(now), claimId);
}

Status deleteClaim(Database &db, std::string_view claimId)
{
    return executeStatement(db, "DELETE FROM zaqar_claims WHERE claim_id = ?", claimId);
}

Status extendLifetime(Database &db, std::int64_t queueId, const std::vector<std::string> &messageIds,
                      std::int64_t untilMs)
{
    for (const std::string &id : messageIds) {
        if (Status done = executeStatement(db,
                                           "UPDATE messages SET expires_at_ms = ? WHERE queue_id = ? AND message_id = ? "
                                           "AND expires_at_ms IS NOT NULL AND expires_at_ms < ?",
                                           untilMs, queueId, id, untilMs);
            !done)
            return done;
    }
    return {};
}

Status setDeadLetterLifetime(Database &db, std::int64_t sourceQueueId, const std::string &deadLetterQueue,
                             std::int64_t ttl, ClockTime now)
{
    // A move sets the message's queue, source, reason, and its visibility to the time of the move.
    const std::int64_t nowMs = toEpochMilliseconds(now);
    return executeStatement(db,
                            "UPDATE messages SET expires_at_ms = ? WHERE queue_id = (SELECT id FROM queues WHERE name = ?) "
                            "AND source_queue_id = ? AND dead_letter_reason IS NOT NULL AND visible_at_ms = ? "
                            "AND receive_count = 0",
                            nowMs + ttl * 1000, deadLetterQueue, sourceQueueId, nowMs);
}

Status insertSubscription(Database &db, std::string_view uuid, std::int64_t queueId, const std::string &subscriber,
                          std::int64_t ttl, const nlohmann::json &options, ClockTime now)
{
    return executeStatement(db,
                            "INSERT INTO zaqar_subscriptions (subscription_id, queue_id, subscriber, ttl_s, options, created_ms, "
                            "expires_ms) SELECT id, ?, ?, ?, ?, ?, ? FROM subscriptions WHERE uuid = ?",
                            queueId, subscriber, ttl, jsonText(options), toEpochMilliseconds(now),
                            toEpochMilliseconds(now) + ttl * 1000, uuid);
}

Status updateSubscription(Database &db, std::int64_t rowId, const std::string &subscriber,
                          std::optional<std::int64_t> ttl, const nlohmann::json &options, ClockTime now)
{
    if (ttl) {
        if (Status set = executeStatement(db, "UPDATE zaqar_subscriptions SET ttl_s = ?, expires_ms = ? WHERE subscription_id = ?",
                                          *ttl, toEpochMilliseconds(now) + *ttl * 1000, rowId);
            !set)
            return set;
    }
    if (Status moved = executeStatement(db, "UPDATE subscriptions SET endpoint = ? WHERE id = ? AND endpoint <> ?1",
                                        subscriber, rowId);
        !moved)
        return moved;
    return executeStatement(db, "UPDATE zaqar_subscriptions SET subscriber = ?, options = ? WHERE subscription_id = ?",
                            subscriber, jsonText(options), rowId);
}

Result<bool> hasSubscriber(Database &db, std::int64_t queueId, const std::string &subscriber)
{
    auto existing = selectOptionalInt64(db, "SELECT 1 FROM zaqar_subscriptions WHERE queue_id = ? AND subscriber = ?",
                                        queueId, subscriber);
    if (!existing)
        return existing.error();
    return existing->has_value();
}

Result<std::vector<SubscriptionEntry>> subscriptionsAfter(Database &db, std::int64_t queueId,
                                                          const std::string &marker, int limit, ClockTime now)
{
    auto statement = prepareBound(db,
                                  std::string(kSubscriptionColumns) +
                                      "WHERE z.queue_id = ? AND s.uuid > ? AND z.expires_ms > ? "
                                      "ORDER BY s.uuid LIMIT ?",
                                  queueId, marker, toEpochMilliseconds(now), std::int64_t(limit));
    if (!statement)
        return statement.error();
    std::vector<SubscriptionEntry> entries;
    const Status read = forEachRow(**statement, [&](Statement &row) { entries.push_back(readSubscription(row)); });
    if (!read)
        return read.error();
    return entries;
}

Result<std::optional<SubscriptionEntry>> subscription(Database &db, std::int64_t queueId, std::string_view uuid,
                                                      ClockTime now)
{
    auto row = selectRow(db,
                         std::string(kSubscriptionColumns) +
                             "WHERE z.queue_id = ? AND s.uuid = ? AND z.expires_ms > ?",
                         queueId, uuid, toEpochMilliseconds(now));
    if (!row)
        return row.error();
    if (!*row)
        return std::optional<SubscriptionEntry>();
    return std::optional<SubscriptionEntry>(readSubscription(***row));
}

Result<bool> hasSubscriptions(Database &db, std::int64_t queueId, ClockTime now)
{
    Result<std::optional<std::int64_t>> found = selectOptionalInt64(
        db, "SELECT 1 FROM zaqar_subscriptions WHERE queue_id = ? AND expires_ms > ? LIMIT 1", queueId,
        toEpochMilliseconds(now));
    if (!found)
        return found.error();
    return found->has_value();
}

Result<std::vector<std::string>> expiredSubscriptions(Database &db, std::int64_t queueId, ClockTime now)
{
    return selectColumn<std::string>(db,
                                     "SELECT s.uuid FROM zaqar_subscriptions z JOIN subscriptions s ON s.id = z.subscription_id "
                                     "WHERE z.queue_id = ? AND z.expires_ms <= ?",
                                     queueId, toEpochMilliseconds(now));
}

} // namespace relaydesk::zaqar_store
