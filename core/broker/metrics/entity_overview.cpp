// SPDX-License-Identifier: MIT
#include "broker/metrics/entity_overview.h"

#include "broker/queues/servicebus_queue.h"
#include "broker/store_calls.h"

#include <algorithm>
#include <set>

namespace relaydesk {

namespace {

// Zaqar's own rows (zaqar_queues, written by core/api/zaqar) are read here
// only to mark what the window shows as Zaqar.
// Likewise Service Bus's (servicebus_subscriptions, written by
// broker/servicebus) to group what it shows as Service Bus.
#define RELAYDESK_QUEUE_COLUMNS                                                                                       \
    "SELECT q.id, q.name, q.fifo, q.dead_letter_queue, EXISTS (SELECT 1 FROM zaqar_queues z WHERE z.queue_id = q.id),"   \
    " q.servicebus IS NOT NULL, (SELECT s.topic FROM servicebus_subscriptions s WHERE s.queue_id = q.id)"             \
    " FROM queues q"
constexpr std::string_view kQueues = RELAYDESK_QUEUE_COLUMNS " ORDER BY q.name";
constexpr std::string_view kQueueByName = RELAYDESK_QUEUE_COLUMNS " WHERE q.name = ?";
#undef RELAYDESK_QUEUE_COLUMNS
constexpr std::string_view kServiceBusTopics = "SELECT name FROM servicebus_topics ORDER BY name";
constexpr std::string_view kTopics =
    "SELECT t.name, t.fifo, (SELECT q.name FROM queues q JOIN zaqar_queues z ON z.queue_id = q.id"
    " WHERE 'zaqar-' || q.name = t.name) FROM topics t ORDER BY t.name";
constexpr std::string_view kSubscriptions =
    "SELECT t.name, s.uuid, s.protocol, s.endpoint, s.state,"
    " (SELECT count(*) FROM pending_deliveries p WHERE p.subscription_id = s.id) FROM subscriptions s"
    " JOIN topics t ON t.id = s.topic_id ORDER BY t.name, s.uuid";
// Along the attempt log's index of one subscription.
constexpr std::string_view kDelivered =
    "SELECT count(*) FROM delivery_attempts WHERE subscription_arn = ? AND final = 'delivered'";
constexpr std::string_view kLastAttempt =
    "SELECT outcome, http_status FROM delivery_attempts WHERE subscription_arn = ? ORDER BY id DESC LIMIT 1";

Status readDeliveries(Database &db, SubscriptionOverview &subscription)
{
    auto delivered = selectOptionalInt64(db, kDelivered, subscription.arn);
    if (!delivered)
        return delivered.error();
    subscription.delivered = delivered->value_or(0);
    auto last = selectRow(db, kLastAttempt, subscription.arn);
    if (!last)
        return last.error();
    if (*last) {
        subscription.lastOutcome = (**last)->columnText(0);
        if (const auto status = (**last)->columnOptionalInt64(1))
            subscription.lastHttpStatus = static_cast<int>(*status);
    }
    return {};
}

// A row of kQueues / kQueueByName; returns the queue's id.
std::int64_t readQueueRow(Statement &row, QueueOverview &queue)
{
    queue.name = row.columnText(1);
    queue.fifo = row.columnInt64(2) != 0;
    queue.deadLetterQueue = row.columnOptionalText(3);
    queue.zaqar = row.columnInt64(4) != 0;
    queue.serviceBus = row.columnInt64(5) != 0;
    queue.serviceBusTopic = row.columnOptionalText(6).value_or("");
    return row.columnInt64(0);
}

using DepthRead = Result<QueueDepths> (*)(Database &, std::int64_t, ClockTime);

Status readCounts(Database &db, std::int64_t queueId, ClockTime now, QueueOverview &queue, DepthRead read)
{
    Result<QueueDepths> depths = read(db, queueId, now);
    if (!depths)
        return depths.error();
    queue.counts = depths->counts;
    queue.nextVisible = depths->nextVisible;
    return {};
}

Status readQueues(Database &db, ClockTime now, EntityOverview &overview)
{
    std::vector<std::int64_t> ids;
    {
        auto statement = prepareBound(db, kQueues);
        if (!statement)
            return statement.error();
        Status walked = forEachRow(**statement, [&](Statement &row) {
            QueueOverview queue;
            ids.push_back(readQueueRow(row, queue));
            overview.queues.push_back(std::move(queue));
        });
        if (!walked)
            return walked;
    }
    std::set<std::string> targets;
    std::set<std::string> serviceBus;
    for (const QueueOverview &queue : overview.queues) {
        if (queue.deadLetterQueue)
            targets.insert(*queue.deadLetterQueue);
        if (queue.serviceBus)
            serviceBus.insert(queue.name);
    }
    constexpr std::string_view kSuffix = kServiceBusDeadLetterSuffix;
    for (std::size_t i = 0; i < overview.queues.size(); ++i) {
        QueueOverview &queue = overview.queues[i];
        queue.isDeadLetterQueue = targets.count(queue.name) > 0;
        if (queue.name.size() > kSuffix.size() && queue.name.compare(queue.name.size() - kSuffix.size(), kSuffix.size(), kSuffix) == 0) {
            std::string owner = queue.name.substr(0, queue.name.size() - kSuffix.size());
            if (serviceBus.count(owner))
                queue.serviceBusDeadLetterOf = std::move(owner);
        }
        if (Status read = readCounts(db, ids[i], now, queue, queue_depths::read); !read)
            return read;
        if (queue.nextVisible && (!overview.nextVisible || *queue.nextVisible < *overview.nextVisible))
            overview.nextVisible = queue.nextVisible;
    }
    return {};
}

} // namespace

Result<EntityOverview> readEntityOverview(Database &db, const BrokerIdentity &identity, ClockTime now)
{
    EntityOverview overview;
    {
        auto topics = prepareBound(db, kTopics);
        if (!topics)
            return topics.error();
        Status walked = forEachRow(**topics, [&](Statement &row) {
            overview.topics.push_back(
                TopicOverview{row.columnText(0), row.columnInt64(1) != 0, row.columnOptionalText(2).value_or("")});
        });
        if (!walked)
            return walked.error();
    }
    {
        auto subscriptions = prepareBound(db, kSubscriptions);
        if (!subscriptions)
            return subscriptions.error();
        Status walked = forEachRow(**subscriptions, [&](Statement &row) {
            const std::string topic = row.columnText(0);
            SubscriptionOverview subscription;
            subscription.arn = identity.subscriptionArn(topic, row.columnText(1));
            subscription.topicName = topic;
            subscription.protocol = row.columnText(2);
            subscription.endpoint = row.columnText(3);
            subscription.pending = row.columnText(4) == "pending";
            subscription.pendingDeliveries = row.columnInt64(5);
            overview.subscriptions.push_back(std::move(subscription));
        });
        if (!walked)
            return walked.error();
        for (SubscriptionOverview &subscription : overview.subscriptions)
            if (Status read = readDeliveries(db, subscription); !read)
                return read.error();
    }
    if (Status read = readQueues(db, now, overview); !read)
        return read.error();
    {
        auto topics = prepareBound(db, kServiceBusTopics);
        if (!topics)
            return topics.error();
        Status walked = forEachRow(**topics, [&](Statement &row) { overview.serviceBusTopics.push_back(row.columnText(0)); });
        if (!walked)
            return walked.error();
    }
    return overview;
}

namespace {

Result<std::optional<QueueOverview>> queueOverview(Database &db, const std::string &name, ClockTime now, DepthRead read)
{
    QueueOverview queue;
    std::int64_t id = 0;
    {
        auto row = selectRow(db, kQueueByName, name);
        if (!row)
            return row.error();
        if (!*row)
            return std::optional<QueueOverview>();
        id = readQueueRow(***row, queue);
    }
    if (Status counted = readCounts(db, id, now, queue, read); !counted)
        return counted.error();
    return std::optional<QueueOverview>(std::move(queue));
}

} // namespace

Result<std::optional<QueueOverview>> readQueueOverview(Database &db, const std::string &name, ClockTime now)
{
    return queueOverview(db, name, now, queue_depths::read);
}

Result<std::optional<QueueOverview>> refreshQueueOverview(Database &db, const std::string &name, ClockTime now)
{
    return queueOverview(db, name, now, queue_depths::refresh);
}

} // namespace relaydesk
