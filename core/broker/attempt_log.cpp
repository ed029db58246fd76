// SPDX-License-Identifier: MIT
#include "broker/attempt_log.h"

#include "broker/store_calls.h"

#include <nlohmann/json.hpp>

namespace relaydesk::attempt_log {

namespace {

constexpr std::pair<std::string_view, std::string_view> kKinds[] = {
    {"Notification", "notification"},
    {"SubscriptionConfirmation", "subscriptionConfirmation"},
    {"UnsubscribeConfirmation", "unsubscribeConfirmation"}};

// The first condition of a query: one subscription, a topic's (ARNs
// between "TOPIC:" and "TOPIC;", ';' being the character after ':'), or all.
// ?1 and ?7 are always bound so the three texts take the same parameters.
const char *arnCondition(const AttemptQuery &query)
{
    if (query.subscriptionArn)
        return "subscription_arn = ?1 AND ?7 IS NULL";
    if (query.topicArn)
        return "subscription_arn > ?1 AND subscription_arn < ?7";
    return "?1 IS NULL AND ?7 IS NULL";
}

} // namespace

std::string kindOfDelivery(std::string_view deliveryKind)
{
    for (const auto &[delivery, attempt] : kKinds) {
        if (delivery == deliveryKind)
            return std::string(attempt);
    }
    return {};
}

bool isAttemptKind(std::string_view kind)
{
    for (const auto &entry : kKinds) {
        if (entry.second == kind)
            return true;
    }
    return false;
}

Result<std::int64_t> append(Database &db, const AttemptRecord &record)
{
    Status stored = executeStatement(
        db,
        "INSERT INTO delivery_attempts (message_id, subscription_arn, kind, attempt, phase, planned_ms, started_ms, "
        "duration_ms, http_status, error_kind, outcome, final) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        record.messageId, record.subscriptionArn, record.kind, record.attempt, record.phase, toEpochMilliseconds(record.plannedAt),
        toEpochMilliseconds(record.startedAt), record.durationMs,
        record.httpStatus ? std::optional<std::int64_t>(*record.httpStatus) : std::nullopt, record.errorKind,
        record.outcome, record.final);
    if (!stored)
        return stored.error();
    return db.lastInsertRowId();
}

Status setFinal(Database &db, std::int64_t id, const std::string &final)
{
    return executeStatement(db, "UPDATE delivery_attempts SET final = ? WHERE id = ?", final, id);
}

Result<std::optional<std::int64_t>> lastRowOf(Database &db, const std::string &subscriptionArn,
                                              const std::string &messageId)
{
    return selectOptionalInt64(db,
                               "SELECT max(id) FROM delivery_attempts WHERE message_id = ? AND subscription_arn = ?",
                               messageId, subscriptionArn);
}

Result<std::vector<AttemptRecord>> query(Database &db, const AttemptQuery &query)
{
    const auto milliseconds = [](const std::optional<ClockTime> &time) {
        return time ? std::optional<std::int64_t>(toEpochMilliseconds(*time)) : std::nullopt;
    };
    const std::string sql =
        std::string("SELECT id, message_id, subscription_arn, attempt, phase, planned_ms, started_ms, duration_ms, "
                    "http_status, error_kind, outcome, final, kind FROM delivery_attempts WHERE ") +
        arnCondition(query) +
        " AND (?2 IS NULL OR message_id = ?2) AND (?3 IS NULL OR started_ms >= ?3) AND (?4 IS NULL OR started_ms < ?4) "
        "AND (?6 IS NULL OR kind = ?6) ORDER BY id LIMIT ?5";
    std::optional<std::string> first = query.subscriptionArn;
    std::optional<std::string> topicEnd;
    if (!first && query.topicArn) {
        first = *query.topicArn + ":";
        topicEnd = *query.topicArn + ";";
    }
    Result<CachedStatement> statement =
        prepareBound(db, sql, first, query.messageId, milliseconds(query.since), milliseconds(query.until),
                     static_cast<std::int64_t>(query.limit), query.kind, topicEnd);
    if (!statement)
        return statement.error();
    std::vector<AttemptRecord> records;
    const Status read = forEachRow(**statement, [&](Statement &row) {
        AttemptRecord record;
        record.id = row.columnInt64(0);
        record.messageId = row.columnText(1);
        record.subscriptionArn = row.columnText(2);
        record.attempt = row.columnInt64(3);
        record.phase = row.columnText(4);
        record.plannedAt = fromEpochMilliseconds(row.columnInt64(5));
        record.startedAt = fromEpochMilliseconds(row.columnInt64(6));
        record.durationMs = row.columnInt64(7);
        if (const std::optional<std::int64_t> status = row.columnOptionalInt64(8))
            record.httpStatus = static_cast<int>(*status);
        record.errorKind = row.columnOptionalText(9);
        record.outcome = row.columnText(10);
        record.final = row.columnOptionalText(11);
        record.kind = row.columnText(12);
        records.push_back(std::move(record));
    });
    if (!read)
        return read.error();
    return records;
}

Result<std::int64_t> prune(Database &db, std::size_t keep)
{
    Status deleted = executeStatement(
        db, "DELETE FROM delivery_attempts WHERE id <= (SELECT max(id) FROM delivery_attempts) - ?",
        static_cast<std::int64_t>(keep));
    if (!deleted)
        return deleted.error();
    return static_cast<std::int64_t>(db.changes());
}

std::string writeAttemptsJson(const std::vector<AttemptRecord> &records)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const AttemptRecord &record : records) {
        nlohmann::ordered_json entry = nlohmann::ordered_json::object();
        entry["messageId"] = record.messageId;
        entry["subscriptionArn"] = record.subscriptionArn;
        entry["kind"] = record.kind;
        entry["attempt"] = record.attempt;
        entry["phase"] = record.phase;
        entry["plannedAt"] = formatIso8601(record.plannedAt);
        entry["startedAt"] = formatIso8601(record.startedAt);
        entry["durationMs"] = record.durationMs;
        entry["httpStatus"] = record.httpStatus ? nlohmann::ordered_json(*record.httpStatus) : nlohmann::ordered_json();
        entry["outcome"] = record.outcome;
        entry["final"] = record.final ? nlohmann::ordered_json(*record.final) : nlohmann::ordered_json();
        entry["errorKind"] = record.errorKind ? nlohmann::ordered_json(*record.errorKind) : nlohmann::ordered_json();
        list.push_back(std::move(entry));
    }
    return nlohmann::ordered_json{{"attempts", list}}.dump();
}

} // namespace relaydesk::attempt_log
