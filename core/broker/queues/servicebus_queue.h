// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/queue_attributes.h"
#include "broker/result.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
struct BrokerIdentity;

// The properties of a Service Bus queue as the official emulator's
// Config.json gives them (docs/behaviour.md §8.6, lifetime rules §6). Times are
// seconds. Plain value type.
struct ServiceBusQueueProperties {
    static constexpr std::int64_t kMinLockDuration = 5;
    static constexpr std::int64_t kMaxLockDuration = 300;
    static constexpr int kMaxMaxDeliveryCount = 1000;   // the broker's redrive bound
    static constexpr std::int64_t kMinDuplicateDetectionWindow = 20;
    static constexpr std::int64_t kMaxDuplicateDetectionWindow = 7 * 86'400;

    std::string name;
    std::int64_t lockDuration = 60;                      // LockDuration, PT5S–PT5M, default PT1M
    int maxDeliveryCount = 10;                           // MaxDeliveryCount 1–1000
    std::optional<std::int64_t> defaultMessageTimeToLive;   // none = no expiry
    bool deadLetteringOnMessageExpiration = false;
    std::optional<std::int64_t> autoDeleteOnIdle;        // ≥ 300; none = never
    bool requiresSession = false;                        // RequiresSession: messages in sessions (servicebus_session.h)
    bool requiresDuplicateDetection = false;             // RequiresDuplicateDetection
    std::int64_t duplicateDetectionWindow = 600;         // DuplicateDetectionHistoryTimeWindow, PT20S–P7D, default PT10M
    std::string forwardTo;                               // ForwardTo: a queue sent messages go to instead; "" none
    std::string forwardDeadLetteredMessagesTo;           // ForwardDeadLetteredMessagesTo: where dead letters go; "" the sub-queue

    bool operator==(const ServiceBusQueueProperties &) const = default;
};

// A Service Bus entity a link can name: a queue, or its dead-letter
// sub-queue "NAME/$DeadLetterQueue" (both are broker queues); a topic
// subscription "TOPIC/Subscriptions/NAME" and its dead-letter sub-queue
// (broker queues too); or a topic (`topic`: sent to, never received from;
// queueName is the topic's name).
struct ServiceBusEntity {
    std::string queueName;                  // the broker queue that holds the messages
    ServiceBusQueueProperties properties;   // of the queue (of its parent for a dead-letter queue)
    bool deadLetterQueue = false;
    bool topic = false;
};

inline constexpr std::string_view kServiceBusDeadLetterSuffix = "/$DeadLetterQueue";
// The reason a message is dead-lettered after MaxDeliveryCount deliveries.
inline constexpr std::string_view kMaxDeliveryCountExceeded = "MaxDeliveryCountExceeded";

// An ISO 8601 duration as Service Bus writes them ("PT1M", "P14D",
// "PT0.5S"), in whole seconds rounded up; nothing when malformed. A duration
// of 10 675 199 days or more (.NET's TimeSpan.MaxValue) means "never". Pure.
std::optional<std::int64_t> parseServiceBusDuration(std::string_view text);
// The same in the form Service Bus writes ("PT1M", "P14D", "PT1H30M").
std::string serviceBusDurationText(std::int64_t seconds);
constexpr std::int64_t kServiceBusNever = 10'675'199LL * 86'400;

// 1–260 of letters, digits, '.', '-', '_' and '/', starting and ending with a
// letter or digit (no "$": the sub-queue suffix is reserved). Pure.
Status validateServiceBusQueueName(std::string_view name);

// "NAME/$DeadLetterQueue" of a valid Service Bus queue name (a redrive
// target the SQS name rules would refuse). Pure.
bool isServiceBusDeadLetterQueue(std::string_view name);

// One queue of Config.json: {"Name": …, "Properties": {…}}. Properties the
// emulator knows but Relaydesk does not build yet (EnablePartitioning) are
// accepted only at their "off" value; anything else, or an unknown
// property, or a value out of range, is InvalidParameterValue naming it and
// the queue. Pure.
Result<ServiceBusQueueProperties> parseServiceBusQueue(const nlohmann::json &queue);
// The same properties as Config.json writes them (durations in ISO 8601).
nlohmann::json serviceBusQueueJson(const ServiceBusQueueProperties &properties);

// Where the queue's dead letters go: its ForwardDeadLetteredMessagesTo, or
// its "/$DeadLetterQueue". Pure.
std::string serviceBusDeadLetterTarget(const ServiceBusQueueProperties &properties);

// The broker queue attributes of a Service Bus queue: the lock is the
// visibility timeout, MaxDeliveryCount the redrive bound into the
// dead-letter target (serviceBusDeadLetterTarget), retention the longest the broker keeps. Pure.
QueueAttributes serviceBusQueueAttributes(const ServiceBusQueueProperties &properties, const BrokerIdentity &identity);

// The rows of Service Bus queues (queues.servicebus, migration 10).
// Inside the caller's transaction; thread of `db`.
namespace servicebus_queues {

// Creates the queue and its dead-letter sub-queue. True when created; false
// when a Service Bus queue of that name exists with the same properties;
// QueueAlreadyExists when it exists with others, or a broker queue or a
// Service Bus topic has the name.
Result<bool> create(Database &db, const ServiceBusQueueProperties &properties, const BrokerIdentity &identity,
                    ClockTime now);
// The entity `address` names (a queue or its "/$DeadLetterQueue"), or
// QueueDoesNotExist when it is no Service Bus entity.
Result<ServiceBusEntity> find(Database &db, std::string_view address);
// Every Service Bus queue, by name (topic subscriptions apart).
Result<std::vector<ServiceBusQueueProperties>> list(Database &db);

} // namespace servicebus_queues

} // namespace relaydesk
