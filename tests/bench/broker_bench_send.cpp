// SPDX-License-Identifier: MIT
// broker_bench: the send figures.
#include "broker_bench.h"

#include "store/database.h"

#include <atomic>
#include <cstdio>

namespace relaydesk::bench {

namespace {

std::string threadsTimes(int threads, const char *what, int each)
{
    return std::to_string(threads) + " " + what + " x " + std::to_string(each);
}

// What one run of producer threads measured.
struct ProducerRun {
    double seconds = 0;
    CommitSpan span;
    long failures = 0;
};

// `producers` threads, each sending `perProducer` 256-byte bodies one after
// the other through `sendOne(request)` (false when the send failed).
template <class SendOne>
ProducerRun runProducers(BrokerBench &broker, int producers, int perProducer, SendOne sendOne)
{
    std::atomic<long> failures{0};
    ProducerRun run;
    run.span.start(broker.engine());
    run.seconds = runThreads(producers, [&](int t) {
        for (int i = 0; i < perProducer; ++i) {
            SendRequest request;
            request.body = bodyOf(static_cast<std::uint64_t>(t) * 1000000u + i);
            if (!sendOne(std::move(request)))
                ++failures;
        }
    });
    run.span.end(broker.engine());
    run.failures = failures.load();
    return run;
}

// SendMessage as the HTTP layer calls it, waiting for the reply.
bool sendThroughService(BrokerBench &broker, SendRequest request, const std::string &queue = "bench")
{
    return call<SendReceipt>([&](auto reply) {
               broker.service().sendMessage(queue, std::move(request), nullptr, reply);
           })
        .ok();
}

} // namespace

double serviceSendRate(BrokerBench &broker, const std::string &queue, int producers, int perProducer)
{
    const ProducerRun run = runProducers(broker, producers, perProducer, [&](SendRequest request) {
        return sendThroughService(broker, std::move(request), queue);
    });
    return run.failures > 0 ? 0.0 : double(producers) * perProducer / run.seconds;
}

// SendMessage as the HTTP layer calls it: BrokerService::sendMessage from
// `producers` threads, each waiting for its reply before the next send.
void benchSend(const std::filesystem::path &directory, int producers, int perProducer)
{
    BrokerBench broker(directory, "send");
    broker.createQueue("bench");
    const ProducerRun run = runProducers(broker, producers, perProducer,
                                         [&](SendRequest request) { return sendThroughService(broker, std::move(request)); });
    const double messages = double(producers) * perProducer;
    printFigure("send (BrokerService)", threadsTimes(producers, "producers", perProducer) + ", 256 B", messages,
                run.seconds, 40000, run.span, run.failures);
    const double perCommit = messages / double(std::max<std::uint64_t>(1, run.span.commits()));
    printReference("send (BrokerService)", messages / run.seconds,
                   referenceInsertRate(broker.file(), long(messages), perCommit), perCommit, 0.75);
}

// BrokerService sends into a queue that already holds `backlog` messages:
// shows how the cost of a send grows with what the database stores.
void benchSendWithBacklog(const std::filesystem::path &directory, int producers, int perProducer, long backlog)
{
    BrokerBench broker(directory, "send-backlog");
    broker.createQueue("bench");
    broker.preload("bench", backlog);
    const ProducerRun run = runProducers(broker, producers, perProducer,
                                         [&](SendRequest request) { return sendThroughService(broker, std::move(request)); });
    printFigure("send (BrokerService, backlog)", threadsTimes(producers, "producers", perProducer) + ", 256 B, "
                    + std::to_string(backlog) + " messages stored before",
                double(producers) * perProducer, run.seconds, 40000, run.span, run.failures);
}

// The same sends as bare engine units (MessageSender::send): what a send
// costs without BrokerService's per-unit work (lifetime due-time queries).
void benchSendUnit(const std::filesystem::path &directory, int producers, int perProducer)
{
    BrokerBench broker(directory, "send-unit");
    broker.createQueue("bench");
    auto ids = std::make_shared<RandomIdSource>(7); // used inside units only
    const ProducerRun run = runProducers(broker, producers, perProducer, [&](SendRequest request) {
        return broker.engine()
            .executeAndWait([ids, &request](Database &db, ClockTime now) {
                return MessageSender(db, *ids).send("bench", request, now);
            })
            .ok();
    });
    printFigure("send (MessageSender unit)", threadsTimes(producers, "producers", perProducer) + ", 256 B",
                double(producers) * perProducer, run.seconds, 40000, run.span, run.failures);
}

// SendMessageBatch of 10: MessageSender::sendBatch as one engine unit.
void benchSendBatch(const std::filesystem::path &directory, int producers, int batchesPerProducer)
{
    BrokerBench broker(directory, "send-batch");
    broker.createQueue("bench");
    std::atomic<long> failures{0};
    CommitSpan span;
    span.start(broker.engine());
    const double seconds = runThreads(producers, [&](int t) {
        for (int b = 0; b < batchesPerProducer; ++b) {
            std::vector<BatchEntry<SendRequest>> entries;
            for (int e = 0; e < 10; ++e) {
                SendRequest request;
                request.body = bodyOf(static_cast<std::uint64_t>(t) * 10000000u + b * 10u + e);
                entries.push_back({"e" + std::to_string(e), std::move(request)});
            }
            auto sent = broker.sendBatchUnit("bench", std::move(entries));
            if (!sent) {
                failures += 10;
                continue;
            }
            for (const auto &entry : *sent)
                failures += entry.ok() ? 0 : 1;
        }
    });
    span.end(broker.engine());
    const double messages = double(producers) * batchesPerProducer * 10;
    printFigure("send-batch of 10 (sendBatch unit)", threadsTimes(producers, "producers", batchesPerProducer)
                    + " batches, 256 B",
                messages, seconds, 100000, span, failures.load());
    const double perCommit = messages / double(std::max<std::uint64_t>(1, span.commits()));
    printReference("send-batch of 10 (sendBatch unit)", messages / seconds,
                   referenceInsertRate(broker.file(), long(messages), perCommit), perCommit, 0.6);
}

} // namespace relaydesk::bench
