// SPDX-License-Identifier: MIT
#include "broker/topics/topic_records.h"

#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"
#include "store/database.h"

#include <nlohmann/json.hpp>

namespace relaydesk::topic_records {

namespace {

constexpr std::string_view kSelect = "SELECT id, name, attributes, created_ms, last_used_ms FROM topics ";

Result<std::optional<TopicRecord>> readOne(Database &db, std::string_view sql, auto key)
{
    Result<std::optional<CachedStatement>> found = selectRow(db, sql, key);
    if (!found)
        return found.error();
    if (!*found)
        return std::optional<TopicRecord>{};
    Statement &row = ***found;
    TopicRecord record;
    record.id = row.columnInt64(0);
    record.name = row.columnText(1);
    record.created = fromEpochMilliseconds(row.columnInt64(3));
    record.lastUsed = fromEpochMilliseconds(row.columnInt64(4));
    Result<TopicAttributes> attributes = parseTopicAttributes(record.name, readAttributeJson(row.columnText(2)));
    if (!attributes)
        return BrokerError(BrokerErrorCode::InternalError,
                           "Stored attributes of topic " + record.name + " are unreadable: " + attributes.error().message);
    record.attributes = std::move(attributes).value();
    return std::optional<TopicRecord>(std::move(record));
}

std::optional<std::int64_t> milliseconds(const std::optional<std::int64_t> &seconds)
{
    return seconds ? std::optional<std::int64_t>(*seconds * 1000) : std::nullopt;
}

Status bindColumns(Statement &statement, const TopicAttributes &a, ClockTime now)
{
    StoreStatus status;
    auto bind = [&](std::string_view name, const auto &value) {
        if (status.ok())
            status = statement.bind(name, value);
    };
    bind(":dedup", a.contentBasedDeduplication ? 1 : 0);
    bind(":policy", a.deliveryPolicy ? std::optional<std::string>(a.deliveryPolicy->text) : std::nullopt);
    bind(":ttl", milliseconds(a.defaultMessageTimeToLive));
    bind(":idle", milliseconds(a.autoDeleteOnIdle));
    bind(":now", toEpochMilliseconds(now));
    bind(":json", writeAttributeJson(writeTopicAttributes(a)));
    if (!status.ok())
        return storeFailure(status);
    return {};
}

} // namespace

Result<std::optional<TopicRecord>> find(Database &db, std::string_view name)
{
    return readOne(db, std::string(kSelect) + "WHERE name = ?", name);
}

Result<std::optional<TopicRecord>> findById(Database &db, std::int64_t id)
{
    return readOne(db, std::string(kSelect) + "WHERE id = ?", id);
}

Result<TopicRecord> require(Database &db, std::string_view name)
{
    Result<std::optional<TopicRecord>> found = find(db, name);
    if (!found)
        return found.error();
    if (!found->has_value())
        return BrokerError(BrokerErrorCode::SnsNotFound, "Topic does not exist: " + std::string(name));
    return std::move(**found);
}

Result<std::int64_t> insert(Database &db, std::string_view name, const TopicAttributes &attributes, ClockTime now)
{
    Result<CachedStatement> statement = prepareBound(
        db,
        "INSERT INTO topics (name, fifo, content_based_dedup, delivery_policy, default_ttl_ms, "
        "auto_delete_on_idle_ms, created_ms, last_used_ms, attributes) VALUES "
        "(:name, :fifo, :dedup, :policy, :ttl, :idle, :now, :now, :json)",
        named(":name", name), named(":fifo", attributes.fifoTopic ? 1 : 0));
    if (!statement)
        return statement.error();
    if (Status columns = bindColumns(**statement, attributes, now); !columns)
        return columns.error();
    if (const StoreStatus done = (*statement)->execute(); !done.ok())
        return storeFailure(done);
    return db.lastInsertRowId();
}

Status update(Database &db, std::int64_t id, const TopicAttributes &attributes, ClockTime now)
{
    Result<CachedStatement> statement = prepareBound(
        db,
        "UPDATE topics SET content_based_dedup = :dedup, delivery_policy = :policy, default_ttl_ms = :ttl, "
        "auto_delete_on_idle_ms = :idle, last_used_ms = :now, attributes = :json WHERE id = :id",
        named(":id", id));
    if (!statement)
        return statement.error();
    if (Status columns = bindColumns(**statement, attributes, now); !columns)
        return columns;
    if (const StoreStatus done = (*statement)->execute(); !done.ok())
        return storeFailure(done);
    return {};
}

Result<std::vector<std::string>> names(Database &db)
{
    return selectColumn<std::string>(db, "SELECT name FROM topics ORDER BY name");
}

Status touch(Database &db, std::int64_t id, ClockTime now)
{
    return executeStatement(db, "UPDATE topics SET last_used_ms = ? WHERE id = ?", toEpochMilliseconds(now), id);
}

// A read and an UPDATE, as queue_records::takeSequenceNumber.
Result<std::int64_t> takeSequenceNumber(Database &db, std::int64_t id)
{
    Result<std::optional<std::int64_t>> next = selectOptionalInt64(db, "SELECT next_sequence FROM topics WHERE id = ?", id);
    if (!next)
        return next.error();
    if (!*next)
        return BrokerError(BrokerErrorCode::SnsNotFound, "Topic does not exist");
    if (Status taken = executeStatement(db, "UPDATE topics SET next_sequence = next_sequence + 1 WHERE id = ?", id);
        !taken)
        return taken.error();
    return **next;
}

AttributeMap readAttributeJson(const std::string &json)
{
    const nlohmann::json stored = nlohmann::json::parse(json, nullptr, false);
    AttributeMap map;
    if (stored.is_object()) {
        for (const auto &[name, value] : stored.items())
            if (value.is_string())
                map[name] = value.template get<std::string>();
    }
    return map;
}

std::string writeAttributeJson(const AttributeMap &map)
{
    nlohmann::json object = nlohmann::json::object();
    for (const auto &[name, value] : map)
        object[name] = value;
    return object.dump();
}

} // namespace relaydesk::topic_records
