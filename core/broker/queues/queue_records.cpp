// SPDX-License-Identifier: MIT
#include "broker/queues/queue_records.h"

#include "broker/hex_text.h"
#include "broker/store_calls.h"

#include <nlohmann/json.hpp>

#include <unordered_map>

namespace relaydesk {

std::string QueueRecord::deadLetterQueueName() const
{
    if (!attributes.redrivePolicy)
        return {};
    const std::string &arn = attributes.redrivePolicy->deadLetterTargetArn;
    const std::size_t colon = arn.rfind(':');
    return colon == std::string::npos ? arn : arn.substr(colon + 1);
}

namespace queue_records {

namespace {

constexpr std::string_view kSelect =
    "SELECT id, name, attributes, created_ms, last_used_ms, depth_mark_ms FROM queues ";

// The stored attributes JSON of a queue, parsed. Parsing is a pure function
// of (name, text, created_ms), and a queue's row is read by every send and
// receive, so each thread keeps the last parse per queue name and reuses it
// while the stored text is unchanged.
struct ParsedAttributes {
    std::string json;
    std::int64_t createdMs = 0;
    QueueAttributes attributes;
    std::int64_t lastModifiedMs = 0;
};

Result<const ParsedAttributes *> parseStored(const std::string &name, std::string_view json, std::int64_t createdMs)
{
    constexpr std::size_t kRemembered = 256;
    thread_local std::unordered_map<std::string, ParsedAttributes> parsed;
    if (auto found = parsed.find(name);
        found != parsed.end() && found->second.createdMs == createdMs && found->second.json == json)
        return &found->second;
    const nlohmann::json stored = nlohmann::json::parse(json, nullptr, false);
    AttributeMap map;
    if (stored.is_object() && stored.contains("attributes") && stored["attributes"].is_object()) {
        for (const auto &[key, value] : stored["attributes"].items())
            if (value.is_string())
                map[key] = value.template get<std::string>();
    }
    const std::int64_t lastModifiedMs = stored.is_object() ? stored.value("lastModifiedMs", createdMs) : createdMs;
    Result<QueueAttributes> attributes = parseQueueAttributes(name, map);
    if (!attributes)
        return BrokerError(BrokerErrorCode::InternalError,
                           "Stored attributes of queue " + name + " are unreadable: " + attributes.error().message);
    if (parsed.size() >= kRemembered)
        parsed.clear();
    ParsedAttributes &entry = parsed[name];
    entry = ParsedAttributes{std::string(json), createdMs, std::move(attributes).value(), lastModifiedMs};
    return &entry;
}

Result<std::optional<QueueRecord>> readOne(Database &db, std::string_view sql, auto key)
{
    Result<CachedStatement> statement = prepareBound(db, sql, key);
    if (!statement)
        return statement.error();
    const Result<bool> found = nextRow(**statement);
    if (!found)
        return found.error();
    if (!*found)
        return std::optional<QueueRecord>{};
    Statement &row = **statement;
    QueueRecord record;
    record.id = row.columnInt64(0);
    record.name = row.columnText(1);
    record.created = fromEpochMilliseconds(row.columnInt64(3));
    record.lastUsed = fromEpochMilliseconds(row.columnInt64(4));
    record.depthMarkMs = row.columnInt64(5);
    Result<const ParsedAttributes *> parsed = parseStored(record.name, row.columnTextView(2), row.columnInt64(3));
    if (!parsed)
        return parsed.error();
    record.lastModified = fromEpochMilliseconds((*parsed)->lastModifiedMs);
    record.attributes = (*parsed)->attributes;
    return std::optional<QueueRecord>(std::move(record));
}

std::string attributesJson(const QueueAttributes &attributes, ClockTime lastModified)
{
    nlohmann::json map = nlohmann::json::object();
    for (const auto &[name, value] : writeQueueAttributes(attributes))
        map[name] = value;
    return nlohmann::json{{"attributes", map}, {"lastModifiedMs", toEpochMilliseconds(lastModified)}}.dump();
}

std::optional<std::string> deadLetterName(const QueueAttributes &attributes)
{
    if (!attributes.redrivePolicy)
        return std::nullopt;
    QueueRecord probe;
    probe.attributes = attributes;
    return probe.deadLetterQueueName();
}

std::optional<std::int64_t> milliseconds(const std::optional<std::int64_t> &seconds)
{
    return seconds ? std::optional<std::int64_t>(*seconds * 1000) : std::nullopt;
}

Status bindColumns(Statement &statement, const QueueAttributes &a)
{
    StoreStatus status;
    auto bind = [&](std::string_view name, const auto &value) {
        if (status.ok())
            status = statement.bind(name, value);
    };
    bind(":visibility", a.visibilityTimeout);
    bind(":delay", a.delaySeconds);
    bind(":retention", a.messageRetentionPeriod);
    bind(":max_size", a.maximumMessageSize);
    bind(":wait", a.receiveMessageWaitTimeSeconds);
    bind(":dedup", a.contentBasedDeduplication ? 1 : 0);
    bind(":dlq", deadLetterName(a));
    bind(":max_receive", a.redrivePolicy ? std::optional<int>(a.redrivePolicy->maxReceiveCount) : std::nullopt);
    bind(":ttl", milliseconds(a.defaultMessageTimeToLive));
    bind(":dl_expiry", a.deadLetteringOnMessageExpiration ? 1 : 0);
    bind(":idle", milliseconds(a.autoDeleteOnIdle));
    if (!status.ok())
        return storeFailure(status);
    return {};
}

} // namespace

Result<std::optional<QueueRecord>> find(Database &db, std::string_view name)
{
    static const std::string sql = std::string(kSelect) + "WHERE name = ?";
    return readOne(db, sql, name);
}

Result<std::optional<QueueRecord>> findById(Database &db, std::int64_t id)
{
    static const std::string sql = std::string(kSelect) + "WHERE id = ?";
    return readOne(db, sql, id);
}

Result<QueueRecord> require(Database &db, std::string_view name)
{
    Result<std::optional<QueueRecord>> found = find(db, name);
    if (!found)
        return found.error();
    if (!found->has_value())
        return BrokerError(BrokerErrorCode::QueueDoesNotExist,
                           "The specified queue does not exist: " + std::string(name) + ".");
    return std::move(**found);
}

Result<std::int64_t> insert(Database &db, std::string_view name, const QueueAttributes &attributes, ClockTime now)
{
    auto statement = db.prepareCached(
        "INSERT INTO queues (name, fifo, visibility_timeout_s, delay_s, retention_s, max_message_size, "
        "receive_wait_s, content_based_dedup, dead_letter_queue, max_receive_count, default_ttl_ms, "
        "dead_letter_on_expiry, auto_delete_on_idle_ms, created_ms, last_used_ms, attributes) VALUES "
        "(:name, :fifo, :visibility, :delay, :retention, :max_size, :wait, :dedup, :dlq, :max_receive, :ttl, "
        ":dl_expiry, :idle, :now, :now, :json)");
    if (!statement.ok())
        return storeFailure(statement.status());
    if (Status columns = bindColumns(**statement, attributes); !columns)
        return columns.error();
    StoreStatus status = (*statement)->bind(":name", name);
    if (status.ok())
        status = (*statement)->bind(":fifo", attributes.fifoQueue ? 1 : 0);
    if (status.ok())
        status = (*statement)->bind(":now", toEpochMilliseconds(now));
    if (status.ok())
        status = (*statement)->bind(":json", attributesJson(attributes, now));
    if (status.ok())
        status = (*statement)->execute();
    if (!status.ok())
        return storeFailure(status);
    return db.lastInsertRowId();
}

Status update(Database &db, std::int64_t id, const QueueAttributes &attributes, ClockTime now)
{
    auto statement = db.prepareCached(
        "UPDATE queues SET visibility_timeout_s = :visibility, delay_s = :delay, retention_s = :retention, "
        "max_message_size = :max_size, receive_wait_s = :wait, content_based_dedup = :dedup, "
        "dead_letter_queue = :dlq, max_receive_count = :max_receive, default_ttl_ms = :ttl, "
        "dead_letter_on_expiry = :dl_expiry, auto_delete_on_idle_ms = :idle, last_used_ms = :now, "
        "attributes = :json WHERE id = :id");
    if (!statement.ok())
        return storeFailure(statement.status());
    if (Status columns = bindColumns(**statement, attributes); !columns)
        return columns;
    StoreStatus status = (*statement)->bind(":id", id);
    if (status.ok())
        status = (*statement)->bind(":now", toEpochMilliseconds(now));
    if (status.ok())
        status = (*statement)->bind(":json", attributesJson(attributes, now));
    if (status.ok())
        status = (*statement)->execute();
    if (!status.ok())
        return storeFailure(status);
    return {};
}

// A read and an UPDATE, not UPDATE ... RETURNING: SQLite 3.40 collects
// RETURNING rows in an ephemeral table opened on every call.
Result<std::int64_t> takeSequenceNumber(Database &db, std::int64_t id)
{
    Result<std::optional<std::int64_t>> next = selectOptionalInt64(db, "SELECT next_sequence FROM queues WHERE id = ?", id);
    if (!next)
        return next.error();
    if (!*next)
        return BrokerError(BrokerErrorCode::QueueDoesNotExist);
    if (Status taken = executeStatement(db, "UPDATE queues SET next_sequence = next_sequence + 1 WHERE id = ?", id);
        !taken)
        return taken.error();
    return **next;
}

Status touch(Database &db, std::int64_t id, ClockTime now)
{
    return executeStatement(db, "UPDATE queues SET last_used_ms = max(last_used_ms, ?) WHERE id = ?",
                            toEpochMilliseconds(now), id);
}

Result<std::vector<std::string>> configQueueNames(Database &db)
{
    return selectColumn<std::string>(
        db, "SELECT name FROM queues WHERE servicebus IS NULL AND instr(name, '/$DeadLetterQueue') = 0 ORDER BY name");
}

Status touch(Database &db, const QueueRecord &queue, ClockTime now)
{
    if (toEpochMilliseconds(queue.lastUsed) >= toEpochMilliseconds(now))
        return {};
    return touch(db, queue.id, now);
}

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    return 0;
}

std::string fromHex(std::string_view hex)
{
    std::string out;
    for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
        out.push_back(static_cast<char>(hexValue(hex[i]) * 16 + hexValue(hex[i + 1])));
    return out;
}

} // namespace

std::string writeMessageAttributes(const MessageAttributes &attributes)
{
    nlohmann::json out = nlohmann::json::object();
    for (const auto &[name, value] : attributes) {
        nlohmann::json item{{"DataType", value.dataType}};
        if (value.isBinary())
            item["BinaryValue"] = hexOfBytes(value.binaryValue);
        else
            item["StringValue"] = value.stringValue;
        out[name] = item;
    }
    return out.dump();
}

MessageAttributes readMessageAttributes(std::string_view json)
{
    MessageAttributes out;
    const nlohmann::json in = nlohmann::json::parse(json, nullptr, false);
    if (!in.is_object())
        return out;
    for (const auto &[name, item] : in.items()) {
        if (!item.is_object())
            continue;
        MessageAttributeValue value;
        value.dataType = item.value("DataType", std::string());
        value.stringValue = item.value("StringValue", std::string());
        value.binaryValue = fromHex(item.value("BinaryValue", std::string()));
        out[name] = std::move(value);
    }
    return out;
}

} // namespace queue_records

} // namespace relaydesk
