// SPDX-License-Identifier: MIT
// broker_bench: the cost curves — whether a send or a receive+delete costs
// more as the database grows. The same BrokerService sends (32 producers)
// and receive+deletes (32 consumers) into a queue that already stores 0,
// 100 000 or 1 000 000 messages, and into one queue of a broker that holds
// 1, 1 000 or 10 000 queues; each rate is printed with its ratio to the
// first row of its curve (target: within 20 %, i.e. 0.80 or more).
#include "broker_bench.h"

#include <unistd.h>

#include <atomic>
#include <cstdio>

namespace relaydesk::bench {

namespace {

struct CurvePoint {
    double warmUp = 0;
    double send = 0;
    double receive = 0;
};

// One point: sends of 32 x `perProducer` to warm up (right after a preload
// of a million messages the disk is still busy with it: these run at about
// half the steady rate, see docs/figures.md "Cost curves"), then the
// measured sends of as many, then receive+delete of as many.
CurvePoint measure(BrokerBench &broker, int perProducer)
{
    CurvePoint point;
    point.warmUp = serviceSendRate(broker, "bench", 32, perProducer);
    point.send = serviceSendRate(broker, "bench", 32, perProducer);
    const ReceiveRun run = receiveAndDelete(broker, "bench", 32, 32L * perProducer, 1);
    point.receive = run.failures > 0 ? 0.0 : double(run.deleted) / run.seconds;
    return point;
}

void print(const char *curve, const std::string &point, const CurvePoint &at, const CurvePoint &first)
{
    const double sendRatio = at.send / first.send;
    const double receiveRatio = at.receive / first.receive;
    std::printf("curve %-8s %-18s send %7.0f msg/s (%.2f) | receive+delete %7.0f msg/s (%.2f) | %s | warm-up sends %7.0f "
                "msg/s | rss %ld MB | %s\n",
                curve, point.c_str(), at.send, sendRatio, at.receive, receiveRatio,
                sendRatio >= 0.8 && receiveRatio >= 0.8 ? "within 20 %" : "MORE THAN 20 % SLOWER", at.warmUp,
                residentKilobytes() / 1024, loadNow().c_str());
    std::fflush(stdout);
}

} // namespace

void benchCurves(const std::filesystem::path &directory, double scale)
{
    const int perProducer = std::max(1, int(500 * scale));
    CurvePoint first;
    for (const long stored : {0L, 100000L, 1000000L}) {
        BrokerBench broker(directory, "curve-stored");
        broker.createQueue("bench");
        broker.preload("bench", stored);
        // The preload leaves up to 500 MB of dirty pages that the kernel
        // writes back in the background, in the way of every fsync that
        // follows: flush them first, so the point measures the broker, not
        // the preload's writeback.
        ::sync();
        const CurvePoint at = measure(broker, perProducer);
        if (stored == 0)
            first = at;
        print("stored", std::to_string(stored) + " messages", at, first);
    }
    for (const long queues : {1L, 1000L, 10000L}) {
        BrokerBench broker(directory, "curve-queues");
        broker.createQueue("bench");
        std::atomic<long> next{1};
        runThreads(16, [&](int) {
            for (long i = next++; i < queues; i = next++)
                broker.createQueue("queue-" + std::to_string(i));
        });
        ::sync();
        const CurvePoint at = measure(broker, perProducer);
        if (queues == 1)
            first = at;
        print("queues", std::to_string(queues) + " queues", at, first);
    }
}

} // namespace relaydesk::bench
