// SPDX-License-Identifier: MIT
#pragma once

// What a connection answers about deliveries, mock endpoints and SQS message
// move tasks (BrokerConnection::deliveries, attempts, mockEndpoints,
// mockRequests, moveMessages, messageMoves), in the product's words.
#include "broker/deliveries/attempt_log.h"

#include <QDateTime>
#include <QString>

#include <optional>
#include <vector>

namespace relaydesk {

// One message's delivery to a subscription as the Deliveries page lists it:
// its attempts so far and how the newest delivery of it ended.
struct DeliverySummary {
    QString messageId;
    qint64 attempts = 0;       // every attempt of every delivery of the message (redeliveries too)
    QString lastOutcome;       // the newest attempt's outcome ("delivered", "retryable", …)
    QString end;               // "delivered", "deadLettered", "discarded", "confirmed"; "pending" while attempts remain
    QDateTime lastAttemptAt;   // UTC
};

// A mock endpoint of another Relaydesk (GET /api/v1/mocks).
struct MockEndpointLine {
    QString name;
    QString script;
    QString url;
    qint64 requestCount = 0;
};

// One request a mock endpoint received, and what it answered.
struct MockRequestLine {
    QString method;
    QString target;
    QDateTime received;   // UTC
    QString body;         // at most its first 64 KiB (the broker keeps no more)
    QString answer;       // "503", "hang", "close", …
};

// An SQS message move task (ListMessageMoveTasks' Results).
struct MessageMoveLine {
    QString taskHandle;   // only while RUNNING
    QString status;       // RUNNING, COMPLETED, CANCELLING, CANCELLED, FAILED
    QString sourceArn;
    QString destinationArn;   // empty: each message back to the queue it was dead-lettered from
    qint64 moved = 0;
    std::optional<qint64> toMove;
    QString failureReason;
};

} // namespace relaydesk
