// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the engine tests: a real database file, a row insert and
// a count as units of work; a BrokerService bench on a virtual clock with the
// calls the service tests share (create, send, receive, long poll, subscribe).

#include "support/call_and_wait.h"

#include "broker/id_source.h"
#include "broker/result.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "engine/entity_change.h"
#include "engine/waiter_registry.h"
#include "store/database.h"

#include <QCoreApplication>
#include <QList>
#include <QSignalSpy>
#include <QString>
#include <QTemporaryDir>

#include <chrono>
#include <cstdint>
#include <future>
#include <memory>
#include <optional>
#include <string>

namespace relaydesk::testing {

// Where the engine tests' virtual clocks start, and the longest a test waits
// for something that must come (an upper bound, never a pass/fail timing).
inline const ClockTime kBenchStart = fromEpochMilliseconds(1'800'000'000'000);
constexpr int kWaitMs = 30000;

// A virtual clock at `start`; change events published at once.
inline BrokerEngineOptions virtualClockOptions(ClockTime start = kBenchStart)
{
    BrokerEngineOptions options;
    options.clockMode = ClockMode::Virtual;
    options.clockStart = start;
    options.changeInterval = std::chrono::milliseconds(0);
    return options;
}

// A SendMessage request with only a body.
inline SendRequest message(std::string body)
{
    SendRequest request;
    request.body = std::move(body);
    return request;
}

// A RedrivePolicy attribute value: dead-letter into `deadLetterQueue` after
// `maxReceiveCount` receives.
inline std::string redriveTo(const std::string &deadLetterQueue, int maxReceiveCount)
{
    return "{\"deadLetterTargetArn\":\"" + BrokerIdentity{}.queueArn(deadLetterQueue) + "\",\"maxReceiveCount\":\""
           + std::to_string(maxReceiveCount) + "\"}";
}

inline std::unique_ptr<Database> openDatabase(const QTemporaryDir &dir, const char *name, OpenMode mode = OpenMode::ReadWrite)
{
    DatabaseOptions options;
    options.mode = mode;
    auto opened = Database::open(dir.filePath(QString::fromUtf8(name)).toStdString(), options);
    if (!opened.ok()) {
        qWarning("%s", opened.status().toString().c_str());
        return nullptr;
    }
    return std::move(opened).value();
}

inline Result<std::int64_t> insertSetting(Database &db, const std::string &key)
{
    auto insert = db.prepareCached("INSERT INTO settings (key, value) VALUES (?, 'v')");
    if (!insert.ok())
        return BrokerError(BrokerErrorCode::InternalError, insert.status().toString());
    if (StoreStatus status = (*insert)->bind(1, key); !status.ok())
        return BrokerError(BrokerErrorCode::InternalError, status.toString());
    if (StoreStatus status = (*insert)->execute(); !status.ok())
        return BrokerError(BrokerErrorCode::InternalError, status.toString());
    return db.lastInsertRowId();
}

inline Result<std::int64_t> countSettings(Database &db, const std::string &pattern)
{
    auto query = db.prepare("SELECT count(*) FROM settings WHERE key LIKE ?");
    if (!query.ok() || !query->bind(1, pattern).ok() || !query->step().ok())
        return BrokerError(BrokerErrorCode::InternalError, "count failed");
    return query->columnInt64(0);
}

// Every row of the broker's tables as text, to show that a refused
// request changed nothing. Run inside a unit.
inline Result<std::string> storeSnapshot(Database &db)
{
    std::string text;
    for (const char *table : {"queues", "queue_tags", "messages", "fifo_dedup", "topics", "subscriptions",
                              "message_move_tasks", "settings"}) {
        auto query = db.prepare(std::string("SELECT * FROM ") + table + " ORDER BY 1");
        if (!query.ok())
            return BrokerError(BrokerErrorCode::InternalError, query.status().toString());
        text += std::string(table) + ":\n";
        for (;;) {
            auto step = query->step();
            if (!step.ok())
                return BrokerError(BrokerErrorCode::InternalError, step.status().toString());
            if (*step != Step::Row)
                break;
            for (int column = 0; column < query->columnCount(); ++column)
                text += (query->columnIsNull(column) ? std::string("NULL") : query->columnText(column)) + "|";
            text += "\n";
        }
    }
    return text;
}

// A BrokerService on a fresh database file and a virtual clock starting at
// `start`, with counting ids. Calls wait for their reply (null context).
class ServiceBench final {
public:
    ServiceBench(const QTemporaryDir &dir, const char *file, ClockTime start)
    {
        m_engine = std::make_unique<BrokerEngine>(openDatabase(dir, file), m_wall, virtualClockOptions(start));
        m_service = std::make_unique<BrokerService>(*m_engine, BrokerIdentity{}, std::make_unique<SequentialIdSource>());
    }
    ~ServiceBench()
    {
        m_service.reset();
        m_engine.reset();
    }

    BrokerEngine &engine() { return *m_engine; }
    BrokerService &service() { return *m_service; }
    const BrokerIdentity &identity() const { return m_identity; }

    // `start(reply)` calls the service with `reply`; waits for it.
    template <class T, class Start>
    Result<T> call(Start start)
    {
        return callAndWait<T>(std::move(start));
    }
    template <class Start>
    Status callStatus(Start start)
    {
        return callAndWaitStatus(std::move(start));
    }

    // The calls the service tests share; each waits for its reply.
    bool createQueue(const std::string &name, const AttributeMap &attributes = {})
    {
        return call<std::string>([&](auto reply) { m_service->createQueue(name, attributes, {}, nullptr, reply); }).ok();
    }
    bool createTopic(const std::string &name, const AttributeMap &attributes = {})
    {
        return call<std::string>([&](auto reply) { m_service->createTopic(name, attributes, {}, nullptr, reply); }).ok();
    }
    Result<SendReceipt> send(const std::string &queue, const SendRequest &request)
    {
        return call<SendReceipt>([&](auto reply) { m_service->sendMessage(queue, request, nullptr, reply); });
    }
    // Up to 10 messages, locked for the queue's visibility timeout unless `visibilityTimeout` is given.
    Result<ReceiveResult> receive(const std::string &queue, std::optional<int> visibilityTimeout = std::nullopt)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = 10;
        request.visibilityTimeout = visibilityTimeout;
        return call<ReceiveResult>([&](auto reply) { m_service->receiveMessage(queue, request, nullptr, reply); });
    }
    // A receive of up to `maxMessages` that waits up to `seconds`; returns at once, the future has its reply.
    std::future<Result<ReceiveResult>> startLongPoll(const std::string &queue, int seconds, int maxMessages = 1)
    {
        auto promise = std::make_shared<std::promise<Result<ReceiveResult>>>();
        auto future = promise->get_future();
        ReceiveRequest waiting;
        waiting.waitTimeSeconds = seconds;
        waiting.maxNumberOfMessages = maxMessages;
        m_service->receiveMessage(queue, waiting, nullptr,
                                  [promise](Result<ReceiveResult> result) { promise->set_value(std::move(result)); });
        return future;
    }
    Result<SubscribeReceipt> subscribe(const std::string &topic, const std::string &protocol,
                                       const std::string &endpoint, const AttributeMap &attributes = {})
    {
        return call<SubscribeReceipt>([&](auto reply) {
            m_service->subscribe(topic, protocol, endpoint, attributes, false, nullptr, reply);
        });
    }

    // Publishes the entity changes made so far (instead of at the end of the
    // change interval) and delivers them on this thread, the engine's: a
    // page opened after this never sees the creation of its own entity
    // arrive later and reload.
    void deliverChanges()
    {
        m_engine->flushChanges();            // queued on the broker thread ...
        m_engine->postAndWait([] {});        // ... and run, its emit queued here
        QCoreApplication::sendPostedEvents();
    }

    std::size_t waitingReceives()
    {
        std::size_t waiting = 0;
        m_engine->postAndWait([&] { waiting = m_engine->waiters().waitingCount(); });
        return waiting;
    }

    std::string snapshot()
    {
        auto text = m_engine->executeAndWait([](Database &db, ClockTime) { return storeSnapshot(db); });
        return text.ok() ? *text : "snapshot failed: " + text.error().message;
    }

    // Lets pending change events reach this thread.
    void settle()
    {
        for (int round = 0; round < 3; ++round) {
            m_engine->postAndWait([] {});
            QCoreApplication::processEvents();
        }
    }

private:
    ManualWallTimeSource m_wall;
    BrokerIdentity m_identity;
    std::unique_ptr<BrokerEngine> m_engine;
    std::unique_ptr<BrokerService> m_service;
};

// A test's ServiceBench: a new one for each test function (open() in init(),
// close() in cleanup()), each on a fresh file "<prefix>N.db" of one
// temporary folder.
class ServiceBenchSeries final {
public:
    explicit ServiceBenchSeries(std::string prefix) : m_prefix(std::move(prefix)) {}

    bool isValid() const { return m_dir.isValid(); }
    void open(ClockTime start = kBenchStart)
    {
        const std::string file = m_prefix + std::to_string(++m_files) + ".db";
        m_bench = std::make_unique<ServiceBench>(m_dir, file.c_str(), start);
    }
    void close() { m_bench.reset(); }
    // The same database file again: a broker that stopped and started, its clock at `start`.
    void reopen(ClockTime start = kBenchStart)
    {
        const std::string file = m_prefix + std::to_string(m_files) + ".db";
        m_bench.reset();
        m_bench = std::make_unique<ServiceBench>(m_dir, file.c_str(), start);
    }
    ServiceBench &bench() { return *m_bench; }

private:
    QTemporaryDir m_dir;
    std::string m_prefix;
    int m_files = 0;
    std::unique_ptr<ServiceBench> m_bench;
};

// Every change a spy on changesPublished has seen, in order.
inline QList<EntityChange> allChanges(const QSignalSpy &spy)
{
    QList<EntityChange> changes;
    for (const QList<QVariant> &emission : spy)
        changes += emission.at(0).value<QList<EntityChange>>();
    return changes;
}

inline EntityChange queueChange(EntityChange::Kind kind, const char *name)
{
    return {kind, EntityChange::Entity::Queue, QString::fromUtf8(name)};
}

} // namespace relaydesk::testing
