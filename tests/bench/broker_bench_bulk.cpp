// SPDX-License-Identifier: MIT
// broker_bench bulk: each bulk removal (docs/reliability.md "Bulk removals")
// of a large queue on a virtual clock — expiry, purge, queue deletion and
// auto-delete on idle — with what it costs the rest of the broker: its wall
// time, the peak resident memory above the filled broker's (sampled every
// 5 ms), and the longest wait of a SendMessage to another queue sent one
// after another meanwhile (the longest stall another request saw).
#include "broker_bench.h"

#include "engine/unit_context.h"

#include <algorithm>
#include <any>
#include <atomic>
#include <cstdio>
#include <thread>

namespace relaydesk::bench {

namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

BrokerEngineOptions virtualClock()
{
    BrokerEngineOptions options;
    options.clockMode = ClockMode::Virtual;
    options.clockStart = fromEpochMilliseconds(1'800'000'000'000);
    return options;
}

void createQueue(BrokerBench &broker, const std::string &name, AttributeMap attributes)
{
    auto created = call<std::string>(
        [&](auto reply) { broker.service().createQueue(name, attributes, {}, nullptr, reply); });
    if (!created) {
        std::fprintf(stderr, "bulk: create %s: %s\n", name.c_str(), created.error().message.c_str());
        std::exit(1);
    }
}

} // namespace

// `count` messages into `queue`, 5 000 to a unit.
void fillQueue(BrokerBench &broker, const std::string &queue, long count)
{
    for (long first = 0; first < count; first += 5000) {
        const long last = std::min(count, first + 5000);
        auto filled = call<std::any>([&](auto reply) {
            broker.service().runUnit(
                [&](UnitContext &unit, const BrokerIdentity &, IdSource &ids,
                    std::vector<std::string> &) -> Result<std::any> {
                    for (long i = first; i < last; ++i) {
                        SendRequest request;
                        request.body = bodyOf(static_cast<std::uint64_t>(i));
                        if (auto sent = MessageSender(unit.database(), ids).send(queue, request, unit.now()); !sent)
                            return sent.error();
                    }
                    return std::any{};
                },
                false, nullptr, reply);
        });
        if (!filled) {
            std::fprintf(stderr, "bulk: fill: %s\n", filled.error().message.c_str());
            std::exit(1);
        }
    }
}

// Runs `operation` (blocking) while a prober sends to "probe" and a sampler reads VmRSS.
void measureBulk(BrokerBench &broker, const char *path, long messages, const std::function<Status()> &operation)
{
    std::atomic<bool> done{false};
    std::atomic<long> peak{residentKilobytes()};
    const long before = peak.load();
    long probes = 0;
    long over100ms = 0;
    Clock::duration longest{};
    Clock::duration longestAt{};   // when the longest wait began, from the operation's start
    const auto start = Clock::now();
    std::thread sampler([&] {
        while (!done.load()) {
            peak = std::max(peak.load(), residentKilobytes());
            std::this_thread::sleep_for(5ms);
        }
    });
    std::thread prober([&] {
        while (!done.load()) {
            const auto sentAt = Clock::now();
            SendRequest request;
            request.body = "probe";
            auto sent = call<SendReceipt>(
                [&](auto reply) { broker.service().sendMessage("probe", request, nullptr, reply); });
            const Clock::duration waited = Clock::now() - sentAt;
            if (waited > longest) {
                longest = waited;
                longestAt = sentAt - start;
            }
            over100ms += waited > 100ms ? 1 : 0;
            ++probes;
            if (!sent)
                std::fprintf(stderr, "bulk: probe: %s\n", sent.error().message.c_str());
        }
    });
    const Status status = operation();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    done = true;
    sampler.join();
    prober.join();
    std::printf("bulk %-12s %ld messages: %s in %.2f s (%.0f messages/s) | peak RSS +%.1f MB (%.1f MB before) | "
                "longest SendMessage wait %.1f ms (at %.1f s) over %ld sends, %ld over 100 ms | %s\n",
                path, messages, status ? "done" : status.error().message.c_str(), seconds, messages / seconds,
                (peak.load() - before) / 1024.0, before / 1024.0,
                std::chrono::duration<double, std::milli>(longest).count(),
                std::chrono::duration<double>(longestAt).count(), probes, over100ms, loadNow().c_str());
    std::fflush(stdout);
}

void benchBulkPurge(const std::filesystem::path &directory, long messages)
{
    BrokerBench broker(directory, "bulk-purge", virtualClock());
    createQueue(broker, "probe", {});
    createQueue(broker, "bulk", {});
    fillQueue(broker, "bulk", messages);
    measureBulk(broker, "purge", messages, [&] {
        return testing::callAndWaitStatus([&](auto reply) { broker.service().purgeQueue("bulk", nullptr, reply); });
    });
}

void benchBulkRemoval(const std::filesystem::path &directory, long messages)
{
    {
        BrokerBench broker(directory, "bulk-expiry", virtualClock());
        createQueue(broker, "probe", {});
        createQueue(broker, "bulk", {{"MessageRetentionPeriod", "60"}});
        fillQueue(broker, "bulk", messages);
        measureBulk(broker, "expiry", messages, [&] {
            auto advanced = broker.engine().advanceClockAndWait(61s);
            return advanced ? Status() : Status(advanced.error());
        });
    }
    benchBulkPurge(directory, messages);
    {
        BrokerBench broker(directory, "bulk-delete", virtualClock());
        createQueue(broker, "probe", {});
        createQueue(broker, "bulk", {});
        fillQueue(broker, "bulk", messages);
        measureBulk(broker, "delete-queue", messages, [&] {
            return testing::callAndWaitStatus([&](auto reply) { broker.service().deleteQueue("bulk", nullptr, reply); });
        });
    }
    {
        BrokerBench broker(directory, "bulk-idle", virtualClock());
        createQueue(broker, "probe", {});
        createQueue(broker, "bulk", {{"AutoDeleteOnIdle", "300"}});
        fillQueue(broker, "bulk", messages);
        measureBulk(broker, "auto-delete", messages, [&] {
            auto advanced = broker.engine().advanceClockAndWait(301s);
            return advanced ? Status() : Status(advanced.error());
        });
    }
}

} // namespace relaydesk::bench
