// SPDX-License-Identifier: MIT
#include "broker/deliveries/redelivery.h"

#include "broker/deliveries/attempt_log.h"
#include "broker/store_calls.h"
#include "broker/topics/subscription_records.h"

namespace relaydesk::redelivery {

namespace {

BrokerError notFound(std::string message)
{
    return BrokerError(BrokerErrorCode::SnsNotFound, std::move(message));
}

// The published_messages row of `messageId`: the one still there (the
// message is pending to another subscription) or one restored from
// finished_messages; nothing when the message is no longer stored.
Result<std::optional<std::int64_t>> publishedRowOf(Database &db, const std::string &messageId)
{
    Result<std::optional<std::int64_t>> published =
        selectOptionalInt64(db, "SELECT id FROM published_messages WHERE message_id = ?", messageId);
    if (!published || *published)
        return published;
    if (Status restored = executeStatement(
            db,
            "INSERT INTO published_messages (message_id, topic_name, subject, body, attributes, group_id, dedup_id, "
            "sequence_number, published_ms, kind) SELECT message_id, topic_name, subject, body, attributes, group_id, "
            "dedup_id, sequence_number, published_ms, kind FROM finished_messages WHERE message_id = ?",
            messageId);
        !restored)
        return restored.error();
    if (db.changes() == 0)
        return std::optional<std::int64_t>();
    return std::optional<std::int64_t>(db.lastInsertRowId());
}

} // namespace

Result<Redelivery> start(Database &db, const BrokerIdentity &identity, const std::string &subscriptionArn,
                         const std::string &messageId, ClockTime now)
{
    Result<BrokerIdentity::SubscriptionRef> ref = identity.subscriptionFromArn(subscriptionArn);
    if (!ref)
        return ref.error();
    Result<std::optional<SubscriptionRecord>> found = subscription_records::findByUuid(db, ref->subscriptionId);
    if (!found)
        return found.error();
    if (!*found || (*found)->topicName != ref->topicName)
        return notFound("Subscription does not exist");
    const SubscriptionRecord &subscription = **found;
    if (subscription.protocol == EndpointProtocol::Sqs)
        return BrokerError(BrokerErrorCode::SnsInvalidParameter,
                           "Invalid parameter: only HTTP/S subscriptions have deliveries to redeliver");
    if (!subscription.confirmed)
        return BrokerError(BrokerErrorCode::SnsInvalidParameter,
                           "Invalid parameter: the subscription is pending confirmation");

    AttemptQuery logged;
    logged.subscriptionArn = subscriptionArn;
    logged.messageId = messageId;
    logged.order = AttemptOrder::NewestFirst;
    logged.limit = 1;
    Result<std::vector<AttemptRecord>> last = attempt_log::query(db, logged);
    if (!last)
        return last.error();
    if (last->empty())
        return notFound("No attempt of message " + messageId + " to this subscription is logged.");
    if (last->front().kind != "notification")
        return BrokerError(BrokerErrorCode::SnsInvalidParameter,
                           "Invalid parameter: only notifications are redelivered, not confirmation requests");

    Result<std::optional<std::int64_t>> pending = selectOptionalInt64(
        db,
        "SELECT 1 FROM pending_deliveries p JOIN published_messages m ON m.id = p.published_id "
        "WHERE p.subscription_id = ? AND m.message_id = ?",
        subscription.id, messageId);
    if (!pending)
        return pending.error();
    if (*pending)
        return BrokerError(BrokerErrorCode::DeliveryInProgress,
                           "Message " + messageId + " is still being delivered to this subscription; redeliver it "
                           "once that delivery has ended.");

    Result<std::optional<std::int64_t>> published = publishedRowOf(db, messageId);
    if (!published)
        return published.error();
    if (!*published)
        return notFound("Message " + messageId + " is no longer stored (it left the attempt log's retention).");

    Result<std::optional<std::int64_t>> previous = attempt_log::lastRedeliveryOf(db, subscriptionArn, messageId);
    if (!previous)
        return previous.error();
    Redelivery started;
    started.subscriptionArn = subscriptionArn;
    started.messageId = messageId;
    started.redelivery = previous->value_or(0) + 1;
    started.due = now;
    if (Status queued = executeStatement(db,
                                         "INSERT INTO pending_deliveries (subscription_id, published_id, attempt, "
                                         "due_ms, redelivery) VALUES (?, ?, 0, ?, ?)",
                                         subscription.id, **published, toEpochMilliseconds(now), started.redelivery);
        !queued)
        return queued.error();
    return started;
}

} // namespace relaydesk::redelivery
