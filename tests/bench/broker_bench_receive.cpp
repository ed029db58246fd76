// SPDX-License-Identifier: MIT
// broker_bench: the receive + delete cycle, the long-poll latency and the
// memory / file size figures.
#include "broker_bench.h"

#include <algorithm>
#include <atomic>
#include <cstdio>

namespace relaydesk::bench {

// `consumers` threads each: receive (no wait, up to maxPerReceive), then
// delete every message received, one DeleteMessage each, until all
// `messages` preloaded messages are deleted. FIFO: spread over 100 groups.
ReceiveRun receiveAndDelete(BrokerBench &broker, const std::string &queue, int consumers, long messages,
                             int maxPerReceive)
{
    std::atomic<long> deleted{0};
    std::atomic<long> failures{0};
    std::atomic<long> emptyReceives{0};
    ReceiveRun run;
    run.span.start(broker.engine());
    run.seconds = runThreads(consumers, [&](int) {
        while (deleted.load() < messages && failures.load() < 100) {
            ReceiveRequest request;
            request.maxNumberOfMessages = maxPerReceive;
            auto received = call<ReceiveResult>(
                [&](auto reply) { broker.service().receiveMessage(queue, request, nullptr, reply); });
            if (!received) {
                ++failures;
                continue;
            }
            if (received->messages.empty()) {
                ++emptyReceives; // the rest is in flight with other consumers (FIFO: their groups)
                std::this_thread::yield();
                continue;
            }
            for (const ReceivedMessage &message : received->messages) {
                Status done = call<void>([&](auto reply) {
                    broker.service().deleteMessage(queue, message.receiptHandle, nullptr, reply);
                });
                if (done)
                    ++deleted;
                else
                    ++failures;
            }
        }
    });
    run.span.end(broker.engine());
    run.deleted = deleted.load();
    run.failures = failures.load();
    run.emptyReceives = emptyReceives.load();
    return run;
}

void benchReceiveDelete(const std::filesystem::path &directory, bool fifo, int consumers, long messages,
                        int maxPerReceive)
{
    const std::string queue = fifo ? "bench.fifo" : "bench";
    BrokerBench broker(directory, fifo ? "receive-fifo" : "receive");
    broker.createQueue(queue);
    const long stored = broker.preload(queue, messages, fifo ? 100 : 0);
    const ReceiveRun run = receiveAndDelete(broker, queue, consumers, stored, maxPerReceive);
    const CommitSpan &span = run.span;
    const double seconds = run.seconds;
    const std::string parameters = std::to_string(consumers) + " consumers, " + std::to_string(stored)
        + " messages" + (fifo ? " in 100 groups" : "") + ", receive max " + std::to_string(maxPerReceive)
        + " + 1 delete each, " + std::to_string(run.emptyReceives) + " empty receives";
    const char *figure = fifo ? "receive+delete (FIFO)" : "receive+delete (standard)";
    printFigure(figure, parameters, double(run.deleted), seconds, 20000, span, run.failures);
    // A message's receive and delete are two units; the reference puts both
    // of each of its messages in one commit: the same operations per commit.
    const double perCommit = double(run.deleted) / double(std::max<std::uint64_t>(1, span.commits()));
    printReference(figure, double(run.deleted) / seconds,
                   referenceReceiveDeleteRate(broker.file(), run.deleted, perCommit), perCommit, 0.5);
}

// The same cycle as bare engine units (MessageReceiver::receive, then
// MessageReceiver::deleteMessage): what it costs without BrokerService's
// per-unit work (lifetime due-time queries).
void benchReceiveDeleteUnits(const std::filesystem::path &directory, bool fifo, int consumers, long messages)
{
    const std::string queue = fifo ? "bench.fifo" : "bench";
    BrokerBench broker(directory, fifo ? "receive-fifo-unit" : "receive-unit");
    broker.createQueue(queue);
    const long stored = broker.preload(queue, messages, fifo ? 100 : 0);
    auto ids = std::make_shared<RandomIdSource>(9); // used inside units only
    std::atomic<long> deleted{0};
    std::atomic<long> failures{0};
    CommitSpan span;
    span.start(broker.engine());
    const double seconds = runThreads(consumers, [&](int) {
        while (deleted.load() < stored && failures.load() < 100) {
            auto received = broker.engine().executeAndWait([ids, &queue](Database &db, ClockTime now) {
                return MessageReceiver(db, *ids).receive(queue, ReceiveRequest{}, now);
            });
            if (!received) {
                ++failures;
                continue;
            }
            if (received->messages.empty()) {
                std::this_thread::yield();
                continue;
            }
            for (const ReceivedMessage &message : received->messages) {
                const std::string handle = message.receiptHandle;
                Status done = broker.engine().executeAndWait([ids, &queue, handle](Database &db, ClockTime now) {
                    return MessageReceiver(db, *ids).deleteMessage(queue, handle, now);
                });
                if (done)
                    ++deleted;
                else
                    ++failures;
            }
        }
    });
    span.end(broker.engine());
    printFigure(fifo ? "receive+delete (FIFO, units)" : "receive+delete (standard, units)",
                std::to_string(consumers) + " consumers, " + std::to_string(stored) + " messages"
                    + (fifo ? " in 100 groups" : "") + ", receive max 1 + 1 delete each",
                double(deleted.load()), seconds, 20000, span, failures.load());
}

// A receive waits (WaitTimeSeconds 20) on an empty queue; another thread
// sends; the latency is from the send call to the receive's reply.
void benchLongPoll(const std::filesystem::path &directory, int samples)
{
    BrokerBench broker(directory, "long-poll");
    broker.createQueue("poll");
    std::vector<double> latencies;
    long failures = 0;
    for (int i = 0; i < samples; ++i) {
        auto replied = std::make_shared<std::promise<std::pair<Result<ReceiveResult>, std::chrono::steady_clock::time_point>>>();
        auto reply = replied->get_future();
        ReceiveRequest request;
        request.waitTimeSeconds = 20;
        broker.service().receiveMessage("poll", request, nullptr, [replied](Result<ReceiveResult> result) {
            replied->set_value({std::move(result), std::chrono::steady_clock::now()});
        });
        broker.engine().postAndWait([] {}); // the receive's first attempt has run: it is waiting now
        std::promise<void> sent;
        const auto start = std::chrono::steady_clock::now();
        SendRequest send;
        send.body = bodyOf(static_cast<std::uint64_t>(i));
        broker.service().sendMessage("poll", std::move(send), nullptr, [&sent](Result<SendReceipt>) { sent.set_value(); });
        auto [result, end] = reply.get();
        sent.get_future().wait();
        if (!result || result->messages.size() != 1) {
            ++failures;
            continue;
        }
        latencies.push_back(std::chrono::duration<double, std::milli>(end - start).count());
        Status done = call<void>([&](auto r) {
            broker.service().deleteMessage("poll", result->messages.front().receiptHandle, nullptr, r);
        });
        if (!done)
            ++failures;
    }
    std::sort(latencies.begin(), latencies.end());
    const auto at = [&](double q) {
        return latencies.empty() ? 0.0 : latencies[std::min(latencies.size() - 1, std::size_t(q * latencies.size()))];
    };
    std::printf("%-34s %d samples (WaitTimeSeconds 20, 1 waiter, send from another thread): median %.2f ms, p99 %.2f "
                "ms, max %.2f ms | %ld failed | %s\n",
                "long-poll wake latency", samples, at(0.5), at(0.99), latencies.empty() ? 0.0 : latencies.back(),
                failures, loadNow().c_str());
    std::fflush(stdout);
}

// Stores `messages` with send-batch units, reports VmRSS, then closes the
// database (checkpoint; the WAL goes away) and reports the file size.
void benchMemory(const std::filesystem::path &directory, long messages)
{
    const long rssBefore = residentKilobytes();
    BrokerBench broker(directory, "memory");
    broker.createQueue("bench");
    CommitSpan span;
    span.start(broker.engine());
    const auto start = std::chrono::steady_clock::now();
    const long stored = broker.preload("bench", messages);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    span.end(broker.engine());
    const long rss = residentKilobytes();
    const auto sizeOf = [](const std::filesystem::path &path) {
        std::error_code error;
        const auto size = std::filesystem::file_size(path, error);
        return error ? 0.0 : double(size);
    };
    const double openBytes = sizeOf(broker.file()) + sizeOf(broker.file().string() + "-wal");
    broker.stop();
    const double closedBytes = sizeOf(broker.file()) + sizeOf(broker.file().string() + "-wal");
    std::printf("%-34s %ld messages of 256 B stored (send-batch units of 10, 4 threads, %.0f msg/s, %.1f msg/commit): "
                "VmRSS %.1f MB (%.1f MB before; target < 200 MB, %s) | db+wal %.1f MB while open, %.1f MB after close "
                "(checkpointed) = %.0f bytes/message | %s\n",
                "memory and file size", stored, double(stored) / seconds,
                span.commits() ? double(stored) / double(span.commits()) : 0.0, rss / 1024.0, rssBefore / 1024.0,
                rss < 200 * 1024 ? "met" : "MISSED", openBytes / 1048576.0, closedBytes / 1048576.0,
                stored ? closedBytes / double(stored) : 0.0, loadNow().c_str());
    std::fflush(stdout);
}

} // namespace relaydesk::bench
