// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "broker/broker_identity.h"
#include "broker/message_receiver.h"
#include "broker/message_sender.h"
#include "broker/queue_catalog.h"
#include "broker/result.h"
#include "broker/subscription_catalog.h"
#include "broker/topic_catalog.h"
#include "broker/topic_publisher.h"

#include <functional>
#include <memory>
#include <string>

class QObject;

namespace relaydesk {

class BrokerEngine;
class IdSource;

// The broker operations as the HTTP layer and the window call them: each one
// runs as a unit on the BrokerEngine (group commit), reports its EntityChange
// from inside the unit, and replies with a Result after its commit.
//
//  - Replies: posted to `context`'s thread; with a null context called on the
//    broker thread (must be quick). Dropped when the context is destroyed
//    before the reply is delivered.
//  - Long polling: receiveMessage with waitTimeSeconds > 0 and nothing to
//    take waits on the engine's waiters under "queue:NAME", woken by a
//    committed send or fan-out to that queue, or by the queue's next
//    visibility time, and ends empty at the deadline (clock time, so the
//    virtual clock drives it).
//  - Lifetime timer: every committed operation reports the next lifetime
//    due time (message expiry, idle auto-delete of queues, topics and
//    subscriptions, topic deduplication window); one ClockScheduler entry is
//    kept at the earliest of them. It runs expiry, dead-lettering on expiry,
//    idle deletion and deduplication clean-up as one unit, then re-arms.
//
// Ownership: borrows the engine, which must outlive the service; owns the
// IdSource (used on the broker thread only). Thread: every public method is
// safe from any thread; the destructor waits for the broker thread to drop
// the lifetime timer (receives still waiting keep their reply).
class BrokerService final {
public:
    template <class T>
    using Reply = std::function<void(Result<T>)>;

    // A null `ids` takes a RandomIdSource. Arms the lifetime timer.
    BrokerService(BrokerEngine &engine, BrokerIdentity identity = {}, std::unique_ptr<IdSource> ids = nullptr);
    ~BrokerService();
    BrokerService(const BrokerService &) = delete;
    BrokerService &operator=(const BrokerService &) = delete;

    // Queue URL. Reports Created (queue) only when the queue is new.
    void createQueue(std::string name, AttributeMap attributes, QueueTags tags, QObject *context,
                     Reply<std::string> reply);
    // Reports Deleted (queue).
    void deleteQueue(std::string name, QObject *context, Reply<void> reply);
    // Reports CountsChanged (queue); wakes the queue's waiting receives.
    void sendMessage(std::string queueName, SendRequest request, QObject *context, Reply<SendReceipt> reply);
    // Waits up to request.waitTimeSeconds (clock time) when nothing is there;
    // an empty result after the wait. Reports CountsChanged when it took messages.
    void receiveMessage(std::string queueName, ReceiveRequest request, QObject *context,
                        Reply<ReceiveResult> reply);
    // Reports CountsChanged (queue).
    void deleteMessage(std::string queueName, std::string receiptHandle, QObject *context, Reply<void> reply);
    // Topic ARN. Reports Created (topic) only when the topic is new.
    void createTopic(std::string name, AttributeMap attributes, TopicTags tags, QObject *context,
                     Reply<std::string> reply);
    // Reports Created (subscription, by ARN) when the topic gained one.
    void subscribe(std::string topicName, std::string protocol, std::string endpoint, AttributeMap attributes,
                   bool autoConfirm, QObject *context, Reply<SubscribeReceipt> reply);
    // Reports CountsChanged for every queue an sqs subscription of the topic
    // names, and wakes their waiting receives.
    void publish(std::string topicName, PublishRequest request, QObject *context, Reply<PublishReceipt> reply);

    struct State; // shared with callbacks on the broker thread

private:
    std::shared_ptr<State> m_state;
};

} // namespace relaydesk
