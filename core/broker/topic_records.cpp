// SPDX-License-Identifier: MIT
#include "broker/topic_records.h"

#include "broker/queue_records.h"
#include "store/database.h"

#include <nlohmann/json.hpp>

namespace relaydesk::topic_records {

namespace {

constexpr std::string_view kSelect = "SELECT id, name, attributes, created_ms, last_used_ms FROM topics ";

Result<std::optional<TopicRecord>> readOne(Database &db, std::string_view sql, auto key)
{
    auto statement = db.prepareCached(sql);
    if (!statement.ok())
        return queue_records::storeFailure(statement.status());
    if (StoreStatus bound = (*statement)->bind(1, key); !bound.ok())
        return queue_records::storeFailure(bound);
    const StoreResult<Step> step = (*statement)->step();
    if (!step.ok())
        return queue_records::storeFailure(step.status());
    if (*step == Step::Done)
        return std::optional<TopicRecord>{};
    Statement &row = **statement;
    TopicRecord record;
    record.id = row.columnInt64(0);
    record.name = row.columnText(1);
    record.created = fromEpochMilliseconds(row.columnInt64(3));
    record.lastUsed = fromEpochMilliseconds(row.columnInt64(4));
    const nlohmann::json stored = nlohmann::json::parse(row.columnText(2), nullptr, false);
    AttributeMap map;
    if (stored.is_object()) {
        for (const auto &[name, value] : stored.items())
            if (value.is_string())
                map[name] = value.template get<std::string>();
    }
    Result<TopicAttributes> attributes = parseTopicAttributes(record.name, map);
    if (!attributes)
        return BrokerError(BrokerErrorCode::InternalError,
                           "Stored attributes of topic " + record.name + " are unreadable: " + attributes.error().message);
    record.attributes = std::move(attributes).value();
    return std::optional<TopicRecord>(std::move(record));
}

std::string attributesJson(const TopicAttributes &attributes)
{
    nlohmann::json map = nlohmann::json::object();
    for (const auto &[name, value] : writeTopicAttributes(attributes))
        map[name] = value;
    return map.dump();
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
    bind(":json", attributesJson(a));
    if (!status.ok())
        return queue_records::storeFailure(status);
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
        return BrokerError(BrokerErrorCode::SnsNotFound, "Topic does not exist");
    return std::move(**found);
}

Result<std::int64_t> insert(Database &db, std::string_view name, const TopicAttributes &attributes, ClockTime now)
{
    auto statement = db.prepareCached(
        "INSERT INTO topics (name, fifo, content_based_dedup, delivery_policy, default_ttl_ms, "
        "auto_delete_on_idle_ms, created_ms, last_used_ms, attributes) VALUES "
        "(:name, :fifo, :dedup, :policy, :ttl, :idle, :now, :now, :json)");
    if (!statement.ok())
        return queue_records::storeFailure(statement.status());
    if (Status columns = bindColumns(**statement, attributes, now); !columns)
        return columns.error();
    StoreStatus status = (*statement)->bind(":name", name);
    if (status.ok())
        status = (*statement)->bind(":fifo", attributes.fifoTopic ? 1 : 0);
    if (status.ok())
        status = (*statement)->execute();
    if (!status.ok())
        return queue_records::storeFailure(status);
    return db.lastInsertRowId();
}

Status update(Database &db, std::int64_t id, const TopicAttributes &attributes, ClockTime now)
{
    auto statement = db.prepareCached(
        "UPDATE topics SET content_based_dedup = :dedup, delivery_policy = :policy, default_ttl_ms = :ttl, "
        "auto_delete_on_idle_ms = :idle, last_used_ms = :now, attributes = :json WHERE id = :id");
    if (!statement.ok())
        return queue_records::storeFailure(statement.status());
    if (Status columns = bindColumns(**statement, attributes, now); !columns)
        return columns;
    StoreStatus status = (*statement)->bind(":id", id);
    if (status.ok())
        status = (*statement)->execute();
    if (!status.ok())
        return queue_records::storeFailure(status);
    return {};
}

Status touch(Database &db, std::int64_t id, ClockTime now)
{
    auto statement = db.prepareCached("UPDATE topics SET last_used_ms = ? WHERE id = ?");
    if (!statement.ok())
        return queue_records::storeFailure(statement.status());
    StoreStatus status = (*statement)->bind(1, toEpochMilliseconds(now));
    if (status.ok())
        status = (*statement)->bind(2, id);
    if (status.ok())
        status = (*statement)->execute();
    if (!status.ok())
        return queue_records::storeFailure(status);
    return {};
}

Result<std::int64_t> takeSequenceNumber(Database &db, std::int64_t id)
{
    auto statement = db.prepareCached("UPDATE topics SET next_sequence = next_sequence + 1 WHERE id = ? "
                                      "RETURNING next_sequence - 1");
    if (!statement.ok())
        return queue_records::storeFailure(statement.status());
    if (StoreStatus bound = (*statement)->bind(1, id); !bound.ok())
        return queue_records::storeFailure(bound);
    const StoreResult<Step> step = (*statement)->step();
    if (!step.ok())
        return queue_records::storeFailure(step.status());
    if (*step == Step::Done)
        return BrokerError(BrokerErrorCode::SnsNotFound, "Topic does not exist");
    const std::int64_t sequence = (*statement)->columnInt64(0);
    if (const StoreResult<Step> done = (*statement)->step(); !done.ok())
        return queue_records::storeFailure(done.status());
    return sequence;
}

} // namespace relaydesk::topic_records
