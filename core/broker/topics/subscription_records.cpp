// SPDX-License-Identifier: MIT
#include "broker/topics/subscription_records.h"

#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"
#include "broker/topics/topic_records.h"
#include "store/database.h"

namespace relaydesk::subscription_records {

namespace {

constexpr std::string_view kSelect =
    "SELECT s.id, s.uuid, s.topic_id, t.name, s.protocol, s.endpoint, s.state, s.confirmation_token, "
    "s.attributes, s.created_ms, s.last_used_ms FROM subscriptions s JOIN topics t ON t.id = s.topic_id ";

Result<SubscriptionRecord> readRow(Statement &row)
{
    SubscriptionRecord record;
    record.id = row.columnInt64(0);
    record.uuid = row.columnText(1);
    record.topicId = row.columnInt64(2);
    record.topicName = row.columnText(3);
    parseEndpointProtocol(row.columnText(4), record.protocol);
    record.endpoint = row.columnText(5);
    record.confirmed = row.columnText(6) == "confirmed";
    record.confirmationToken = row.columnOptionalText(7).value_or(std::string());
    record.created = fromEpochMilliseconds(row.columnInt64(9));
    record.lastUsed = fromEpochMilliseconds(row.columnInt64(10));
    Result<SubscriptionAttributes> attributes =
        parseSubscriptionAttributes(record.protocol, topic_records::readAttributeJson(row.columnText(8)));
    if (!attributes)
        return BrokerError(BrokerErrorCode::InternalError, "Stored attributes of subscription " + record.uuid
                                                               + " are unreadable: " + attributes.error().message);
    record.attributes = std::move(attributes).value();
    return record;
}

template <typename... Keys>
Result<std::vector<SubscriptionRecord>> readAll(Database &db, const std::string &sql, Keys... keys)
{
    Result<CachedStatement> statement = prepareBound(db, sql, keys...);
    if (!statement)
        return statement.error();
    std::vector<SubscriptionRecord> records;
    std::optional<BrokerError> unreadable;
    const Status read = forEachRow(**statement, [&](Statement &row) {
        Result<SubscriptionRecord> record = readRow(row);
        if (!record) {
            unreadable = record.error();
            return false;
        }
        records.push_back(std::move(record).value());
        return true;
    });
    if (!read)
        return read.error();
    if (unreadable)
        return *unreadable;
    return records;
}

std::optional<std::int64_t> milliseconds(const std::optional<std::int64_t> &seconds)
{
    return seconds ? std::optional<std::int64_t>(*seconds * 1000) : std::nullopt;
}

std::optional<std::string> deadLetterName(const SubscriptionAttributes &a)
{
    if (!a.redrivePolicy)
        return std::nullopt;
    const std::string &arn = a.redrivePolicy->deadLetterTargetArn;
    const std::size_t colon = arn.rfind(':');
    return colon == std::string::npos ? arn : arn.substr(colon + 1);
}

StoreStatus bindAttributes(Statement &statement, const SubscriptionAttributes &a)
{
    StoreStatus status;
    auto bind = [&](std::string_view name, const auto &value) {
        if (status.ok())
            status = statement.bind(name, value);
    };
    bind(":raw", a.rawMessageDelivery ? 1 : 0);
    bind(":delivery", a.deliveryPolicy ? std::optional<std::string>(a.deliveryPolicy->text) : std::nullopt);
    bind(":filter", a.filterPolicy ? std::optional<std::string>(a.filterPolicy->text) : std::nullopt);
    bind(":dlq", deadLetterName(a));
    bind(":ttl", milliseconds(a.defaultMessageTimeToLive));
    bind(":idle", milliseconds(a.autoDeleteOnIdle));
    bind(":json", topic_records::writeAttributeJson(writeSubscriptionAttributes(a)));
    return status;
}

} // namespace

Result<std::optional<SubscriptionRecord>> findByUuid(Database &db, std::string_view uuid)
{
    Result<std::vector<SubscriptionRecord>> found = readAll(db, std::string(kSelect) + "WHERE s.uuid = ?", uuid);
    if (!found)
        return found.error();
    if (found->empty())
        return std::optional<SubscriptionRecord>{};
    return std::optional<SubscriptionRecord>(std::move(found->front()));
}

Result<std::vector<SubscriptionRecord>> ofTopic(Database &db, std::int64_t topicId, bool confirmedOnly)
{
    return readAll(db,
                   std::string(kSelect) + "WHERE s.topic_id = ? AND (? = 0 OR s.state = 'confirmed') ORDER BY s.id",
                   topicId, confirmedOnly ? 1 : 0);
}

Result<std::vector<SubscriptionRecord>> page(Database &db, std::int64_t topicId, std::int64_t afterId,
                                             std::size_t limit)
{
    return readAll(db, std::string(kSelect) + "WHERE (? = 0 OR s.topic_id = ?) AND s.id > ? ORDER BY s.id LIMIT ?",
                   topicId, topicId, afterId, static_cast<std::int64_t>(limit));
}

Result<std::int64_t> insert(Database &db, const SubscriptionRecord &record, ClockTime now)
{
    Result<CachedStatement> statement = prepareBound(
        db,
        "INSERT INTO subscriptions (uuid, topic_id, protocol, endpoint, state, confirmation_token, raw_delivery, "
        "delivery_policy, filter_policy, dead_letter_queue, default_ttl_ms, auto_delete_on_idle_ms, created_ms, "
        "last_used_ms, attributes) VALUES (:uuid, :topic, :protocol, :endpoint, :state, :token, :raw, :delivery, "
        ":filter, :dlq, :ttl, :idle, :now, :now, :json)",
        named(":uuid", record.uuid), named(":topic", record.topicId),
        named(":protocol", endpointProtocolName(record.protocol)), named(":endpoint", record.endpoint),
        named(":state", std::string_view(record.confirmed ? "confirmed" : "pending")),
        named(":token", record.confirmationToken.empty() ? std::nullopt
                                                          : std::optional<std::string>(record.confirmationToken)),
        named(":now", toEpochMilliseconds(now)));
    if (!statement)
        return statement.error();
    StoreStatus status = bindAttributes(**statement, record.attributes);
    if (status.ok())
        status = (*statement)->execute();
    if (!status.ok())
        return storeFailure(status);
    return db.lastInsertRowId();
}

Status updateAttributes(Database &db, std::int64_t id, const SubscriptionAttributes &attributes)
{
    Result<CachedStatement> statement = prepareBound(
        db,
        "UPDATE subscriptions SET raw_delivery = :raw, delivery_policy = :delivery, filter_policy = :filter, "
        "dead_letter_queue = :dlq, default_ttl_ms = :ttl, auto_delete_on_idle_ms = :idle, attributes = :json "
        "WHERE id = :id",
        named(":id", id));
    if (!statement)
        return statement.error();
    StoreStatus status = bindAttributes(**statement, attributes);
    if (status.ok())
        status = (*statement)->execute();
    if (!status.ok())
        return storeFailure(status);
    return {};
}

Status confirm(Database &db, std::int64_t id)
{
    return executeStatement(db, "UPDATE subscriptions SET state = 'confirmed', confirmation_token = NULL WHERE id = ?", id);
}

Status remove(Database &db, std::int64_t id)
{
    return executeStatement(db, "DELETE FROM subscriptions WHERE id = ?", id);
}

Status touch(Database &db, std::int64_t id, ClockTime now)
{
    return executeStatement(db, "UPDATE subscriptions SET last_used_ms = ? WHERE id = ?", toEpochMilliseconds(now), id);
}

} // namespace relaydesk::subscription_records
