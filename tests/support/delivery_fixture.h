// SPDX-License-Identifier: MIT
#pragma once
// Fixture of the delivery worker tests: a BrokerEngine on a virtual clock
// over a real database file, a DeliveryWorker, and the catalog calls the
// tests need as units (topics, queues, subscriptions, publish, the attempt
// log, a queue's bodies).

#include "broker/deliveries/attempt_log.h"
#include "broker/id_source.h"
#include "broker/deliveries/pending_delivery_outcome.h"
#include "broker/queues/queue_catalog.h"
#include "broker/store_calls.h"
#include "broker/topics/subscription_catalog.h"
#include "broker/topics/topic_catalog.h"
#include "broker/deliveries/topic_publisher.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/delivery_worker.h"
#include "support/engine_test_support.h"

#include <QTemporaryDir>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace relaydesk::testing {

inline const ClockTime kDeliveryStart = kBenchStart;

inline ClockTime atSeconds(std::int64_t seconds)
{
    return kDeliveryStart + std::chrono::seconds(seconds);
}

class DeliveryBench final {
public:
    // The request timeout only ends a hang (wall time): an answer never has to beat it.
    DeliveryBench() { m_options.jitterFraction = 0; m_options.requestTimeout = std::chrono::seconds(60); }
    ~DeliveryBench() { close(); }

    DeliveryWorkerOptions &options() { return m_options; }
    BrokerEngine &engine() { return *m_engine; }
    DeliveryWorker &worker() { return *m_worker; }
    const BrokerIdentity &identity() const { return m_identity; }
    bool isOpen() const { return m_engine != nullptr; }

    // Opens (or reopens) the database file with the clock at `start`, calls
    // `beforeStart` with the new engine (e.g. to point an endpoint at its
    // clock before the first request can come), then starts the worker.
    bool open(ClockTime start = kDeliveryStart, const std::function<void(BrokerEngine &)> &beforeStart = nullptr)
    {
        if (!m_dir.isValid())
            return false;
        std::unique_ptr<Database> database = openDatabase(m_dir, "broker.db");
        if (!database)
            return false;
        m_engine = std::make_unique<BrokerEngine>(std::move(database), m_wall, virtualClockOptions(start));
        m_worker = std::make_unique<DeliveryWorker>(*m_engine, m_wall, m_identity, m_options);
        if (beforeStart)
            beforeStart(*m_engine);
        m_worker->start();
        return true;
    }

    void close()
    {
        if (m_worker)
            m_worker->stop();
        m_worker.reset();
        if (m_engine)
            m_engine->stop();
        m_engine.reset();
    }

    Result<std::string> createTopic(const std::string &name, const std::optional<std::string> &policy = std::nullopt)
    {
        AttributeMap attributes;
        if (policy)
            attributes["DeliveryPolicy"] = *policy;
        const BrokerIdentity identity = m_identity;
        return m_engine->executeAndWait([=](Database &db, ClockTime now) {
            return TopicCatalog(db, identity).createTopic(name, attributes, {}, now);
        });
    }

    Result<std::string> createQueue(const std::string &name)
    {
        const BrokerIdentity identity = m_identity;
        return m_engine->executeAndWait([=](Database &db, ClockTime now) {
            return QueueCatalog(db, identity).createQueue(name, {}, {}, now);
        });
    }

    Result<SubscribeReceipt> subscribe(const std::string &topic, const std::string &endpoint,
                                       const AttributeMap &attributes = {}, bool autoConfirm = true)
    {
        const BrokerIdentity identity = m_identity;
        auto ids = m_ids;
        return m_engine->executeAndWait([=](Database &db, ClockTime now) {
            return SubscriptionCatalog(db, identity, *ids).subscribe(topic, "http", endpoint, attributes, autoConfirm, now);
        });
    }

    // Publishes `count` messages and wakes the worker.
    Result<std::vector<std::string>> publish(const std::string &topic, const std::string &message, int count = 1,
                                             MessageAttributes attributes = {})
    {
        const BrokerIdentity identity = m_identity;
        auto ids = m_ids;
        Result<std::vector<std::string>> published =
            m_engine->executeAndWait([=](Database &db, ClockTime now) -> Result<std::vector<std::string>> {
                std::vector<std::string> messageIds;
                for (int i = 0; i < count; ++i) {
                    PublishRequest request;
                    request.message = count == 1 ? message : message + " " + std::to_string(i);
                    request.attributes = attributes;
                    Result<PublishReceipt> receipt = TopicPublisher(db, identity, *ids).publish(topic, request, now);
                    if (!receipt)
                        return receipt.error();
                    messageIds.push_back(receipt->messageId);
                }
                return messageIds;
            });
        m_worker->wake();
        return published;
    }

    Result<std::string> queueConfirmation(const std::string &subscriptionArn, const std::string &kind)
    {
        const BrokerIdentity identity = m_identity;
        auto ids = m_ids;
        Result<std::string> queued = m_engine->executeAndWait([=](Database &db, ClockTime now) -> Result<std::string> {
            Result<std::optional<std::int64_t>> id = selectOptionalInt64(
                db, "SELECT id FROM subscriptions WHERE ? LIKE '%' || uuid", subscriptionArn);
            if (!id)
                return id.error();
            if (!*id)
                return BrokerError(BrokerErrorCode::SnsNotFound, "no such subscription");
            return pending_delivery_outcome::queueConfirmation(db, identity, *ids, **id, kind, now);
        });
        m_worker->wake();
        return queued;
    }

    std::vector<AttemptRecord> attempts(const std::string &subscriptionArn)
    {
        Result<std::vector<AttemptRecord>> records = m_engine->executeAndWait([=](Database &db, ClockTime) {
            AttemptQuery query;
            query.subscriptionArn = subscriptionArn;
            query.limit = 100000;
            return attempt_log::query(db, query);
        });
        return records ? *records : std::vector<AttemptRecord>{};
    }

    std::vector<std::string> queueBodies(const std::string &queue)
    {
        Result<std::vector<std::string>> bodies = m_engine->executeAndWait([=](Database &db, ClockTime) {
            return selectColumn<std::string>(
                db, "SELECT m.body FROM messages m JOIN queues q ON q.id = m.queue_id WHERE q.name = ? ORDER BY m.id",
                queue);
        });
        return bodies ? *bodies : std::vector<std::string>{};
    }

    // The dead-letter reason of each message of `queue`, in storage order ("" for none).
    std::vector<std::string> deadLetterReasons(const std::string &queue)
    {
        Result<std::vector<std::string>> reasons = m_engine->executeAndWait([=](Database &db, ClockTime) {
            return selectColumn<std::string>(db,
                                             "SELECT coalesce(m.dead_letter_reason, '') FROM messages m "
                                             "JOIN queues q ON q.id = m.queue_id WHERE q.name = ? ORDER BY m.id",
                                             queue);
        });
        return reasons ? *reasons : std::vector<std::string>{};
    }

    std::int64_t pendingCount()
    {
        Result<std::optional<std::int64_t>> count = m_engine->executeAndWait(
            [](Database &db, ClockTime) { return selectOptionalInt64(db, "SELECT count(*) FROM pending_deliveries"); });
        return count && *count ? **count : -1;
    }

    Result<ClockTime> advance(ClockDuration by) { return m_engine->advanceClockAndWait(by); }
    Result<ClockTime> advanceTo(ClockTime to) { return m_engine->advanceClockAndWait(to - m_engine->clock().now()); }

private:
    QTemporaryDir m_dir;
    SystemWallTimeSource m_wall;
    BrokerIdentity m_identity;
    DeliveryWorkerOptions m_options;
    std::shared_ptr<SequentialIdSource> m_ids = std::make_shared<SequentialIdSource>();
    std::unique_ptr<BrokerEngine> m_engine;
    std::unique_ptr<DeliveryWorker> m_worker;
};

} // namespace relaydesk::testing
