// SPDX-License-Identifier: MIT
// Benchmark (not a test): the Deliveries page's reads on a big attempt log.
// Stores ATTEMPTS (default 100 000) log rows over 10 subscriptions of one
// topic in a real database file, then measures through BrokerService (read
// on a pool thread through a read-only connection, as the window calls it)
// the first page of 100 rows newest first — one subscription unfiltered, by
// outcome (a rare one), by status class (a rare one), by phase, by message,
// the whole topic — each cold and as the median of 20; the next page; the
// count of the subscription's rows; and an export of the whole log as CSV.
//   attempt_log_bench [ATTEMPTS] [DIRECTORY=/tmp]
#include "broker_bench.h"

#include "broker/deliveries/attempt_log.h"
#include "engine/broker_service.h"

#include <QCoreApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <future>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::bench;

namespace {

const std::string kTopic = "arn:aws:sns:us-east-1:000000000000:t";

std::string subscriptionOf(long i) { return kTopic + ":sub-" + std::to_string(i % 10); }

// Row i: messages of 5 attempts each; mostly 503 retries, every 5th attempt
// delivered, 1 in 503 a 404 (permanent), 1 in 101 a timeout.
AttemptRecord rowOf(long i, ClockTime start)
{
    static const char *phases[] = {"initial", "immediate", "preBackoff", "backoff", "postBackoff"};
    AttemptRecord record;
    record.messageId = "message-" + std::to_string(i / 5);
    record.subscriptionArn = subscriptionOf(i / 5);
    record.attempt = i % 5;
    record.phase = phases[i % 5];
    record.plannedAt = start + std::chrono::milliseconds(i * 100);
    record.startedAt = record.plannedAt;
    record.durationMs = 3;
    if (i % 503 == 7) {
        record.httpStatus = 404;
        record.outcome = "permanent";
    } else if (i % 101 == 3) {
        record.errorKind = "timeout";
        record.outcome = "timeout";
    } else if (i % 5 == 4) {
        record.httpStatus = 200;
        record.outcome = "delivered";
        record.final = "delivered";
    } else {
        record.httpStatus = 503;
        record.outcome = "retryable";
    }
    return record;
}

template <class T, class Call>
Result<T> wait(Call call)
{
    auto promise = std::make_shared<std::promise<Result<T>>>();
    auto future = promise->get_future();
    call([promise](Result<T> result) { promise->set_value(std::move(result)); });
    return future.get();
}

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

struct Timing {
    double cold = 0;
    double warm = 0;
    std::size_t rows = 0;
};

// Cold (first) and median-of-20 milliseconds of one page query.
Timing timePage(BrokerService &service, const AttemptQuery &query)
{
    Timing timing;
    std::vector<double> warm;
    for (int round = 0; round < 21; ++round) {
        QElapsedTimer timer;
        timer.start();
        Result<AttemptPage> page =
            wait<AttemptPage>([&](auto reply) { service.queryAttempts(query, nullptr, reply); });
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        if (!page) {
            std::fprintf(stderr, "query: %s\n", page.error().message.c_str());
            std::exit(1);
        }
        timing.rows = page->rows.size();
        if (round == 0)
            timing.cold = ms;
        else
            warm.push_back(ms);
    }
    timing.warm = median(warm);
    return timing;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const long attempts = argc > 1 ? std::atol(argv[1]) : 100000;
    const std::filesystem::path directory = argc > 2 ? argv[2] : "/tmp";

    BrokerBench broker(directory, "attempt_log_bench");
    QElapsedTimer fill;
    fill.start();
    const ClockTime start = broker.engine().clock().now();
    for (long first = 0; first < attempts; first += 10000) {
        const long count = std::min(10000L, attempts - first);
        auto done = broker.engine().executeAndWait([first, count, start](Database &db, ClockTime) -> Result<long> {
            for (long i = first; i < first + count; ++i) {
                if (auto appended = attempt_log::append(db, rowOf(i, start)); !appended)
                    return appended.error();
            }
            return count;
        });
        if (!done) {
            std::fprintf(stderr, "fill: %s\n", done.error().message.c_str());
            return 1;
        }
    }
    std::printf("stored %ld attempts in %.1f s\n", attempts, double(fill.elapsed()) / 1000.0);

    const auto query = [](auto set) {
        AttemptQuery q;
        q.subscriptionArn = subscriptionOf(3);
        q.order = AttemptOrder::NewestFirst;
        q.limit = 100;
        set(q);
        return q;
    };
    const std::pair<const char *, AttemptQuery> cases[] = {
        {"one subscription, no filter", query([](AttemptQuery &) {})},
        {"outcome=permanent (1 in 500)", query([](AttemptQuery &q) { q.outcome = "permanent"; })},
        {"statusClass=4xx (1 in 500)", query([](AttemptQuery &q) { q.statusClass = "4xx"; })},
        {"whole topic, statusClass=4xx", query([](AttemptQuery &q) {
             q.subscriptionArn.reset();
             q.topicArn = kTopic;
             q.statusClass = "4xx";
         })},
        {"statusClass=none (1 in 100)", query([](AttemptQuery &q) { q.statusClass = "none"; })},
        {"phase=backoff (1 in 5)", query([](AttemptQuery &q) { q.phase = "backoff"; })},
        {"messageId", query([](AttemptQuery &q) { q.messageId = "message-13"; })},
        {"whole topic, no filter", query([](AttemptQuery &q) {
             q.subscriptionArn.reset();
             q.topicArn = kTopic;
         })},
        {"whole topic, outcome=permanent", query([](AttemptQuery &q) {
             q.subscriptionArn.reset();
             q.topicArn = kTopic;
             q.outcome = "permanent";
         })},
    };
    double worst = 0;
    for (const auto &[name, q] : cases) {
        const Timing timing = timePage(broker.service(), q);
        worst = std::max({worst, timing.cold, timing.warm});
        std::printf("first page (%zu rows, newest first), %s: cold %.1f ms, median of 20 %.1f ms\n", timing.rows,
                    name, timing.cold, timing.warm);
    }
    AttemptQuery next = query([](AttemptQuery &q) { q.beforeId = 50000; });
    const Timing nextPage = timePage(broker.service(), next);
    std::printf("a page in the middle (beforeId 50000): median of 20 %.1f ms\n", nextPage.warm);

    QElapsedTimer timer;
    timer.start();
    const Result<std::int64_t> counted = wait<std::int64_t>(
        [&](auto reply) { broker.service().countAttempts(query([](AttemptQuery &) {}), nullptr, reply); });
    std::printf("count of one subscription's rows (%lld): %.1f ms\n", counted ? static_cast<long long>(*counted) : -1LL,
                double(timer.nsecsElapsed()) / 1e6);
    timer.restart();
    AttemptQuery everything;
    const Result<std::string> csv = wait<std::string>(
        [&](auto reply) { broker.service().exportAttempts(everything, AttemptExportFormat::Csv, nullptr, reply); });
    std::printf("export of all %ld attempts as CSV (%.1f MB): %.0f ms\n", attempts,
                csv ? double(csv->size()) / 1e6 : -1.0, double(timer.nsecsElapsed()) / 1e6);
    std::printf("worst first page %.1f ms (target: far under the page's 200 ms, %s) | %s\n", worst,
                worst < 50 ? "met" : "MISSED", loadNow().c_str());
    return 0;
}
