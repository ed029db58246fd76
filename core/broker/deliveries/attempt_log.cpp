// SPDX-License-Identifier: MIT
#include "broker/deliveries/attempt_log.h"

#include "broker/store_calls.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <iterator>
#include <variant>

namespace relaydesk::attempt_log {

namespace {

constexpr std::pair<std::string_view, std::string_view> kKinds[] = {
    {"Notification", "notification"},
    {"SubscriptionConfirmation", "subscriptionConfirmation"},
    {"UnsubscribeConfirmation", "unsubscribeConfirmation"}};

constexpr std::string_view kOutcomes[] = {"delivered", "retryable", "permanent", "timeout", "connectionError",
                                          "throttled-wait"};
constexpr std::string_view kPhases[] = {"initial", "immediate", "preBackoff", "backoff", "postBackoff"};
constexpr std::string_view kStatusClasses[] = {"2xx", "3xx", "4xx", "5xx", "none"};

template <std::size_t N>
bool oneOf(const std::string_view (&names)[N], std::string_view name)
{
    for (std::string_view known : names) {
        if (known == name)
            return true;
    }
    return false;
}

// The WHERE clause of a query with only the conditions it uses (so SQLite
// picks the index of each: message, subscription, outcome or row id), and
// the values of its named parameters.
struct Conditions {
    std::string where;
    std::vector<std::pair<const char *, std::variant<std::int64_t, std::string>>> values;

    void add(const char *condition) { where += (where.empty() ? " WHERE " : " AND ") + std::string(condition); }
    template <class V>
    void add(const char *condition, const char *name, V value)
    {
        add(condition);
        values.emplace_back(name, std::move(value));
    }
};

Conditions conditionsOf(const AttemptQuery &query)
{
    Conditions conditions;
    if (query.subscriptionArn) {
        conditions.add("subscription_arn = :subscription", ":subscription", *query.subscriptionArn);
    } else if (query.topicArn) {
        // The ARNs of a topic's subscriptions lie between "TOPIC:" and
        // "TOPIC;" (';' is the character after ':').
        conditions.add("subscription_arn > :topicFirst", ":topicFirst", *query.topicArn + ":");
        conditions.add("subscription_arn < :topicEnd", ":topicEnd", *query.topicArn + ";");
    }
    if (query.messageId)
        conditions.add("message_id = :message", ":message", *query.messageId);
    if (query.kind)
        conditions.add("kind = :kind", ":kind", *query.kind);
    if (query.outcome)
        conditions.add("outcome = :outcome", ":outcome", *query.outcome);
    if (query.phase)
        conditions.add("phase = :phase", ":phase", *query.phase);
    if (query.statusClass) {
        // The virtual column status_class (migration 8): http_status / 100, 0 without one.
        const std::int64_t statusClass = *query.statusClass == "none" ? 0 : query.statusClass->front() - '0';
        conditions.add("status_class = :statusClass", ":statusClass", statusClass);
    }
    if (query.since)
        conditions.add("started_ms >= :since", ":since", toEpochMilliseconds(*query.since));
    if (query.until)
        conditions.add("started_ms < :until", ":until", toEpochMilliseconds(*query.until));
    if (query.afterId)
        conditions.add("id > :after", ":after", *query.afterId);
    if (query.beforeId)
        conditions.add("id < :before", ":before", *query.beforeId);
    return conditions;
}

// `sql` (ending in the conditions' WHERE clause and `tail`) prepared and bound.
Result<CachedStatement> prepareQuery(Database &db, const std::string &sql, const Conditions &conditions,
                                     std::optional<std::int64_t> limit)
{
    Result<CachedStatement> statement = prepareBound(db, sql);
    if (!statement)
        return statement.error();
    for (const auto &condition : conditions.values) {
        const auto &name = condition.first; // a plain reference: clang 14 cannot capture structured bindings
        const StoreStatus bound = std::visit([&](const auto &v) { return (*statement)->bind(name, v); }, condition.second);
        if (!bound.ok())
            return storeFailure(bound);
    }
    if (limit) {
        if (const StoreStatus bound = (*statement)->bind(":limit", *limit); !bound.ok())
            return storeFailure(bound);
    }
    return statement;
}

constexpr const char *kColumns = "SELECT id, message_id, subscription_arn, attempt, phase, planned_ms, started_ms, "
                                 "duration_ms, http_status, error_kind, outcome, final, kind, redelivery, error "
                                 "FROM delivery_attempts";

AttemptRecord readRecord(Statement &row)
{
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
    record.redelivery = row.columnInt64(13);
    record.error = row.columnOptionalText(14);
    return record;
}

// At most `limit` rows of `query` in its order (limit 0: all of them).
// At most `limit` rows of `query` in its order (limit 0: all of them), as
// one statement.
Result<std::vector<AttemptRecord>> selectDirect(Database &db, const AttemptQuery &query, std::size_t limit)
{
    const Conditions conditions = conditionsOf(query);
    std::string sql = kColumns + conditions.where +
                      (query.order == AttemptOrder::NewestFirst ? " ORDER BY id DESC" : " ORDER BY id");
    if (limit > 0)
        sql += " LIMIT :limit";
    Result<CachedStatement> statement = prepareQuery(
        db, sql, conditions, limit > 0 ? std::optional<std::int64_t>(static_cast<std::int64_t>(limit)) : std::nullopt);
    if (!statement)
        return statement.error();
    std::vector<AttemptRecord> records;
    const Status read = forEachRow(**statement, [&](Statement &row) { records.push_back(readRecord(row)); });
    if (!read)
        return read.error();
    return records;
}

// The subscription ARNs of a topic that have rows, found by hopping along
// the subscription index (one seek each, however many rows each has); more
// than `most` of them: nothing (the caller reads the topic as a range).
Result<std::optional<std::vector<std::string>>> loggedSubscriptionsOf(Database &db, const std::string &topicArn,
                                                                     std::size_t most)
{
    std::vector<std::string> arns;
    std::string after = topicArn + ":";
    const std::string end = topicArn + ";";
    for (;;) {
        Result<std::optional<CachedStatement>> row =
            selectRow(db,
                      "SELECT min(subscription_arn) FROM delivery_attempts WHERE subscription_arn > ? AND "
                      "subscription_arn < ?",
                      after, end);
        if (!row)
            return row.error();
        const std::optional<std::string> next = (**row)->columnOptionalText(0);
        row->reset();
        if (!next)
            return std::optional<std::vector<std::string>>(std::move(arns));
        if (arns.size() == most)
            return std::optional<std::vector<std::string>>();
        arns.push_back(*next);
        after = *next;
    }
}

constexpr std::size_t kMostSubscriptionsMerged = 64;

// At most `limit` rows of `query` in its order (limit 0: all of them). A page
// of a topic's rows is read per subscription — each an index walk of at most
// `limit` rows — and merged, so the newest page of a 100 000-row topic costs
// no sort of the whole topic.
Result<std::vector<AttemptRecord>> select(Database &db, const AttemptQuery &query, std::size_t limit)
{
    if (!query.topicArn || query.subscriptionArn || query.messageId || limit == 0)
        return selectDirect(db, query, limit);
    Result<std::optional<std::vector<std::string>>> arns =
        loggedSubscriptionsOf(db, *query.topicArn, kMostSubscriptionsMerged);
    if (!arns)
        return arns.error();
    if (!*arns)
        return selectDirect(db, query, limit);
    std::vector<AttemptRecord> merged;
    AttemptQuery one = query;
    one.topicArn.reset();
    for (const std::string &arn : **arns) {
        one.subscriptionArn = arn;
        Result<std::vector<AttemptRecord>> rows = selectDirect(db, one, limit);
        if (!rows)
            return rows.error();
        std::move(rows->begin(), rows->end(), std::back_inserter(merged));
    }
    const bool newestFirst = query.order == AttemptOrder::NewestFirst;
    std::sort(merged.begin(), merged.end(), [newestFirst](const AttemptRecord &a, const AttemptRecord &b) {
        return newestFirst ? a.id > b.id : a.id < b.id;
    });
    if (merged.size() > limit)
        merged.resize(limit);
    return merged;
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

bool isAttemptOutcome(std::string_view outcome) { return oneOf(kOutcomes, outcome); }
bool isAttemptPhase(std::string_view phase) { return oneOf(kPhases, phase); }
bool isStatusClass(std::string_view statusClass) { return oneOf(kStatusClasses, statusClass); }

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
        "duration_ms, http_status, error_kind, outcome, final, redelivery, error) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        record.messageId, record.subscriptionArn, record.kind, record.attempt, record.phase, toEpochMilliseconds(record.plannedAt),
        toEpochMilliseconds(record.startedAt), record.durationMs,
        record.httpStatus ? std::optional<std::int64_t>(*record.httpStatus) : std::nullopt, record.errorKind,
        record.outcome, record.final, record.redelivery, record.error);
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
    if (query.limit == 0)
        return std::vector<AttemptRecord>();
    return select(db, query, query.limit);
}

Result<AttemptPage> queryPage(Database &db, const AttemptQuery &query)
{
    AttemptPage page;
    if (query.limit == 0)
        return page;
    Result<std::vector<AttemptRecord>> rows = select(db, query, query.limit + 1);
    if (!rows)
        return rows.error();
    page.more = rows->size() > query.limit;
    if (page.more)
        rows->pop_back();
    page.rows = std::move(rows).value();
    return page;
}

Result<std::vector<AttemptRecord>> all(Database &db, const AttemptQuery &query)
{
    return select(db, query, 0);
}

Result<std::int64_t> count(Database &db, const AttemptQuery &query)
{
    const Conditions conditions = conditionsOf(query);
    Result<CachedStatement> statement =
        prepareQuery(db, "SELECT count(*) FROM delivery_attempts" + conditions.where, conditions, std::nullopt);
    if (!statement)
        return statement.error();
    Result<bool> row = nextRow(**statement);
    if (!row)
        return row.error();
    return (*statement)->columnInt64(0);
}

Result<std::optional<std::int64_t>> lastRedeliveryOf(Database &db, const std::string &subscriptionArn,
                                                     const std::string &messageId)
{
    return selectOptionalInt64(
        db, "SELECT max(redelivery) FROM delivery_attempts WHERE message_id = ? AND subscription_arn = ?", messageId,
        subscriptionArn);
}

Result<std::int64_t> newestId(Database &db)
{
    Result<std::optional<std::int64_t>> newest = selectOptionalInt64(db, "SELECT max(id) FROM delivery_attempts");
    if (!newest)
        return newest.error();
    return newest->value_or(0);
}

Result<std::vector<std::string>> subscriptionsLoggedAfter(Database &db, std::int64_t afterId)
{
    return selectColumn<std::string>(db, "SELECT DISTINCT subscription_arn FROM delivery_attempts WHERE id > ?", afterId);
}

Result<std::int64_t> prune(Database &db, std::size_t keep)
{
    Result<std::optional<std::int64_t>> newest = selectOptionalInt64(db, "SELECT max(id) FROM delivery_attempts");
    if (!newest)
        return newest.error();
    if (!*newest)
        return std::int64_t{0};
    const std::int64_t cutoff = **newest - static_cast<std::int64_t>(keep);
    // The finished messages (kept for redelivery) whose last row goes.
    if (Status forgotten = executeStatement(
            db,
            "DELETE FROM finished_messages WHERE message_id IN (SELECT message_id FROM delivery_attempts WHERE id <= ?1) "
            "AND NOT EXISTS (SELECT 1 FROM delivery_attempts a WHERE a.message_id = finished_messages.message_id "
            "AND a.id > ?1)",
            cutoff);
        !forgotten)
        return forgotten.error();
    Status deleted = executeStatement(db, "DELETE FROM delivery_attempts WHERE id <= ?", cutoff);
    if (!deleted)
        return deleted.error();
    return static_cast<std::int64_t>(db.changes());
}

nlohmann::ordered_json attemptJson(const AttemptRecord &record)
{
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
    entry["error"] = record.error ? nlohmann::ordered_json(*record.error) : nlohmann::ordered_json();
    entry["redelivery"] = record.redelivery;
    entry["id"] = record.id;
    return entry;
}

std::string writeAttemptsJson(const std::vector<AttemptRecord> &records)
{
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const AttemptRecord &record : records)
        list.push_back(attemptJson(record));
    return nlohmann::ordered_json{{"attempts", list}}.dump();
}

} // namespace relaydesk::attempt_log
