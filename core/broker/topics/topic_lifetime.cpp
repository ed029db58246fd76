// SPDX-License-Identifier: MIT
#include "broker/topics/topic_lifetime.h"

#include "broker/queues/bulk_removal.h"

#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"
#include "broker/topics/subscription_records.h"
#include "store/database.h"

namespace relaydesk::topic_lifetime {

namespace {

Result<std::vector<std::string>> deleteReturning(Database &db, std::string_view sql, ClockTime now)
{
    return selectColumn<std::string>(db, sql, toEpochMilliseconds(now));
}

Result<std::int64_t> changeCount(Database &db, std::string_view sql, std::optional<ClockTime> now)
{
    auto statement = db.prepareCached(sql);
    if (!statement.ok())
        return storeFailure(statement.status());
    StoreStatus status;
    if (now)
        status = (*statement)->bind(1, toEpochMilliseconds(*now));
    if (status.ok())
        status = (*statement)->execute();
    if (!status.ok())
        return storeFailure(status);
    return static_cast<std::int64_t>(db.changes());
}


// store_calls.h cannot prepare a statement without arguments (prepareBound
// with an empty pack trips -Wunused-but-set-variable), so this one is by hand.
Result<std::optional<ClockTime>> earliest(Database &db, std::string_view sql)
{
    auto statement = db.prepareCached(sql);
    if (!statement.ok())
        return storeFailure(statement.status());
    const StoreResult<Step> step = (*statement)->step();
    if (!step.ok())
        return storeFailure(step.status());
    const std::optional<std::int64_t> value = (*statement)->columnOptionalInt64(0);
    return value ? std::optional<ClockTime>(fromEpochMilliseconds(*value)) : std::nullopt;
}

} // namespace

Result<std::vector<std::string>> deleteIdleTopics(Database &db, ClockTime now)
{
    return deleteReturning(db,
                           "DELETE FROM topics WHERE auto_delete_on_idle_ms IS NOT NULL "
                           "AND last_used_ms + auto_delete_on_idle_ms <= ? RETURNING name",
                           now);
}

Result<std::vector<std::string>> deleteIdleSubscriptions(Database &db, ClockTime now)
{
    return deleteReturning(db,
                           "DELETE FROM subscriptions WHERE auto_delete_on_idle_ms IS NOT NULL "
                           "AND last_used_ms + auto_delete_on_idle_ms <= ? RETURNING uuid",
                           now);
}

Result<std::vector<IdleSubscription>> deleteIdleSubscriptionsOfTopics(Database &db, ClockTime now)
{
    std::vector<std::int64_t> ids;
    std::vector<IdleSubscription> idle;
    {
        Result<CachedStatement> select = prepareBound(
            db, "SELECT s.id, t.name, s.uuid FROM subscriptions s JOIN topics t ON t.id = s.topic_id "
                "WHERE s.auto_delete_on_idle_ms IS NOT NULL AND s.last_used_ms + s.auto_delete_on_idle_ms <= ? "
                "ORDER BY s.id",
            toEpochMilliseconds(now));
        if (!select)
            return select.error();
        const Status read = forEachRow(**select, [&](Statement &row) {
            ids.push_back(row.columnInt64(0));
            idle.push_back({row.columnText(1), row.columnText(2)});
        });
        if (!read)
            return read.error();
    }
    for (const std::int64_t id : ids)
        if (Status removed = executeStatement(db, "DELETE FROM subscriptions WHERE id = ?", id); !removed)
            return removed.error();
    return idle;
}

Status markQueueSubscriptionsUsed(Database &db, std::string_view queueArn, ClockTime now)
{
    return executeStatement(db, "UPDATE subscriptions SET last_used_ms = ? WHERE protocol = 'sqs' AND endpoint = ?",
                            toEpochMilliseconds(now), queueArn);
}

Result<std::int64_t> forgetExpiredDeduplicationIds(Database &db, ClockTime now)
{
    return changeCount(db, "DELETE FROM topic_dedup WHERE expires_ms <= ?", now);
}

Result<std::int64_t> forgetUndeliverablePublishedMessages(Database &db)
{
    return changeCount(db,
                       "DELETE FROM published_messages WHERE id IN (SELECT p.id FROM published_messages p WHERE NOT EXISTS "
                       "(SELECT 1 FROM pending_deliveries d WHERE d.published_id = p.id) LIMIT "
                           + std::to_string(bulk_removal::kBulkChunkRows) + ")",
                       std::nullopt);
}

Status markSubscriptionUsed(Database &db, std::int64_t subscriptionId, ClockTime now)
{
    return subscription_records::touch(db, subscriptionId, now);
}

Result<TopicDueTimes> dueTimes(Database &db)
{
    TopicDueTimes due;
    Result<std::optional<ClockTime>> topics = earliest(
        db, "SELECT min(last_used_ms + auto_delete_on_idle_ms) FROM topics WHERE auto_delete_on_idle_ms IS NOT NULL");
    if (!topics)
        return topics.error();
    Result<std::optional<ClockTime>> subscriptions =
        earliest(db, "SELECT min(last_used_ms + auto_delete_on_idle_ms) FROM subscriptions "
                     "WHERE auto_delete_on_idle_ms IS NOT NULL");
    if (!subscriptions)
        return subscriptions.error();
    due.nextAutoDelete = *topics;
    if (*subscriptions && (!due.nextAutoDelete || **subscriptions < *due.nextAutoDelete))
        due.nextAutoDelete = *subscriptions;
    Result<std::optional<ClockTime>> dedup = earliest(db, "SELECT min(expires_ms) FROM topic_dedup");
    if (!dedup)
        return dedup.error();
    due.nextDedupExpiry = *dedup;
    return due;
}

} // namespace relaydesk::topic_lifetime
