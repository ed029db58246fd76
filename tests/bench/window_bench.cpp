// SPDX-License-Identifier: MIT
// window_bench (a benchmark, not a test): the window figures of docs/figures.md.
//
//   window_bench prepare DB COUNT          a database with COUNT stored messages in queue "big"
//   window_bench start DB                  start to first paint, to a populated tree, resident size
//   window_bench lateness DB SECONDS LOAD  UI event-loop lateness (10 ms timer probe) while
//                                          LOAD (http_load_client) sends 5 000 messages/s
//                                          through the window's port
//
// Runs the real MainWindow with its broker (offscreen unless a display is
// given). Prints one line per figure. The database is the caller's; prepare
// refuses an existing file.
#include "support/call_and_wait.h"
#include "broker/id_source.h"
#include "broker/queues/message_sender.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "models/entity_tree_model.h"
#include "host/broker_host.h"
#include "views/main_window.h"
#include "window_bench_support.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

using namespace relaydesk;

namespace {

QElapsedTimer g_sinceStart;

using bench::residentKilobytes;

ServeOptions optionsFor(const QString &path)
{
    ServeOptions options;
    options.databasePath = path;
    options.port = 0;
    options.portGiven = true;
    options.amqpPort = 0;
    options.amqpsPort.reset();
    options.managementPort = 0;
    return options;
}

int prepare(const QString &path, long count)
{
    if (QFile::exists(path)) {
        std::fprintf(stderr, "window_bench: %s exists; prepare makes a new database\n", qPrintable(path));
        return 1;
    }
    auto started = BrokerHost::start(optionsFor(path));
    if (!std::holds_alternative<std::unique_ptr<BrokerHost>>(started))
        return 1;
    auto &host = std::get<std::unique_ptr<BrokerHost>>(started);
    BrokerEngine &engine = host->engine();
    auto created = testing::callAndWait<std::string>(
        [&](auto reply) { host->service().createQueue("big", {}, {}, nullptr, reply); });
    if (!created)
        return 1;
    QElapsedTimer timer;
    timer.start();
    std::atomic<long> next{0};
    std::vector<std::thread> loaders;
    for (int t = 0; t < 4; ++t) {
        loaders.emplace_back([&] {
            RandomIdSource ids;
            for (;;) {
                const long first = next.fetch_add(100);
                if (first >= count)
                    return;
                const long last = std::min(count, first + 100);
                // 100 messages per unit (10 batches of 10): the fastest way in that keeps every rule.
                auto stored = engine.executeAndWait([&ids, first, last](Database &db, ClockTime now) -> Result<long> {
                    MessageSender sender(db, ids);
                    for (long batch = first; batch < last; batch += 10) {
                        std::vector<BatchEntry<SendRequest>> entries;
                        for (long i = batch; i < std::min(last, batch + 10); ++i) {
                            SendRequest request;
                            request.body = "{\"order\": " + std::to_string(i) + ", \"padding\": \"" +
                                           std::string(200, 'x') + "\"}";
                            entries.push_back({"e" + std::to_string(i - batch), std::move(request)});
                        }
                        auto sent = sender.sendBatch("big", entries, now);
                        if (!sent)
                            return sent.error();
                    }
                    return last - first;
                });
                if (!stored) {
                    std::fprintf(stderr, "window_bench: %s\n", stored.error().message.c_str());
                    std::exit(1);
                }
            }
        });
    }
    for (auto &loader : loaders)
        loader.join();
    std::printf("prepare: %ld messages in %.1f s\n", count, timer.elapsed() / 1000.0);
    return 0;
}

// Waits for the window's tree to show the database's entities (the first overview read).
bool waitForTree(MainWindow &window)
{
    QSignalSpy refreshed(window.entityModel(), &EntityTreeModel::refreshed);
    return refreshed.wait(60000);
}

class FirstPaint final : public QObject {
public:
    qint64 at = -1;
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::Paint && at < 0)
            at = g_sinceStart.elapsed();
        return false;
    }
};

int start(const QString &path)
{
    MainWindow window;
    FirstPaint paint;
    window.installEventFilter(&paint);
    window.show();
    QCoreApplication::processEvents(); // as app/main.cpp: paint, then open the database
    QCoreApplication::processEvents();
    if (!window.startBroker(optionsFor(path)))
        return 1;
    while (paint.at < 0)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);
    const qint64 firstPaint = paint.at;
    const qint64 brokerReady = g_sinceStart.elapsed();
    if (!waitForTree(window))
        return 1;
    const qint64 tree = g_sinceStart.elapsed();
    std::printf("window start: first paint %lld ms, broker ready %lld ms, tree with counts %lld ms, resident %ld MB "
                "(%zu queues)\n",
                static_cast<long long>(firstPaint), static_cast<long long>(brokerReady), static_cast<long long>(tree),
                residentKilobytes() / 1024,
                window.entityModel()->overview().queues.size());
    return 0;
}

int lateness(const QString &path, int seconds, const QString &loadClient)
{
    MainWindow window;
    window.show();
    if (!window.startBroker(optionsFor(path)) || !waitForTree(window))
        return 1;
    QProcess load;
    load.setProcessChannelMode(QProcess::ForwardedChannels);
    load.start(loadClient, {window.broker()->endpointUrl(), QStringLiteral("send"), QStringLiteral("--queue"),
                            QStringLiteral("load"), QStringLiteral("--connections"), QStringLiteral("32"),
                            QStringLiteral("--rate"), QStringLiteral("5000"), QStringLiteral("--duration"),
                            QString::number(seconds)});
    bench::LatenessProbe probe;
    probe.start();
    QObject::connect(&load, &QProcess::finished, &window, [&] { QCoreApplication::quit(); });
    QCoreApplication::exec();
    probe.stop();
    std::printf("UI lateness under 5000 sends/s through the API: p50 %.1f ms, p99 %.1f ms, max %.1f ms (%zu probes); "
                "resident %ld MB\n",
                probe.quantile(0.5), probe.quantile(0.99), probe.max(), probe.probes(), residentKilobytes() / 1024);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    g_sinceStart.start();
    if (qEnvironmentVariableIsEmpty("DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QApplication::setApplicationName(QStringLiteral("RelaydeskBench")); // never the user's settings
    const QStringList arguments = app.arguments();
    const QString command = arguments.value(1);
    if (command == QLatin1String("prepare") && arguments.size() == 4)
        return prepare(arguments[2], arguments[3].toLong());
    if (command == QLatin1String("start") && arguments.size() == 3)
        return start(arguments[2]);
    if (command == QLatin1String("lateness") && arguments.size() == 5)
        return lateness(arguments[2], arguments[3].toInt(), arguments[4]);
    std::fprintf(stderr, "usage: window_bench prepare DB COUNT | start DB | lateness DB SECONDS HTTP_LOAD_CLIENT\n");
    return 2;
}
