// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/attempt_export.h"
#include "broker/deliveries/attempt_log.h"
#include "broker/attribute_text.h"
#include "broker/broker_identity.h"
#include "broker/queues/dead_letter_queue.h"
#include "broker/queues/message_browser.h"
#include "broker/queues/message_lifetime.h"
#include "broker/queues/message_move_task.h"
#include "broker/queues/message_receiver.h"
#include "broker/queues/message_sender.h"
#include "broker/deliveries/message_timeline.h"
#include "broker/queues/queue_catalog.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/queues/servicebus_settlement.h"
#include "broker/servicebus/servicebus_topic.h"
#include "broker/deliveries/redelivery.h"
#include "broker/result.h"
#include "broker/topics/subscription_catalog.h"
#include "broker/topics/topic_catalog.h"
#include "broker/deliveries/topic_publisher.h"

#include <any>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

class QObject;

namespace relaydesk {

class BrokerEngine;
class DeliveryWorker;
class IdSource;
class UnitContext;

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
//    A send (or batch), a fan-out, a change of visibility, a move task or
//    expiry into a dead-letter queue wakes the queue's waiting receives; a
//    receive that still finds nothing re-arms its wake-up at the queue's
//    next visible time (so a purge only leaves them waiting).
//  - Lifetime timer: every committed operation reports the next lifetime
//    due time (message expiry, idle auto-delete of queues, topics and
//    subscriptions, topic deduplication window); one ClockScheduler entry is
//    kept at the earliest of them. It runs expiry, dead-lettering on expiry,
//    idle deletion and deduplication clean-up as one unit, then re-arms. It
//    reports CountsChanged for the queues expiry changed only, and Deleted
//    for every queue, topic and subscription (by ARN) deleted as idle.
//  - Names: queues and topics by name (the protocol layer turns URLs and
//    ARNs into names), subscriptions by ARN, move tasks by source ARN as AWS.
//  - Errors: those of the broker rules named in each comment (core/broker);
//    a refused operation changes nothing and reports nothing.
//
// Ownership: borrows the engine, which must outlive the service; owns the
// IdSource (used on the broker thread only). Thread: every public method is
// safe from any thread; the destructor waits for the broker thread to drop
// the lifetime timer (receives still waiting keep their reply).
class BrokerService final {
public:
    template <class T>
    using Reply = std::function<void(Result<T>)>;
    template <class V>
    using BatchReply = Reply<std::vector<BatchEntryResult<V>>>;

    // A null `ids` takes a RandomIdSource. Arms the lifetime timer.
    BrokerService(BrokerEngine &engine, BrokerIdentity identity = {}, std::unique_ptr<IdSource> ids = nullptr);
    ~BrokerService();
    BrokerService(const BrokerService &) = delete;
    BrokerService &operator=(const BrokerService &) = delete;

    // Attaches the HTTP/S delivery worker (borrowed; null detaches; set it
    // before the first request, detach before the worker goes). With one:
    //  - publish / publishBatch wake it after the commit;
    //  - subscribe queues a SubscriptionConfirmation (in the same unit) for a
    //    new pending http/https subscription and wakes it;
    //  - confirmSubscription wakes it;
    //  - unsubscribe sends the endpoint an UnsubscribeConfirmation after the
    //    commit (http/https only, best effort).
    // Without one (the default) none of this happens: nothing is delivered
    // over HTTP. Any thread.
    void setDeliveryWorker(DeliveryWorker *worker);
    // Signs the SNS envelopes that publish and publishBatch enqueue into
    // subscribed queues (docs/behaviour.md §4.6); without one their
    // Signature is "". Call before the first operation (not thread-safe).
    void setEnvelopeSigner(EnvelopeSigner sign);
    // The signer set above (empty when none), for publishes made in units of
    // other protocols (Zaqar's posts); lives as long as this service.
    const EnvelopeSigner &envelopeSigner() const;

    // Queue URL. Reports Created (queue) only when the queue is new.
    void createQueue(std::string name, AttributeMap attributes, QueueTags tags, QObject *context,
                     Reply<std::string> reply);
    // Reports Deleted (queue).
    void deleteQueue(std::string name, QObject *context, Reply<void> reply);
    // Reports CountsChanged (queue); wakes the queue's waiting receives.
    void sendMessage(std::string queueName, SendRequest request, QObject *context, Reply<SendReceipt> reply);
    // Waits up to request.waitTimeSeconds (clock time) when nothing is there;
    // an empty result after the wait. Reports CountsChanged when it took
    // messages, and for the dead-letter queue (whose receives it wakes) when
    // it moved messages there.
    // Every attempt counts as use of the sqs subscriptions delivering into the
    // queue (their AutoDeleteOnIdle clock restarts, docs/behaviour.md §6). A receive whose
    // `context` is destroyed (the HTTP server's connection: the client went)
    // is withdrawn: no attempt after that takes a message.
    void receiveMessage(std::string queueName, ReceiveRequest request, QObject *context,
                        Reply<ReceiveResult> reply);
    // How many receives wait on the queue now (long polls that found nothing;
    // a withdrawn one no longer counts). QueueDoesNotExist for an unknown queue.
    void waitingReceives(std::string queueName, QObject *context, Reply<std::size_t> reply);
    // Reports CountsChanged (queue).
    void deleteMessage(std::string queueName, std::string receiptHandle, QObject *context, Reply<void> reply);
    // --- Queues (broker_service_queues.cpp); QueueCatalog rules. ---
    void getQueueUrl(std::string name, QObject *context, Reply<std::string> reply);
    // Paged only when maxResults is given (as SQS).
    void listQueues(std::string prefix, std::optional<std::size_t> maxResults, std::string nextToken,
                    QObject *context, Reply<QueuePage> reply);
    void getQueueAttributes(std::string name, std::vector<std::string> attributeNames, QObject *context,
                            Reply<AttributeMap> reply);
    // Reports Changed (queue).
    void setQueueAttributes(std::string name, AttributeMap changes, QObject *context, Reply<void> reply);
    // Both report Changed (queue).
    void tagQueue(std::string name, QueueTags tags, QObject *context, Reply<void> reply);
    void untagQueue(std::string name, std::vector<std::string> keys, QObject *context, Reply<void> reply);
    void listQueueTags(std::string name, QObject *context, Reply<QueueTags> reply);
    // Queue URLs of the queues whose redrive policy targets `name`.
    void listDeadLetterSourceQueues(std::string name, QObject *context, Reply<std::vector<std::string>> reply);
    // Reports CountsChanged (queue); PurgeQueueInProgress within 60 s of the last purge.
    void purgeQueue(std::string name, QObject *context, Reply<void> reply);

    // --- Messages (broker_service_messages.cpp); MessageSender/Receiver rules. ---
    // Reports CountsChanged and wakes waiting receives when an entry was enqueued.
    void sendMessageBatch(std::string queueName, std::vector<BatchEntry<SendRequest>> entries, QObject *context,
                          BatchReply<SendReceipt> reply);
    // Entries: receipt handles. Reports CountsChanged when an entry succeeded.
    void deleteMessageBatch(std::string queueName, std::vector<BatchEntry<std::string>> entries, QObject *context,
                            BatchReply<bool> reply);
    // Reports CountsChanged; wakes the waiting receives (a timeout of 0 makes
    // the message available now; a longer one re-arms their wake-up).
    void changeMessageVisibility(std::string queueName, std::string receiptHandle, int visibilityTimeout,
                                 QObject *context, Reply<void> reply);
    void changeMessageVisibilityBatch(std::string queueName, std::vector<BatchEntry<VisibilityChange>> entries,
                                      QObject *context, BatchReply<bool> reply);
    // Peeks without receiving (browseQueue, narrowed by `search` as there);
    // reports nothing. A file database is read on a pool thread through a
    // read-only connection of its own, never on the broker thread.
    void browseQueue(std::string queueName, std::optional<std::int64_t> after, int pageSize, QObject *context,
                     Reply<BrowsePage> reply);
    void browseQueue(std::string queueName, std::optional<std::int64_t> after, int pageSize, std::string search,
                     QObject *context, Reply<BrowsePage> reply);
    // Every browse option: order, search and its scan limit (BrowseRequest).
    void browseQueue(std::string queueName, BrowseRequest request, QObject *context, Reply<BrowsePage> reply);
    void listScheduledMessages(std::string queueName, QObject *context, Reply<std::vector<ScheduledMessage>> reply);
    // Reports CountsChanged (queue).
    void cancelScheduledMessage(std::string queueName, std::string messageId, QObject *context, Reply<void> reply);
    // The task handle, after the first chunk of the move committed; the
    // next chunks run on the ClockScheduler (a clock second apart with a
    // rate, else one after the other) until the task ends or is cancelled.
    // Every chunk reports CountsChanged for the dead-letter queue (its task's
    // progress, for ListMessageMoveTasks) and the queues it moved to, and
    // wakes their waiting receives. RUNNING tasks found in the database when
    // the service starts go on. Rules: message_move_tasks.
    void startMessageMoveTask(std::string sourceArn, std::optional<std::string> destinationArn,
                              std::optional<std::int64_t> maxNumberOfMessagesPerSecond, QObject *context,
                              Reply<std::string> reply);
    void listMessageMoveTasks(std::string sourceArn, std::optional<int> maxResults, QObject *context,
                              Reply<std::vector<MessageMoveTask>> reply);
    // Stops a RUNNING task before its next chunk; ApproximateNumberOfMessagesMoved
    // (those stay moved). ResourceNotFound for a task that ended.
    void cancelMessageMoveTask(std::string taskHandle, QObject *context, Reply<std::int64_t> reply);
    // --- The window's message actions (broker_service_message_admin.cpp). ---
    // Removes these messages of the queue whatever their state (deleteMessagesById);
    // answers how many. Reports CountsChanged (queue) when one went.
    void deleteMessagesById(std::string queueName, std::vector<std::string> messageIds, QObject *context,
                            Reply<std::int64_t> reply);
    // Moves these dead letters back to their source queues
    // (moveDeadLettersBackById). Reports CountsChanged for the dead-letter
    // queue and every queue that gained one, and wakes their waiting receives.
    void redriveDeadLetters(std::string deadLetterQueue, std::vector<std::string> messageIds, QObject *context,
                            Reply<DeadLetterRedrive> reply);

    // --- Topics and subscriptions (broker_service_topics.cpp); TopicCatalog,
    // SubscriptionCatalog and TopicPublisher rules. ---
    // Topic ARN. Reports Created (topic) only when the topic is new.
    void createTopic(std::string name, AttributeMap attributes, TopicTags tags, QObject *context,
                     Reply<std::string> reply);
    // Reports Created (subscription, by ARN) when the topic gained one.
    void subscribe(std::string topicName, std::string protocol, std::string endpoint, AttributeMap attributes,
                   bool autoConfirm, QObject *context, Reply<SubscribeReceipt> reply);
    // Reports CountsChanged for every queue an sqs subscription of the topic
    // names, and wakes their waiting receives.
    void publish(std::string topicName, PublishRequest request, QObject *context, Reply<PublishReceipt> reply);
    // The same as publish, when an entry was published.
    void publishBatch(std::string topicName, std::vector<BatchEntry<PublishRequest>> entries, QObject *context,
                      BatchReply<PublishReceipt> reply);
    // Reports Deleted (topic) when it existed (its subscriptions go with it).
    void deleteTopic(std::string name, QObject *context, Reply<void> reply);
    void listTopics(std::string nextToken, QObject *context, Reply<TopicPage> reply);
    void getTopicAttributes(std::string name, QObject *context, Reply<AttributeMap> reply);
    // These three report Changed (topic).
    void setTopicAttribute(std::string name, std::string attribute, std::string value, QObject *context,
                           Reply<void> reply);
    void tagTopic(std::string name, TopicTags tags, QObject *context, Reply<void> reply);
    void untagTopic(std::string name, std::vector<std::string> keys, QObject *context, Reply<void> reply);
    void listTopicTags(std::string name, QObject *context, Reply<TopicTags> reply);
    // The subscription ARN. Reports Changed (subscription).
    void confirmSubscription(std::string topicName, std::string token, QObject *context, Reply<std::string> reply);
    // Reports Deleted (subscription, by the ARN given).
    void unsubscribe(std::string subscriptionArn, QObject *context, Reply<void> reply);
    // All subscriptions (topicName empty) or those of one topic.
    void listSubscriptions(std::string topicName, std::string nextToken, QObject *context,
                           Reply<SubscriptionPage> reply);
    void getSubscriptionAttributes(std::string subscriptionArn, QObject *context, Reply<AttributeMap> reply);
    // Reports Changed (subscription).
    void setSubscriptionAttribute(std::string subscriptionArn, std::string attribute, std::string value,
                                  QObject *context, Reply<void> reply);

    // --- The attempt log (broker_service_attempts.cpp; docs/behaviour.md §4.4;
    // Deliveries page). Reads report nothing; a file database is read on a
    // pool thread through a read-only connection of its own (as browseQueue),
    // so a 100 000-row log never holds up the broker thread; an in-memory one
    // is read as a unit. Live: the delivery worker reports
    // EntityChange{AttemptsLogged, Subscription, ARN} in the unit that logs
    // attempts, so a view asks for the rows after its newest id then.
    //
    // One page of `query` (AttemptQuery: filters, afterId/beforeId, order,
    // limit 1–10 000 else InvalidParameterValue); `more` when further rows
    // match. An ARN no subscription or log row has gives an empty page.
    void queryAttempts(AttemptQuery query, QObject *context, Reply<AttemptPage> reply);
    // How many rows match the query's filters and id bounds (limit, order ignored).
    void countAttempts(AttemptQuery query, QObject *context, Reply<std::int64_t> reply);
    // Every row matching `query`'s filters and id bounds (not only one page:
    // limit is ignored; the log's retention bounds it), in its order, as one
    // document of `format` (attempt_export).
    void exportAttempts(AttemptQuery query, AttemptExportFormat format, QObject *context,
                        Reply<std::string> reply);
    // The same, written to the file `path` (replaced) on the pool thread; the
    // reply is the number of rows written. InternalError names a file that
    // cannot be written.
    void exportAttemptsToFile(AttemptQuery query, AttemptExportFormat format, std::string path, QObject *context,
                              Reply<std::int64_t> reply);
    // A message's deliveries to one subscription against the planned
    // schedule (message_timeline::read; SnsNotFound when nothing is logged).
    void messageTimeline(std::string subscriptionArn, std::string messageId, QObject *context,
                         Reply<MessageTimeline> reply);
    // Sends a finished message to the subscription again as a new delivery
    // (redelivery::start for the rules and errors). Reports
    // Changed (subscription) and wakes the delivery worker after the commit.
    void redeliver(std::string subscriptionArn, std::string messageId, QObject *context, Reply<Redelivery> reply);

    // --- A unit of a protocol with rules of its own (broker_service_units.cpp;
    // the Zaqar API). `body` runs as the service's operations do: in a unit,
    // with the service's identity and ids; after the commit the waiting
    // receives of the queues it puts in `wake` retry, the lifetime timer
    // follows, and the delivery worker wakes when `wakesDeliveries`. The
    // value is the body's, replied as the others are.
    using UnitBody = std::function<Result<std::any>(UnitContext &, const BrokerIdentity &, IdSource &,
                                                    std::vector<std::string> &wake)>;
    void runUnit(UnitBody body, bool wakesDeliveries, QObject *context, Reply<std::any> reply);

    // Removes the messages of the queues `queues(db)` names (read again for
    // each chunk) in chunks of broker/queues/bulk_removal.h, each a unit of
    // its own with other units running between them, reporting their counts;
    // then calls `then` on the broker thread (with a failed chunk's error).
    // The deletion of an entity with many messages runs it first, so that its
    // own unit is small (docs/reliability.md "Bulk removals"). Any thread.
    using QueueLister = std::function<Result<std::vector<std::string>>(Database &)>;
    void emptyQueuesInChunks(QueueLister queues, std::function<void(Status)> then);

    // --- Service Bus (broker_service_servicebus.cpp; docs/behaviour.md §8.6). Its
    // queues are broker queues (servicebus_queue.h): receives, waits and
    // browsing use the queue operations above with the entity's queue name.
    // True when created; reports Created for the queue and its dead-letter
    // sub-queue then.
    void createServiceBusQueue(ServiceBusQueueProperties properties, QObject *context, Reply<bool> reply);
    void listServiceBusQueues(QObject *context, Reply<std::vector<ServiceBusQueueProperties>> reply);
    // The entity an AMQP address names; QueueDoesNotExist when none.
    void findServiceBusEntity(std::string address, QObject *context, Reply<ServiceBusEntity> reply);
    // Every message in one unit (a Service Bus batch is all or nothing);
    // reports CountsChanged and wakes the queue's waiting receives.
    void sendServiceBusMessages(std::string queueName, std::vector<SendRequest> messages, QObject *context,
                                Reply<void> reply);
    // settleServiceBusMessage's rules; reports CountsChanged (the queue, and
    // its dead-letter sub-queue when a message moved there) and wakes the
    // receives of both. The reply is the end of the lock.
    void settleServiceBusMessage(std::string queueName, std::string receiptHandle, ServiceBusSettlement settlement,
                                 QObject *context, Reply<ClockTime> reply);

    // --- Service Bus topics (broker_service_servicebus_topics.cpp;
    // servicebus_topic.h). A subscription is a Service Bus queue: receives
    // and settlements use the queue operations above with its queue name.
    // True when anything was created; reports Created for each new queue.
    void createServiceBusTopic(ServiceBusTopic topic, QObject *context, Reply<bool> reply);
    void createServiceBusSubscription(std::string topic, ServiceBusSubscription subscription, QObject *context,
                                      Reply<bool> reply);
    void listServiceBusRules(std::string topic, std::string subscription, QObject *context,
                             Reply<std::vector<ServiceBusRule>> reply);
    void addServiceBusRule(std::string topic, std::string subscription, ServiceBusRule rule, QObject *context,
                           Reply<void> reply);
    void removeServiceBusRule(std::string topic, std::string subscription, std::string rule, QObject *context,
                              Reply<void> reply);
    void findServiceBusTopic(std::string name, QObject *context, Reply<ServiceBusTopic> reply);
    void listServiceBusTopics(QObject *context, Reply<std::vector<ServiceBusTopic>> reply);
    // A send to a topic, every message in one unit: each subscription whose
    // rules match takes a copy (facts[i] describes messages[i]; `rewrite`
    // makes the copies of rules with actions: servicebus_topics::publish);
    // reports CountsChanged and wakes the receives of the queues that took them.
    void publishServiceBusMessages(std::string topic, std::vector<SendRequest> messages,
                                   std::vector<ServiceBusMessageFacts> facts, ServiceBusMessageRewriter rewrite,
                                   QObject *context, Reply<void> reply);

    // Locks the deferred messages of these sequence numbers
    // (MessageReceiver::receiveDeferred), all or none; with `andDelete` they
    // are deleted in the same unit instead (receive-and-delete). Reports
    // CountsChanged.
    void receiveDeferredServiceBusMessages(std::string queueName, std::vector<std::int64_t> sequenceNumbers,
                                           int lockSeconds, bool andDelete, QObject *context,
                                           Reply<std::vector<ReceivedMessage>> reply);

    struct State; // shared with callbacks on the broker thread

private:
    std::shared_ptr<State> m_state;
};

} // namespace relaydesk
