// SPDX-License-Identifier: MIT
#include "broker/deliveries/pending_delivery_outcome.h"

#include "broker/deliveries/attempt_log.h"
#include "broker/queues/dead_letter_queue.h"
#include "broker/id_source.h"
#include "broker/queues/message_sender.h"
#include "broker/deliveries/sns_envelope.h"
#include "broker/store_calls.h"
#include "broker/topics/subscription_records.h"

namespace relaydesk::pending_delivery_outcome {

namespace {

Status removePending(Database &db, PendingDeliveryKey key)
{
    if (Status removed = executeStatement(db,
                                          "DELETE FROM pending_deliveries WHERE subscription_id = ? AND published_id = ?",
                                          key.subscriptionId, key.publishedId);
        !removed)
        return removed;
    // A notification whose last delivery ended is kept for redelivery
    // (finished_messages, pruned with the attempt log).
    if (Status kept = executeStatement(
            db,
            "INSERT OR REPLACE INTO finished_messages (message_id, topic_name, subject, body, attributes, group_id, "
            "dedup_id, sequence_number, published_ms, kind) SELECT message_id, topic_name, subject, body, attributes, "
            "group_id, dedup_id, sequence_number, published_ms, kind FROM published_messages WHERE id = ? AND "
            "kind = 'Notification' AND NOT EXISTS (SELECT 1 FROM pending_deliveries WHERE published_id = ?)",
            key.publishedId, key.publishedId);
        !kept)
        return kept;
    return executeStatement(db,
                            "DELETE FROM published_messages WHERE id = ? AND NOT EXISTS "
                            "(SELECT 1 FROM pending_deliveries WHERE published_id = ?)",
                            key.publishedId, key.publishedId);
}

// Sends the message to the dead-letter queue; false when there is none or it refuses.
Result<bool> deadLetter(Database &db, IdSource &ids, const AttemptReport &report, ClockTime now)
{
    const DeliveryJob &job = report.job;
    if (!job.deadLetterTargetArn || job.isConfirmation())
        return false;
    const std::optional<ArnParts> arn = splitArn(*job.deadLetterTargetArn);
    if (!arn || arn->service != "sqs")
        return false;
    SendRequest send;
    send.deadLetterReason = report.outcome == AttemptOutcome::Permanent ? kDeliveryRefused : kDeliveryRetriesExhausted;
    if (job.rawDelivery) {
        send.body = job.message;
        send.attributes = job.attributes;
    } else {
        send.body = report.sentEnvelope;
    }
    Result<SendReceipt> sent = MessageSender(db, ids).send(arn->resource, send, now);
    if (!sent) {
        if (sent.error().code == BrokerErrorCode::InternalError)
            return sent.error();
        return false;
    }
    return true;
}

// The log row of `job`'s current attempt, started (or held back) at `startedAt`.
AttemptRecord logEntryOf(const DeliveryJob &job, ClockTime startedAt)
{
    AttemptRecord entry;
    entry.messageId = job.messageId;
    entry.subscriptionArn = job.subscriptionArn;
    entry.kind = attempt_log::kindOfDelivery(job.kind);
    entry.attempt = job.attempt;
    entry.redelivery = job.redelivery;
    entry.phase = phaseOfAttempt(job.schedule, job.attempt);
    entry.plannedAt = job.due;
    entry.startedAt = startedAt;
    return entry;
}

// The log row of a finished attempt: what came back.
AttemptRecord logEntryOf(const AttemptReport &report)
{
    AttemptRecord entry = logEntryOf(report.job, report.startedAt);
    entry.durationMs = report.durationMs;
    entry.httpStatus = report.httpStatus;
    if (report.failure == TransportFailure::Timeout)
        entry.errorKind = "timeout";
    else if (report.failure == TransportFailure::ConnectionError)
        entry.errorKind = "connectionError";
    entry.error = report.error;
    entry.outcome = std::string(attemptOutcomeName(report.outcome));
    return entry;
}

// Whether the pending row of `job` is still there at the job's attempt.
Result<bool> stillPending(Database &db, const DeliveryJob &job)
{
    Result<std::optional<std::int64_t>> current = selectOptionalInt64(
        db, "SELECT attempt FROM pending_deliveries WHERE subscription_id = ? AND published_id = ?",
        job.key.subscriptionId, job.key.publishedId);
    if (!current)
        return current.error();
    return *current && **current == job.attempt;
}

} // namespace

Result<RecordedAttempt> record(Database &db, IdSource &ids, const AttemptReport &report, ClockTime now)
{
    const DeliveryJob &job = report.job;
    RecordedAttempt result;
    Result<bool> pending = stillPending(db, job);
    if (!pending)
        return pending.error();
    if (!*pending)
        return result;
    result.recorded = true;

    bool ends = report.next.ends;
    if (!ends && job.expiresAt && report.nextDue > *job.expiresAt)
        ends = true;

    AttemptRecord entry = logEntryOf(report);

    if (!ends) {
        if (Result<std::int64_t> appended = attempt_log::append(db, entry); !appended)
            return appended.error();
        const std::int64_t first = toEpochMilliseconds(job.firstAttempt.value_or(report.startedAt));
        if (Status moved = executeStatement(
                db,
                "UPDATE pending_deliveries SET attempt = ?, due_ms = ?, first_attempt_ms = ? "
                "WHERE subscription_id = ? AND published_id = ?",
                report.next.nextAttempt, toEpochMilliseconds(report.nextDue), first, job.key.subscriptionId,
                job.key.publishedId);
            !moved)
            return moved.error();
        result.nextDue = report.nextDue;
        return result;
    }

    DeliveryEnd end = DeliveryEnd::Delivered;
    if (!report.next.delivered) {
        Result<bool> dead = deadLetter(db, ids, report, now);
        if (!dead)
            return dead.error();
        end = *dead ? DeliveryEnd::DeadLettered : DeliveryEnd::Discarded;
    } else if (Status touched = subscription_records::touch(db, job.key.subscriptionId, now); !touched) {
        return touched.error();
    }
    entry.final = std::string(deliveryEndName(end));
    if (Result<std::int64_t> appended = attempt_log::append(db, entry); !appended)
        return appended.error();
    if (Status removed = removePending(db, job.key); !removed)
        return removed.error();
    result.end = end;
    return result;
}

Status recordOneOff(Database &db, const AttemptReport &report)
{
    AttemptRecord entry = logEntryOf(report);
    entry.final = std::string(
        deliveryEndName(report.outcome == AttemptOutcome::Delivered ? DeliveryEnd::Delivered : DeliveryEnd::Discarded));
    if (Result<std::int64_t> appended = attempt_log::append(db, entry); !appended)
        return appended.error();
    return {};
}

Result<bool> recordThrottledWait(Database &db, const DeliveryJob &job, ClockTime now)
{
    Result<bool> pending = stillPending(db, job);
    if (!pending || !*pending)
        return pending;
    AttemptRecord entry = logEntryOf(job, now);
    entry.outcome = std::string(attemptOutcomeName(AttemptOutcome::ThrottledWait));
    if (Result<std::int64_t> appended = attempt_log::append(db, entry); !appended)
        return appended.error();
    return true;
}

Status endWithoutAttempt(Database &db, const DeliveryJob &job)
{
    Result<std::optional<std::int64_t>> last = attempt_log::lastRowOf(db, job.subscriptionArn, job.messageId);
    if (!last)
        return last.error();
    if (*last) {
        const DeliveryEnd end = job.kind == "SubscriptionConfirmation" && job.confirmed ? DeliveryEnd::Confirmed
                                                                                         : DeliveryEnd::Discarded;
        if (Status marked = attempt_log::setFinal(db, **last, std::string(deliveryEndName(end)));
            !marked)
            return marked;
    }
    return removePending(db, job.key);
}

Result<std::string> queueConfirmation(Database &db, const BrokerIdentity &identity, IdSource &ids,
                                      std::int64_t subscriptionId, const std::string &kind, ClockTime now)
{
    Result<std::optional<CachedStatement>> row = selectRow(
        db, "SELECT t.name, s.uuid FROM subscriptions s JOIN topics t ON t.id = s.topic_id WHERE s.id = ?",
        subscriptionId);
    if (!row)
        return row.error();
    if (!*row)
        return BrokerError(BrokerErrorCode::SnsNotFound, "Subscription does not exist");
    const std::string topicName = (**row)->columnText(0);
    const std::string uuid = (**row)->columnText(1);
    row->reset();
    const std::string arn = kind == "UnsubscribeConfirmation" ? identity.subscriptionArn(topicName, uuid)
                                                              : identity.topicArn(topicName);
    const std::string messageId = ids.newMessageId();
    if (Status stored = executeStatement(
            db,
            "INSERT INTO published_messages (message_id, topic_name, body, published_ms, kind) VALUES (?, ?, ?, ?, ?)",
            messageId, topicName, confirmationMessage(kind, arn), toEpochMilliseconds(now), kind);
        !stored)
        return stored.error();
    const std::int64_t publishedId = db.lastInsertRowId();
    if (Status pending = executeStatement(
            db, "INSERT INTO pending_deliveries (subscription_id, published_id, attempt, due_ms) VALUES (?, ?, 0, ?)",
            subscriptionId, publishedId, toEpochMilliseconds(now));
        !pending)
        return pending.error();
    return messageId;
}

} // namespace relaydesk::pending_delivery_outcome
