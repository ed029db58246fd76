// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QMap>
#include <QString>

#include <optional>
#include <vector>

namespace relaydesk {

// The entities a connection lists, in the product's words
// (docs/window.md "What each connection offers").
enum class EntityKind {
    Queue,                    // an SQS queue (Relaydesk's, AWS's, sqslite's)
    Topic,                    // an SNS topic
    Subscription,             // an SNS subscription (parent: its topic)
    ServiceBusQueue,
    ServiceBusTopic,
    ServiceBusSubscription,   // parent: its Service Bus topic
    ZaqarQueue,
};

// Attribute name → value, as the service names them ("VisibilityTimeout",
// "DisplayName", …); set calls send only the members given.
using EntityAttributes = QMap<QString, QString>;

// Names an entity for every call after the listing: `name` as the tree shows
// it, `address` as the service addresses it (an SQS queue URL, an SNS topic or
// subscription ARN; the name when the service uses names), `parent` the
// address of a subscription's topic.
struct EntityRef {
    EntityKind kind = EntityKind::Queue;
    QString name;
    QString address;
    QString parent;
};

// One row of a listing. Counts are there when the backend gives them with the
// listing (or for the cost of one call per entity, stated by the connection's
// capabilities); an absent count is unknown, not zero.
struct EntitySummary {
    EntityRef ref;
    std::optional<qint64> available;   // ApproximateNumberOfMessages, active messages
    std::optional<qint64> inFlight;    // ApproximateNumberOfMessagesNotVisible, locked
    std::optional<qint64> delayed;     // ApproximateNumberOfMessagesDelayed, scheduled
};

// A message to send or publish.
struct OutgoingMessage {
    QString body;
    QMap<QString, QString> attributes;   // String message attributes
    std::optional<int> delaySeconds;
    QString groupId;                     // FIFO: MessageGroupId; Service Bus: SessionId
    QString deduplicationId;             // FIFO: MessageDeduplicationId
    QString messageId;                   // Service Bus: MessageId (empty: a new UUID)
    QString subject;                     // Service Bus: Subject (the label)
    QString contentType;                 // Service Bus: ContentType
};

// One message as the Messages tab shows it: peeked (receiptHandle empty,
// nothing changed) or polled (receiptHandle set: received, invisible to
// others until `lockedUntil` or settled).
struct MessageLine {
    QString messageId;
    QString body;
    QMap<QString, QString> attributes;
    QString state;                 // "available", "inFlight", … when peeked; "received" when polled
    QDateTime sent;                // invalid when the backend does not say
    int receiveCount = 0;
    QString receiptHandle;
    std::optional<qint64> sequenceNumber;
};

// A peek: `count` messages after `after` (the previous page's token).
struct PeekRequest {
    std::optional<qint64> after;
    int count = 100;
};

struct MessagePage {
    std::vector<MessageLine> messages;
    std::optional<qint64> next;    // the token of the next page; empty on the last
    std::optional<qint64> total;   // the entity's message count, when known
};

// A broker's clock as another Relaydesk's native API gives it (GET /api/v1/clock).
struct BrokerClock {
    QString mode;        // "wall", "virtual" or "scaled"
    QDateTime now;       // UTC
    double scale = 1.0;  // broker seconds per wall second (a scaled clock)
    bool isVirtual() const { return mode == QLatin1String("virtual"); }
};

// A poll: receives up to `count` (1–10) messages, hiding them for
// `visibilitySeconds` — on a service without peek the Messages tab's
// "Poll messages", which says that the messages it shows are received.
struct PollRequest {
    int count = 10;
    int visibilitySeconds = 30;
};

} // namespace relaydesk
