// SPDX-License-Identifier: MIT
#include "broker_bench.h"

#include "store/database.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include <sys/resource.h>
#include <unistd.h>

namespace relaydesk::bench {

bool countMetrics = true;

std::string bodyOf(std::uint64_t serial)
{
    std::string body = std::to_string(serial) + ":";
    body.resize(kBodySize, 'm');
    return body;
}

double runThreads(int threads, const std::function<void(int)> &perThread)
{
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::thread> running;
    running.reserve(static_cast<std::size_t>(threads));
    for (int t = 0; t < threads; ++t)
        running.emplace_back([&perThread, t] { perThread(t); });
    for (std::thread &thread : running)
        thread.join();
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string loadNow()
{
    std::ifstream in("/proc/loadavg");
    double one = 0, five = 0, fifteen = 0;
    in >> one >> five >> fifteen;
    char text[64];
    std::snprintf(text, sizeof text, "load %.2f %.2f %.2f", one, five, fifteen);
    return text;
}

long residentKilobytes()
{
    std::ifstream in("/proc/self/status");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("VmRSS:", 0) == 0)
            return std::atol(line.c_str() + 6);
    }
    return -1;
}

double brokerThreadCpuSeconds()
{
    const double tick = static_cast<double>(sysconf(_SC_CLK_TCK));
    std::error_code error;
    for (const auto &task : std::filesystem::directory_iterator("/proc/self/task", error)) {
        std::ifstream comm(task.path() / "comm");
        std::string name;
        std::getline(comm, name);
        if (name.rfind("relaydesk-brok", 0) != 0) // comm is cut to 15 characters
            continue;
        std::ifstream statFile(task.path() / "stat");
        std::string stat((std::istreambuf_iterator<char>(statFile)), std::istreambuf_iterator<char>());
        std::istringstream fields(stat.substr(stat.rfind(')') + 2));
        std::string field;
        double utime = 0, stime = 0;
        for (int i = 3; i <= 15 && fields >> field; ++i) { // fields 14 and 15: utime, stime
            if (i == 14)
                utime = std::atof(field.c_str());
            if (i == 15)
                stime = std::atof(field.c_str());
        }
        return (utime + stime) / tick;
    }
    return 0;
}

double processCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    const auto seconds = [](const timeval &t) { return double(t.tv_sec) + double(t.tv_usec) / 1e6; };
    return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

void CommitSpan::start(const BrokerEngine &engine)
{
    before = engine.commitStats();
    brokerCpu = brokerThreadCpuSeconds();
    processCpu = processCpuSeconds();
}

void CommitSpan::end(const BrokerEngine &engine)
{
    after = engine.commitStats();
    brokerCpu = brokerThreadCpuSeconds() - brokerCpu;
    processCpu = processCpuSeconds() - processCpu;
}

void printFigure(const std::string &figure, const std::string &parameters, double messages, double seconds,
                 double target, const CommitSpan &span, long failures)
{
    const double commits = static_cast<double>(span.commits());
    std::printf("%-34s %s: %8.0f msg/s (target %.0f, %s) | %.1f msg/commit, %.1f units/commit, %llu commits "
                "(largest %llu), per commit: units %.2f ms + COMMIT %.2f ms | CPU/msg: broker thread %.1f us, process "
                "%.1f us | %.0f msg in %.2f s, %ld failed "
                "| %s\n",
                figure.c_str(), parameters.c_str(), messages / seconds, target,
                messages / seconds >= target ? "met" : "MISSED", commits > 0 ? messages / commits : 0.0,
                commits > 0 ? double(span.units()) / commits : 0.0, static_cast<unsigned long long>(span.commits()),
                static_cast<unsigned long long>(span.after.largestBatch),
                commits > 0 ? double(span.after.unitMicroseconds - span.before.unitMicroseconds) / commits / 1000 : 0.0,
                commits > 0 ? double(span.after.commitMicroseconds - span.before.commitMicroseconds) / commits / 1000 : 0.0,
                span.brokerCpu * 1e6 / messages,
                span.processCpu * 1e6 / messages, messages, seconds, failures,
                loadNow().c_str());
    std::fflush(stdout);
}

BrokerBench::BrokerBench(const std::filesystem::path &directory, const std::string &name, BrokerEngineOptions options)
    : m_file(directory / ("relaydesk-broker-bench-" + name + ".db")), m_options(options)
{
    for (const char *suffix : {"", "-wal", "-shm", ".lock", ".clean"})
        std::filesystem::remove(m_file.string() + suffix);
    auto opened = Database::open(m_file.string());
    if (!opened.ok()) {
        std::fprintf(stderr, "%s\n", opened.status().toString().c_str());
        std::exit(1);
    }
    if (StoreStatus warmed = (*opened)->execute(kWarmWalSql); !warmed.ok()) {
        std::fprintf(stderr, "%s\n", warmed.toString().c_str());
        std::exit(1);
    }
    m_engine = std::make_unique<BrokerEngine>(std::move(opened).value(), m_wall, options);
    m_engine->setMetricsCountingForTesting(countMetrics);
    m_service = std::make_unique<BrokerService>(*m_engine);
}

BrokerBench::~BrokerBench()
{
    stop();
    for (const char *suffix : {"", "-wal", "-shm", ".lock", ".clean"})
        std::filesystem::remove(m_file.string() + suffix);
}

void BrokerBench::stop()
{
    m_service.reset();
    if (m_engine)
        m_engine->stop();
}

double BrokerBench::restart(const std::string &queue)
{
    stop();
    m_engine.reset();
    const auto start = std::chrono::steady_clock::now();
    auto opened = Database::open(m_file.string());
    if (!opened.ok()) {
        std::fprintf(stderr, "restart: %s\n", opened.status().toString().c_str());
        std::exit(1);
    }
    m_engine = std::make_unique<BrokerEngine>(std::move(opened).value(), m_wall, m_options);
    m_engine->setMetricsCountingForTesting(countMetrics);
    m_service = std::make_unique<BrokerService>(*m_engine);
    auto url = call<std::string>([&](auto reply) { m_service->getQueueUrl(queue, nullptr, reply); });
    if (!url) {
        std::fprintf(stderr, "restart: GetQueueUrl %s: %s\n", queue.c_str(), url.error().message.c_str());
        std::exit(1);
    }
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void BrokerBench::createQueue(const std::string &name)
{
    AttributeMap attributes;
    if (name.ends_with(".fifo"))
        attributes = {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}};
    auto url = call<std::string>([&](auto reply) { m_service->createQueue(name, attributes, {}, nullptr, reply); });
    if (!url) {
        std::fprintf(stderr, "createQueue %s: %s\n", name.c_str(), url.error().message.c_str());
        std::exit(1);
    }
}

Result<std::vector<BatchEntryResult<SendReceipt>>> BrokerBench::sendBatchUnit(const std::string &queue,
                                                                               std::vector<BatchEntry<SendRequest>> entries)
{
    RandomIdSource *ids = &m_unitIds;
    return m_engine->executeAndWait([ids, queue, entries = std::move(entries)](Database &db, ClockTime now) {
        return MessageSender(db, *ids).sendBatch(queue, entries, now);
    });
}

long BrokerBench::preload(const std::string &queue, long count, int groups)
{
    constexpr int kLoaders = 4;
    std::atomic<long> next{0};
    std::atomic<long> stored{0};
    runThreads(kLoaders, [&](int) {
        for (;;) {
            const long first = next.fetch_add(10);
            if (first >= count)
                return;
            std::vector<BatchEntry<SendRequest>> entries;
            for (long i = first; i < std::min(count, first + 10); ++i) {
                SendRequest request;
                request.body = bodyOf(static_cast<std::uint64_t>(i));
                if (groups > 0) {
                    request.groupId = "group-" + std::to_string(i % groups);
                    request.deduplicationId = "m" + std::to_string(i);
                }
                entries.push_back({"e" + std::to_string(i - first), std::move(request)});
            }
            auto sent = sendBatchUnit(queue, std::move(entries));
            if (!sent) {
                std::fprintf(stderr, "preload: %s\n", sent.error().message.c_str());
                std::exit(1);
            }
            for (const auto &entry : *sent)
                stored += entry.ok() ? 1 : 0;
        }
    });
    return stored.load();
}

} // namespace relaydesk::bench
