// SPDX-License-Identifier: MIT
// broker_bench scale (issue 38 §2): the cost curves to ten million messages
// in one queue. One broker on a virtual clock; its queue "bench" is filled
// to 0, 1, 3 and 10 million messages (scaled), each step by fillQueue (the
// product's MessageSender, 5 000 to a unit) and a `sync`, and at each point:
// sends and receive+deletes of 32 × 1 000 (× scale) messages (after as many
// unmeasured sends, as the curves), the time of one ApproximateNumberOfMessages
// read, the database's size on disk, the start-up time on the file and the
// resident size. Then, on the largest point, the bulk removals with their
// peak memory and the longest stall of a prober: expiry (retention lowered to
// 60 s and the clock moved past it), then the queue filled again and purged.
#include "broker_bench.h"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

namespace relaydesk::bench {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

struct ScalePoint {
    double send = 0;
    double receive = 0;
};

double depthReadMilliseconds(BrokerBench &broker)
{
    const auto start = Clock::now();
    auto attributes = call<AttributeMap>([&](auto reply) {
        broker.service().getQueueAttributes("bench", {"ApproximateNumberOfMessages"}, nullptr, reply);
    });
    const double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();
    if (!attributes) {
        std::fprintf(stderr, "scale: depth: %s\n", attributes.error().message.c_str());
        std::exit(1);
    }
    return ms;
}

double megabytesOnDisk(const std::filesystem::path &file)
{
    double bytes = 0;
    for (const char *suffix : {"", "-wal", "-shm"}) {
        std::error_code error;
        const auto size = std::filesystem::file_size(file.string() + suffix, error);
        bytes += error ? 0 : double(size);
    }
    return bytes / 1e6;
}

void setRetention(BrokerBench &broker, const std::string &seconds)
{
    const Status set = testing::callAndWaitStatus([&](auto reply) {
        broker.service().setQueueAttributes("bench", {{"MessageRetentionPeriod", seconds}}, nullptr, reply);
    });
    if (!set) {
        std::fprintf(stderr, "scale: retention: %s\n", set.error().message.c_str());
        std::exit(1);
    }
}

} // namespace

void benchScale(const std::filesystem::path &directory, double scale)
{
    BrokerEngineOptions options;
    options.clockMode = ClockMode::Virtual;
    options.clockStart = fromEpochMilliseconds(1'800'000'000'000);
    BrokerBench broker(directory, "scale", options);
    for (const char *queue : {"bench", "probe"}) {
        auto created = call<std::string>([&](auto reply) {
            broker.service().createQueue(queue, {{"MessageRetentionPeriod", "1209600"}}, {}, nullptr, reply);
        });
        if (!created) {
            std::fprintf(stderr, "scale: create %s: %s\n", queue, created.error().message.c_str());
            std::exit(1);
        }
    }
    const int perProducer = std::max(1, int(1000 * scale));
    long stored = 0;
    ScalePoint first;
    for (const long point : {0L, 1000000L, 3000000L, 10000000L}) {
        const long target = long(point * scale);
        const auto fillStart = Clock::now();
        const long filled = target - stored;
        fillQueue(broker, "bench", filled);
        const double fillSeconds = std::chrono::duration<double>(Clock::now() - fillStart).count();
        stored = target;
        ::sync();
        const double startup = broker.restart("bench");
        ScalePoint at;
        serviceSendRate(broker, "bench", 32, perProducer);   // warm-up, unmeasured (docs/figures.md "Cost curves")
        at.send = serviceSendRate(broker, "bench", 32, perProducer);
        const ReceiveRun run = receiveAndDelete(broker, "bench", 32, 32L * perProducer, 1);
        at.receive = run.failures > 0 ? 0.0 : double(run.deleted) / run.seconds;
        stored += 32L * perProducer;   // the warm-up's messages stay
        if (point == 0)
            first = at;
        std::printf("scale %9ld stored: send %7.0f msg/s (%.2f) | receive+delete %7.0f msg/s (%.2f) | depth read "
                    "%.2f ms | start-up %.2f s | on disk %.0f MB | rss %ld MB | filled at %.0f msg/s | %s\n",
                    target, at.send, at.send / first.send, at.receive, at.receive / first.receive,
                    depthReadMilliseconds(broker), startup, megabytesOnDisk(broker.file()),
                    residentKilobytes() / 1024, filled > 0 ? filled / fillSeconds : 0.0,
                    loadNow().c_str());
        std::fflush(stdout);
    }
    setRetention(broker, "60");
    measureBulk(broker, "expiry", stored, [&] {
        auto advanced = broker.engine().advanceClockAndWait(61s);
        return advanced ? Status() : Status(advanced.error());
    });
    setRetention(broker, "1209600");
    fillQueue(broker, "bench", stored);
    ::sync();
    measureBulk(broker, "purge", stored, [&] {
        return testing::callAndWaitStatus([&](auto reply) { broker.service().purgeQueue("bench", nullptr, reply); });
    });
}

} // namespace relaydesk::bench
