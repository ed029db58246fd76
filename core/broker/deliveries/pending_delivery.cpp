// SPDX-License-Identifier: MIT
#include "broker/deliveries/pending_delivery.h"

#include "broker/queues/queue_records.h"
#include "broker/deliveries/sns_envelope.h"
#include "broker/store_calls.h"
#include "broker/topics/subscription_records.h"
#include "broker/topics/topic_records.h"
#include "broker/deliveries/zaqar_notification.h"

#include <map>

namespace relaydesk {

namespace {

std::optional<ClockTime> optionalTime(const std::optional<std::int64_t> &ms)
{
    return ms ? std::optional<ClockTime>(fromEpochMilliseconds(*ms)) : std::nullopt;
}

Result<std::optional<SubscriptionRecord>> subscriptionById(Database &db, std::int64_t id)
{
    Result<std::vector<SubscriptionRecord>> page = subscription_records::page(db, 0, id - 1, 1);
    if (!page)
        return page.error();
    if (page->empty() || page->front().id != id)
        return std::optional<SubscriptionRecord>();
    return std::optional<SubscriptionRecord>(std::move(page->front()));
}

} // namespace

namespace pending_deliveries {

Result<std::optional<DeliveryJob>> subscriptionPart(Database &db, const BrokerIdentity &identity,
                                                    std::int64_t subscriptionId)
{
    Result<std::optional<SubscriptionRecord>> subscription = subscriptionById(db, subscriptionId);
    if (!subscription)
        return subscription.error();
    if (!*subscription)
        return std::optional<DeliveryJob>();
    const SubscriptionRecord &record = **subscription;
    Result<std::optional<TopicRecord>> topic = topic_records::findById(db, record.topicId);
    if (!topic)
        return topic.error();

    DeliveryJob job;
    job.subscriptionArn = identity.subscriptionArn(record.topicName, record.uuid);
    job.topicArn = identity.topicArn(record.topicName);
    job.endpoint = record.endpoint;
    job.rawDelivery = record.attributes.rawMessageDelivery;
    job.confirmed = record.confirmed;
    Result<bool> zaqar = zaqar_notification::isZaqarSubscription(db, subscriptionId);
    if (!zaqar)
        return zaqar.error();
    job.zaqar = *zaqar;
    job.confirmationToken = record.confirmationToken;
    if (record.attributes.redrivePolicy)
        job.deadLetterTargetArn = record.attributes.redrivePolicy->deadLetterTargetArn;

    std::optional<DeliveryPolicy> own;
    if (record.attributes.deliveryPolicy)
        own = record.attributes.deliveryPolicy->policy;
    std::optional<DeliveryPolicy> topicPolicy;
    if (*topic && (*topic)->attributes.deliveryPolicy)
        topicPolicy = (*topic)->attributes.deliveryPolicy->policy;
    job.effective = resolveEffectivePolicy(record.protocol, own, topicPolicy);
    job.schedule = planSchedule(job.effective.policy.retryOrDefault(), job.effective.policy.dialect);
    return std::optional<DeliveryJob>(std::move(job));
}

Result<std::vector<PendingDeliveryRow>> earliest(Database &db, std::size_t limit)
{
    Result<CachedStatement> statement = prepareBound(
        db,
        "SELECT subscription_id, published_id, attempt, due_ms FROM pending_deliveries "
        "ORDER BY due_ms, subscription_id, published_id LIMIT ?",
        static_cast<std::int64_t>(limit));
    if (!statement)
        return statement.error();
    std::vector<PendingDeliveryRow> rows;
    const Status read = forEachRow(**statement, [&](Statement &row) {
        rows.push_back(PendingDeliveryRow{PendingDeliveryKey{row.columnInt64(0), row.columnInt64(1)},
                                          row.columnInt64(2), fromEpochMilliseconds(row.columnInt64(3))});
    });
    if (!read)
        return read.error();
    return rows;
}

Result<std::vector<std::optional<DeliveryJob>>> loadJobs(Database &db, const BrokerIdentity &identity,
                                                        const std::vector<PendingDeliveryKey> &keys)
{
    // The subscription part of a job (subscription, topic, effective policy
    // and schedule), read once per subscription in this call.
    std::map<std::int64_t, std::optional<DeliveryJob>> subscriptionParts;
    std::vector<std::optional<DeliveryJob>> jobs;
    jobs.reserve(keys.size());
    for (const PendingDeliveryKey key : keys) {
        auto part = subscriptionParts.find(key.subscriptionId);
        if (part == subscriptionParts.end()) {
            Result<std::optional<DeliveryJob>> read = subscriptionPart(db, identity, key.subscriptionId);
            if (!read)
                return read.error();
            part = subscriptionParts.emplace(key.subscriptionId, std::move(*read)).first;
        }
        if (!part->second) {
            jobs.emplace_back();
            continue;
        }
        Result<std::optional<CachedStatement>> row = selectRow(
            db,
            "SELECT p.attempt, p.due_ms, p.first_attempt_ms, p.expires_at_ms, m.kind, m.message_id, m.subject, m.body, "
            "m.attributes, m.published_ms, p.redelivery FROM pending_deliveries p JOIN published_messages m ON m.id = p.published_id "
            "WHERE p.subscription_id = ? AND p.published_id = ?",
            key.subscriptionId, key.publishedId);
        if (!row)
            return row.error();
        if (!*row) {
            jobs.emplace_back();
            continue;
        }
        DeliveryJob job = *part->second;
        Statement &found = ***row;
        job.key = key;
        job.attempt = found.columnInt64(0);
        job.due = fromEpochMilliseconds(found.columnInt64(1));
        job.firstAttempt = optionalTime(found.columnOptionalInt64(2));
        job.expiresAt = optionalTime(found.columnOptionalInt64(3));
        job.kind = found.columnText(4);
        job.messageId = found.columnText(5);
        job.subject = found.columnOptionalText(6);
        job.message = found.columnText(7);
        job.attributes = queue_records::readMessageAttributes(found.columnText(8));
        job.published = fromEpochMilliseconds(found.columnInt64(9));
        job.redelivery = found.columnInt64(10);
        row->reset(); // give the statement back before the next queries
        jobs.emplace_back(std::move(job));
    }
    return jobs;
}

} // namespace pending_deliveries

DeliveryRequest describeDeliveryRequest(const DeliveryJob &job, const BrokerIdentity &identity)
{
    if (job.zaqar && !job.isConfirmation())
        return zaqar_notification::describe(job);
    DeliveryRequest request;
    request.headers.emplace_back("x-amz-sns-message-type", job.kind);
    request.headers.emplace_back("x-amz-sns-message-id", job.messageId);
    request.headers.emplace_back("x-amz-sns-topic-arn", job.topicArn);
    if (!job.isConfirmation())
        request.headers.emplace_back("x-amz-sns-subscription-arn", job.subscriptionArn);
    request.headers.emplace_back("User-Agent", "Amazon Simple Notification Service Agent");
    request.contentType = job.effective.policy.headerContentTypeOrDefault();
    if (job.isConfirmation()) {
        request.envelope = writeConfirmationEnvelope(
            SnsConfirmation{job.kind, job.messageId, job.topicArn, job.confirmationToken, job.message, job.published},
            identity);
        return request;
    }
    request.envelope = writeNotificationEnvelope(
        SnsNotification{job.messageId, job.topicArn, job.subscriptionArn, job.subject, job.message, job.published,
                        job.attributes},
        identity);
    if (job.rawDelivery) {
        request.raw = true;
        request.headers.emplace_back("x-amz-sns-rawdelivery", "true");
    }
    return request;
}

} // namespace relaydesk
