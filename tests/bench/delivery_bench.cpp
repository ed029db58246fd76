// SPDX-License-Identifier: MIT
// delivery_bench (a benchmark, not a test): the HTTP delivery figures (docs/figures.md) of the
// delivery worker, in process, on the REAL clock, over a real database file
// (WAL, synchronous=FULL), delivering to a fast loopback endpoint (epoll
// thread in this process, 200 at once, keep-alive).
//
//   delivery_bench throughput [SUBSCRIPTIONS=1] [MESSAGES=20000]
//       publishes MESSAGES to one topic with SUBSCRIPTIONS http subscriptions and
//       times the drain: deliveries/s between the first and the last answered POST.
//   delivery_bench throughput-signed [SUBSCRIPTIONS=1] [MESSAGES=20000]
//       the same with envelopes signed as `relaydesk serve` signs them.
//   delivery_bench precision [RETRIES=100000] [SPREAD_SECONDS=120]
//       stores RETRIES pending retries (attempt 1) due evenly over the next
//       SPREAD_SECONDS (+5 s), waits for them, then reads planned_ms/started_ms
//       of the attempt log: lateness median, p99, max.
//   delivery_bench memory [RETRIES=1000000]
//       stores RETRIES pending retries due in a day, starts the worker, prints
//       VmRSS of this process (engine + worker + SQLite cache) and the file size.
//
// Each line ends with the load average (other builds may share the machine).

#include "broker/id_source.h"
#include "broker/deliveries/notification_signer.h"
#include "broker/store_calls.h"
#include "broker/topics/subscription_catalog.h"
#include "broker/topics/topic_catalog.h"
#include "broker/deliveries/topic_publisher.h"
#include "broker/wall_time_source.h"
#include "delivery_bench_endpoint.h"
#include "engine/broker_engine.h"
#include "engine/delivery_worker.h"
#include "store/database.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

using namespace relaydesk;

namespace {

const std::string kTopic = "delivery-bench";

std::int64_t steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string loadNow()
{
    std::ifstream file("/proc/loadavg");
    std::string one, five, fifteen;
    file >> one >> five >> fifteen;
    return "load " + one + " " + five + " " + fifteen;
}

long residentKilobytes()
{
    std::ifstream file("/proc/self/status");
    for (std::string line; std::getline(file, line);)
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atol(line.c_str() + 6);
    return -1;
}

// Engine (real clock) + worker over a fresh database file in a temporary directory.
class DeliveryRig final {
public:
    // `sign`: envelopes are signed as `relaydesk serve` signs them (RSA 2048, cached signatures).
    explicit DeliveryRig(std::size_t retainedAttempts, bool sign = false)
    {
        auto database = Database::open(m_dir.filePath(QStringLiteral("broker.db")).toStdString());
        if (!database.ok()) {
            std::fprintf(stderr, "delivery_bench: %s\n", database.status().toString().c_str());
            std::exit(1);
        }
        BrokerEngineOptions options;
        options.clockMode = ClockMode::Real;
        m_engine = std::make_unique<BrokerEngine>(std::move(database).value(), m_wall, options);
        DeliveryWorkerOptions workerOptions;
        workerOptions.jitterFraction = 0;
        workerOptions.retainedAttempts = retainedAttempts;
        if (sign) {
            auto signer = m_engine->executeAndWait([](Database &db, ClockTime now) {
                return NotificationSigner::loadOrCreate(db, now);
            });
            mustSucceed(signer ? Status() : Status(signer.error()), "signing key");
            m_signer = std::shared_ptr<NotificationSigner>(std::move(signer).value());
            workerOptions.signEnvelope = [signer = m_signer](std::string envelope) {
                auto signedEnvelope = signer->signEnvelope(envelope);
                return signedEnvelope ? std::move(signedEnvelope).value() : envelope;
            };
        }
        m_worker = std::make_unique<DeliveryWorker>(*m_engine, m_wall, m_identity, workerOptions);
    }
    ~DeliveryRig()
    {
        m_worker->stop();
        m_worker.reset();
        m_engine->stop();
    }

    BrokerEngine &engine() { return *m_engine; }
    DeliveryWorker &worker() { return *m_worker; }
    std::filesystem::path file() const { return m_dir.filePath(QStringLiteral("broker.db")).toStdString(); }

    void mustSucceed(const Status &status, const char *what)
    {
        if (!status) {
            std::fprintf(stderr, "delivery_bench: %s: %s\n", what, status.error().message.c_str());
            std::exit(1);
        }
    }

    // The topic and `count` confirmed http subscriptions to `port` (paths /s0, /s1, …).
    void subscribe(int port, int count)
    {
        const BrokerIdentity identity = m_identity;
        auto ids = m_ids;
        mustSucceed(m_engine->executeAndWait([=](Database &db, ClockTime now) -> Status {
            Result<std::string> topic = TopicCatalog(db, identity).createTopic(kTopic, {}, {}, now);
            if (!topic)
                return topic.error();
            for (int i = 0; i < count; ++i) {
                const std::string endpoint = "http://127.0.0.1:" + std::to_string(port) + "/s" + std::to_string(i);
                Result<SubscribeReceipt> receipt =
                    SubscriptionCatalog(db, identity, *ids).subscribe(kTopic, "http", endpoint, {}, true, now);
                if (!receipt)
                    return receipt.error();
            }
            return Status{};
        }), "subscribe");
    }

    // `count` published messages (256-byte bodies), `chunk` per unit.
    void publish(int count, int chunk)
    {
        const BrokerIdentity identity = m_identity;
        auto ids = m_ids;
        for (int first = 0; first < count; first += chunk) {
            const int last = std::min(count, first + chunk);
            mustSucceed(m_engine->executeAndWait([=](Database &db, ClockTime now) -> Status {
                for (int i = first; i < last; ++i) {
                    PublishRequest request;
                    request.message = "m" + std::to_string(i) + "-";
                    request.message.resize(256, 'x');
                    Result<PublishReceipt> receipt = TopicPublisher(db, identity, *ids).publish(kTopic, request, now);
                    if (!receipt)
                        return receipt.error();
                }
                return Status{};
            }), "publish");
        }
    }

    // `count` stored retries (attempt 1) of distinct published messages to the
    // first subscription, due evenly from now+`startMs` over `spreadMs`.
    void storeRetries(std::int64_t count, std::int64_t startMs, std::int64_t spreadMs)
    {
        mustSucceed(m_engine->executeAndWait([=](Database &db, ClockTime now) -> Status {
            const std::int64_t nowMs = toEpochMilliseconds(now);
            Status inserted = executeStatement(
                db,
                "INSERT INTO published_messages (message_id, topic_name, body, published_ms) "
                "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?) "
                "SELECT printf('bench-%08d', i), ?, printf('%0256d', i), ? FROM n",
                count, kTopic, nowMs);
            if (!inserted)
                return inserted;
            return executeStatement(
                db,
                "INSERT INTO pending_deliveries (subscription_id, published_id, attempt, due_ms, first_attempt_ms) "
                "SELECT (SELECT min(id) FROM subscriptions), p.id, 1, "
                "? + (p.id - (SELECT min(id) FROM published_messages)) * ? / ?, ? FROM published_messages p",
                nowMs + startMs, spreadMs, count, nowMs - 1000);
        }), "store retries");
    }

    std::int64_t pendingCount()
    {
        Result<std::optional<std::int64_t>> count = m_engine->executeAndWait(
            [](Database &db, ClockTime) { return selectOptionalInt64(db, "SELECT count(*) FROM pending_deliveries"); });
        return count && *count ? **count : -1;
    }

    std::vector<std::int64_t> lateness()
    {
        Result<std::vector<std::int64_t>> values = m_engine->executeAndWait([](Database &db, ClockTime) {
            return selectColumn<std::int64_t>(db, "SELECT started_ms - planned_ms FROM delivery_attempts");
        });
        return values ? *values : std::vector<std::int64_t>{};
    }

private:
    QTemporaryDir m_dir;
    SystemWallTimeSource m_wall;
    BrokerIdentity m_identity;
    std::shared_ptr<SequentialIdSource> m_ids = std::make_shared<SequentialIdSource>();
    std::unique_ptr<BrokerEngine> m_engine;
    std::shared_ptr<NotificationSigner> m_signer;
    std::unique_ptr<DeliveryWorker> m_worker;
};

int throughput(int subscriptions, int messages, bool sign)
{
    bench::FastEndpoint endpoint;
    DeliveryRig rig(std::size_t(messages) * std::size_t(subscriptions) + 1, sign);
    rig.subscribe(endpoint.port(), subscriptions);
    rig.worker().start();
    rig.publish(messages, 1000);   // pending rows all stored before the clock starts
    const std::uint64_t expected = std::uint64_t(messages) * std::uint64_t(subscriptions);
    const std::int64_t begin = steadyNs();
    rig.worker().wake();
    while (endpoint.requests() < expected && steadyNs() - begin < 600'000'000'000)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    const double seconds = double(endpoint.lastNs() - endpoint.firstNs()) / 1e9;
    std::printf("delivery throughput%s: %d subscription(s), %d messages: %.0f deliveries/s (target 5000) "
                "(%llu POSTs in %.2f s, %lld still pending) | %s\n",
                sign ? " (signed)" : "", subscriptions, messages, double(endpoint.requests()) / seconds,
                static_cast<unsigned long long>(endpoint.requests()), seconds,
                static_cast<long long>(rig.pendingCount()), loadNow().c_str());
    return endpoint.requests() == expected ? 0 : 3;
}

int precision(std::int64_t retries, std::int64_t spreadSeconds)
{
    bench::FastEndpoint endpoint;
    DeliveryRig rig(std::size_t(retries) + 1);
    rig.subscribe(endpoint.port(), 1);
    rig.storeRetries(retries, 5000, spreadSeconds * 1000);
    rig.worker().start();
    const std::int64_t begin = steadyNs();
    const std::int64_t limitNs = (spreadSeconds + 120) * 1'000'000'000;
    while (endpoint.requests() < std::uint64_t(retries) && steadyNs() - begin < limitNs)
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    std::vector<std::int64_t> late = rig.lateness();
    std::sort(late.begin(), late.end());
    auto at = [&](double p) {
        return late.empty() ? -1 : late[std::min(late.size() - 1, std::size_t(p * double(late.size())))];
    };
    std::printf("delivery precision: %lld retries over %lld s: lateness median %lld ms, p99 %lld ms, max %lld ms, "
                "min %lld ms (target p99 < 50) (%zu attempts logged, %llu POSTs) | %s\n",
                static_cast<long long>(retries), static_cast<long long>(spreadSeconds), static_cast<long long>(at(0.5)),
                static_cast<long long>(at(0.99)), static_cast<long long>(at(1.0)), static_cast<long long>(at(0.0)),
                late.size(), static_cast<unsigned long long>(endpoint.requests()), loadNow().c_str());
    return late.size() == std::size_t(retries) ? 0 : 3;
}

int memory(std::int64_t retries)
{
    bench::FastEndpoint endpoint;
    DeliveryRig rig(100000);
    rig.subscribe(endpoint.port(), 1);
    const long before = residentKilobytes();
    rig.storeRetries(retries, 86'400'000, 3'600'000);
    rig.worker().start();
    rig.worker().wake();
    const std::int64_t pending = rig.pendingCount();   // after the worker's load (same broker thread, FIFO)
    std::this_thread::sleep_for(std::chrono::seconds(2));
    const long after = residentKilobytes();
    std::error_code error;
    const auto fileBytes = std::filesystem::file_size(rig.file(), error);
    std::printf("delivery memory: %lld pending retries stored: VmRSS %.1f MB (target < 250; %.1f MB before storing), "
                "file %.1f MB | %s\n",
                static_cast<long long>(pending), double(after) / 1024.0, double(before) / 1024.0,
                error ? -1.0 : double(fileBytes) / 1048576.0, loadNow().c_str());
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const std::string mode = argc > 1 ? argv[1] : "";
    auto number = [&](int index, long long fallback) { return argc > index ? std::atoll(argv[index]) : fallback; };
    if (mode == "throughput" || mode == "throughput-signed")
        return throughput(int(number(2, 1)), int(number(3, 20000)), mode == "throughput-signed");
    if (mode == "precision")
        return precision(number(2, 100000), number(3, 120));
    if (mode == "memory")
        return memory(number(2, 1000000));
    std::fprintf(stderr, "usage: delivery_bench throughput[-signed] [SUBSCRIPTIONS] [MESSAGES] | precision [RETRIES] "
                         "[SPREAD_SECONDS] | memory [RETRIES]\n");
    return 2;
}
