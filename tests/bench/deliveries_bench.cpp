// SPDX-License-Identifier: MIT
// deliveries_bench (a benchmark, not a test): the window-under-deliveries figures of docs/figures.md.
//
//   deliveries_bench lateness SECONDS     UI event-loop lateness (10 ms timer probe) while 1 000
//                                         deliveries/s flow (real clock, an endpoint on its own
//                                         thread), the subscription's Deliveries tab (table + live
//                                         chart) open in the window
//   deliveries_bench memory SECONDS RATE  window resident size before and after SECONDS of virtual
//                                         clock at RATE deliveries/s, the Deliveries tab open
//   deliveries_bench open COUNT           a log of COUNT attempts; time from creating the
//                                         Deliveries page to its first page of rows painted
//                                         (no filter, then filtered by outcome)
//
// Runs the real window (offscreen unless a display is given) with its own
// broker on a database in a temporary folder. Prints one line per figure.
#include "support/call_and_wait.h"
#include "broker/deliveries/attempt_log.h"
#include "charts/attempt_chart.h"
#include "delivery_bench_endpoint.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/attempt_log_model.h"
#include "models/entity_tree_model.h"
#include "host/broker_host.h"
#include "views/deliveries_page.h"
#include "views/entity_page.h"
#include "views/entity_actions.h"
#include "views/main_window.h"
#include "window_bench_support.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

using bench::residentKilobytes;

ServeOptions optionsFor(const QString &path, ClockMode mode)
{
    ServeOptions options;
    options.databasePath = path;
    options.port = 0;
    options.portGiven = true;
    options.amqpPort = 0;
    options.amqpsPort.reset();
    options.managementPort = 0;
    options.clockMode = mode;
    return options;
}

// Topic "events" with one http subscription to `endpoint` (confirmed), the
// window showing its Deliveries tab. The subscription's ARN.
std::string openDeliveries(MainWindow &window, const bench::FastEndpoint &endpoint)
{
    BrokerService &service = window.broker()->service();
    if (!callAndWait<std::string>([&](auto r) { service.createTopic("events", {}, {}, nullptr, r); }))
        return {};
    const std::string url = "http://127.0.0.1:" + std::to_string(endpoint.port()) + "/hook";
    auto receipt = callAndWait<SubscribeReceipt>([&](auto r) {
        service.subscribe("events", "http", url, {{"DeliveryPolicy", R"({"healthyRetryPolicy": {"numRetries": 3}})"}},
                          true, nullptr, r);
    });
    if (!receipt)
        return {};
    window.openEntity({EntityChange::Entity::Subscription, QString::fromStdString(receipt->subscriptionArn)},
                      QStringLiteral("deliveriesPage"));
    if (!QTest::qWaitFor([&] { return window.currentPage() != nullptr; }, 60000))
        return {};
    return receipt->subscriptionArn;
}

bool publishBatch(BrokerService &service, int count, int serial)
{
    std::vector<BatchEntry<PublishRequest>> entries;
    for (int i = 0; i < count; ++i) {
        PublishRequest request;
        request.message = "{\"order\": " + std::to_string(serial + i) + "}";
        entries.push_back({"e" + std::to_string(i), std::move(request)});
    }
    return callAndWait<std::vector<BatchEntryResult<PublishReceipt>>>(
               [&](auto r) { service.publishBatch("events", std::move(entries), nullptr, r); })
        .ok();
}

int lateness(int seconds)
{
    const QTemporaryDir dir;
    bench::FastEndpoint endpoint;
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!window.startBroker(optionsFor(dir.filePath(QStringLiteral("bench.db")), ClockMode::Real)))
        return 1;
    if (openDeliveries(window, endpoint).empty())
        return 1;
    BrokerService &service = window.broker()->service();
    std::atomic<bool> stop{false};
    std::atomic<long> published{0};
    // 1 000 messages/s: a batch of 10 every 10 ms, paced by the steady clock.
    std::thread load([&] {
        const auto start = std::chrono::steady_clock::now();
        for (long tick = 0; !stop; ++tick) {
            std::this_thread::sleep_until(start + std::chrono::milliseconds(10 * tick));
            if (publishBatch(service, 10, int(tick * 10)))
                published += 10;
        }
    });
    bench::LatenessProbe probe;
    probe.start();
    QTimer::singleShot(seconds * 1000, [&] { QCoreApplication::quit(); });
    QCoreApplication::exec();
    probe.stop();
    stop = true;
    load.join();
    auto *page = window.currentPage()->findChild<DeliveriesPage *>();
    std::printf("UI lateness with the Deliveries tab open while %.0f deliveries/s flow: p50 %.1f ms, p99 %.1f ms, "
                "max %.1f ms (%zu probes); %ld published, %llu delivered, %d rows in the table; resident %ld MB\n",
                double(endpoint.requests()) / seconds, probe.quantile(0.5), probe.quantile(0.99), probe.max(),
                probe.probes(), published.load(), static_cast<unsigned long long>(endpoint.requests()),
                page ? page->model()->rowCount() : -1, residentKilobytes() / 1024);
    return 0;
}

int memory(int seconds, int rate)
{
    const QTemporaryDir dir;
    bench::FastEndpoint endpoint;
    MainWindow window;
    window.resize(1600, 1000);
    window.show();
    if (!window.startBroker(optionsFor(dir.filePath(QStringLiteral("bench.db")), ClockMode::Virtual)))
        return 1;
    if (openDeliveries(window, endpoint).empty())
        return 1;
    QTest::qWait(200); // the page's first reads
    const long before = residentKilobytes();
    BrokerService &service = window.broker()->service();
    QElapsedTimer wall;
    wall.start();
    for (int second = 0; second < seconds; ++second) {
        for (int sent = 0; sent < rate; sent += 10)
            if (!publishBatch(service, std::min(10, rate - sent), second * rate + sent))
                return 1;
        bool done = false;
        window.broker()->engine().advanceClock(std::chrono::seconds(1), &window, [&](Result<ClockTime>) { done = true; });
        if (!QTest::qWaitFor([&] { return done; }, 60000))
            return 1;
    }
    QTest::qWait(500); // the last live reads and a repaint
    const long after = residentKilobytes();
    auto *page = window.currentPage()->findChild<DeliveriesPage *>();
    std::printf("window memory over %d s of virtual clock at %d deliveries/s (%llu delivered, %.0f s wall): "
                "resident %ld MB before, %ld MB after (+%ld MB); %d rows held by the table, chart %s\n",
                seconds, rate, static_cast<unsigned long long>(endpoint.requests()), wall.elapsed() / 1000.0,
                before / 1024, after / 1024, (after - before) / 1024, page ? page->model()->rowCount() : -1,
                page && page->chart()->isAggregated() ? "aggregated" : "per message");
    return 0;
}

int open(long count)
{
    const QTemporaryDir dir;
    auto started = BrokerHost::start(optionsFor(dir.filePath(QStringLiteral("bench.db")), ClockMode::Virtual));
    if (!std::holds_alternative<std::unique_ptr<BrokerHost>>(started))
        return 1;
    BrokerHost &host = *std::get<std::unique_ptr<BrokerHost>>(started);
    const std::string arn = host.identity().subscriptionArn("events", "bench");
    QElapsedTimer timer;
    timer.start();
    // The rows a long run would log: 10 attempts per message, the last one delivered.
    for (long first = 0; first < count; first += 5000) {
        auto stored = host.engine().executeAndWait([&](Database &db, ClockTime now) -> Result<long> {
            for (long i = first; i < std::min(count, first + 5000); ++i) {
                AttemptRecord record;
                record.messageId = "message-" + std::to_string(i / 10);
                record.subscriptionArn = arn;
                record.attempt = i % 10;
                record.phase = i % 10 == 0 ? "initial" : "backoff";
                record.plannedAt = now + std::chrono::seconds(i);
                record.startedAt = record.plannedAt;
                record.durationMs = 2;
                record.httpStatus = i % 10 == 9 ? 200 : 503;
                record.outcome = i % 10 == 9 ? "delivered" : "retryable";
                if (i % 10 == 9)
                    record.final = "delivered";
                if (auto appended = attempt_log::append(db, record); !appended)
                    return appended.error();
            }
            return count;
        });
        if (!stored) {
            std::fprintf(stderr, "deliveries_bench: %s\n", stored.error().message.c_str());
            return 1;
        }
    }
    std::printf("prepared %ld attempts in %.1f s\n", count, timer.elapsed() / 1000.0);
    EntityActions actions(nullptr);
    for (const char *outcome : {"", "delivered"}) {
        timer.restart();
        DeliveriesPage page(host, actions, {EntityChange::Entity::Subscription, QString::fromStdString(arn)});
        if (*outcome) {
            AttemptFilter filter;
            filter.outcome = QLatin1String(outcome);
            page.model()->setFilter(filter);
        }
        page.resize(1600, 900);
        page.show();
        if (!QTest::qWaitFor([&] { return page.model()->rowCount() > 0 && !page.model()->isLoading(); }, 60000))
            return 1;
        page.tableView()->viewport()->repaint();
        const qint64 shown = timer.elapsed();
        (void)QTest::qWaitFor([&] { return page.model()->total() >= 0; }, 60000);
        std::printf("Deliveries page over %ld attempts%s: first page painted %lld ms after the page was made, "
                    "count (%s) %lld ms\n",
                    count, *outcome ? " filtered by outcome=delivered" : "", static_cast<long long>(shown),
                    qPrintable(QString::number(page.model()->total())), static_cast<long long>(timer.elapsed()));
    }
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QApplication::setApplicationName(QStringLiteral("RelaydeskBench")); // never the user's settings
    const QStringList arguments = app.arguments();
    const QString command = arguments.value(1);
    if (command == QLatin1String("lateness") && arguments.size() == 3)
        return lateness(arguments[2].toInt());
    if (command == QLatin1String("memory") && arguments.size() == 4)
        return memory(arguments[2].toInt(), arguments[3].toInt());
    if (command == QLatin1String("open") && arguments.size() == 3)
        return open(arguments[2].toLong());
    std::fprintf(stderr, "usage: deliveries_bench lateness SECONDS | memory SECONDS RATE | open COUNT\n");
    return 2;
}
