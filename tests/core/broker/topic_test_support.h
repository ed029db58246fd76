// SPDX-License-Identifier: MIT
// Shared set-up of the topic tests: BrokerTestDatabase with the topic,
// subscription and publish operations as units. Test-only.
#pragma once

#include "broker_test_support.h"

#include "broker/queues/message_receiver.h"
#include "broker/queues/queue_catalog.h"
#include "broker/topics/subscription_catalog.h"
#include "broker/topics/topic_catalog.h"
#include "broker/deliveries/topic_publisher.h"

#include <string>
#include <vector>

namespace relaydesk::testing {

class TopicTestBroker final : public BrokerTestDatabase {
public:
    TopicCatalog topics() { return TopicCatalog(db(), identity()); }
    SubscriptionCatalog subscriptions() { return SubscriptionCatalog(db(), identity(), ids()); }
    TopicPublisher publisher() { return TopicPublisher(db(), identity(), ids()); }

    Result<std::string> createTopic(const std::string &name, const AttributeMap &attributes = {},
                                    ClockTime now = at(0))
    {
        return unit([&] { return topics().createTopic(name, attributes, {}, now); });
    }

    Result<std::string> createQueue(const std::string &name, const AttributeMap &attributes = {})
    {
        return unit([&] { return QueueCatalog(db(), identity()).createQueue(name, attributes, {}, at(0)); });
    }
    Result<SubscribeReceipt> subscribe(const std::string &topic, const std::string &protocol,
                                       const std::string &endpoint, const AttributeMap &attributes = {},
                                       bool autoConfirm = false, ClockTime now = at(0))
    {
        return unit([&] { return subscriptions().subscribe(topic, protocol, endpoint, attributes, autoConfirm, now); });
    }
    // Subscribes queue `queue` (created first) to `topic`; returns the subscription ARN.
    std::string subscribeQueue(const std::string &topic, const std::string &queue, const AttributeMap &attributes = {})
    {
        if (!createQueue(queue, queue.ends_with(".fifo") ? AttributeMap{{"FifoQueue", "true"}} : AttributeMap{}))
            qFatal("create queue %s", queue.c_str());
        Result<SubscribeReceipt> receipt = subscribe(topic, "sqs", identity().queueArn(queue), attributes);
        if (!receipt)
            qFatal("subscribe: %s", receipt.error().message.c_str());
        return receipt->subscriptionArn;
    }
    Result<PublishReceipt> publish(const std::string &topic, const PublishRequest &request, ClockTime now)
    {
        return unit([&] { return publisher().publish(topic, request, now); });
    }
    Result<PublishReceipt> publish(const std::string &topic, const std::string &message, ClockTime now = at(1))
    {
        PublishRequest request;
        request.message = message;
        return publish(topic, request, now);
    }
    // Every message of a queue: one receive of up to 10 with a long lock.
    std::vector<ReceivedMessage> receiveAll(const std::string &queue, ClockTime now)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = 10;
        request.visibilityTimeout = 600;
        Result<ReceiveResult> received = unit([&] { return MessageReceiver(db(), ids()).receive(queue, request, now); });
        if (!received)
            qFatal("receive: %s", received.error().message.c_str());
        return received->messages;
    }

    // A fingerprint of every row of the topic tables.
    std::string snapshot()
    {
        return fingerprint(
            {"SELECT group_concat(id || name || attributes || last_used_ms || next_sequence, '|') FROM topics",
             "SELECT group_concat(topic_id || key || value, '|') FROM topic_tags",
             "SELECT group_concat(id || uuid || topic_id || state || raw_delivery || coalesce(filter_policy, '-') "
             "|| attributes || last_used_ms, '|') FROM subscriptions",
             "SELECT group_concat(id || message_id || topic_name || body, '|') FROM published_messages",
             "SELECT group_concat(subscription_id || published_id || attempt || due_ms, '|') FROM pending_deliveries",
             "SELECT group_concat(id || message_id || queue_id || body, '|') FROM messages"});
    }
};

} // namespace relaydesk::testing
