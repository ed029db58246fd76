// SPDX-License-Identifier: MIT
// Benchmark (not a test): the window's Messages page on a big queue. Stores
// MESSAGES (default 1 000 000) messages of 256 B in one queue of a real
// database file, then measures through MessageBrowseModel — the page's model,
// which browses on a read-only connection of its own — the time from
// fetchMore() to the first page's rows in the model (cold: the first time;
// warm: the median of 20), the next page, the first page newest first (the
// Sent column sorted descending: the index read backwards), and one step of a
// search that matches nothing (it examines MessageBrowseModel::kSearchScanRows
// messages, then waits for "Search further").
//   message_browse_bench [MESSAGES] [DIRECTORY=/tmp]
#include "models/message_browse_model.h"

#include "broker_bench.h"

#include "broker/id_source.h"
#include "broker/queues/message_sender.h"

#include <QApplication>
#include <QElapsedTimer>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace relaydesk;
using namespace relaydesk::bench;

namespace {

double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

// Milliseconds from `start()` until the model has stopped loading.
template <class Start>
double timeUntilLoaded(MessageBrowseModel &model, Start start)
{
    QElapsedTimer timer;
    timer.start();
    start();
    while (model.isLoading())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    return double(timer.nsecsElapsed()) / 1e6;
}

} // namespace

int main(int argc, char **argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const long messages = argc > 1 ? std::atol(argv[1]) : 1000000;
    const std::filesystem::path directory = argc > 2 ? argv[2] : "/tmp";

    BrokerBench broker(directory, "message_browse_bench");
    broker.createQueue("big");
    QElapsedTimer fill;
    fill.start();
    // Units of 10 000 sends (MessageSender, as a send does): the fill is not the figure.
    RandomIdSource ids(7);   // used inside the units only, on the broker thread
    long stored = 0;
    for (long first = 0; first < messages; first += 10000) {
        const long count = std::min(10000L, messages - first);
        auto done = broker.engine().executeAndWait([&ids, first, count](Database &db, ClockTime now) -> Result<long> {
            MessageSender sender(db, ids);
            for (long i = 0; i < count; ++i) {
                SendRequest request;
                request.body = bodyOf(static_cast<std::uint64_t>(first + i));
                if (auto sent = sender.send("big", request, now); !sent)
                    return sent.error();
            }
            return count;
        });
        if (!done) {
            std::fprintf(stderr, "fill: %s\n", done.error().message.c_str());
            return 1;
        }
        stored += *done;
    }
    std::printf("stored %ld messages of %zu B in %.1f s\n", stored, kBodySize, double(fill.elapsed()) / 1000.0);
    std::fflush(stdout);

    std::vector<double> firstPages;
    double cold = 0;
    double nextPage = 0;
    for (int round = 0; round < 21; ++round) {
        MessageBrowseModel model(broker.service(), broker.engine(), QStringLiteral("big"));
        const double ms = timeUntilLoaded(model, [&] { model.fetchMore({}); });
        if (model.rowCount() != MessageBrowseModel::kPageSize) {
            std::fprintf(stderr, "first page has %d rows: %s\n", model.rowCount(), qPrintable(model.lastError()));
            return 1;
        }
        if (round == 0) {
            cold = ms;
            nextPage = timeUntilLoaded(model, [&] { model.fetchMore({}); });
        } else {
            firstPages.push_back(ms);
        }
    }
    MessageBrowseModel newest(broker.service(), broker.engine(), QStringLiteral("big"));
    const double newestFirst = timeUntilLoaded(newest, [&] { newest.sort(MessageBrowseModel::SentColumn, Qt::DescendingOrder); });
    MessageBrowseModel searched(broker.service(), broker.engine(), QStringLiteral("big"));
    const double scan = timeUntilLoaded(searched, [&] { searched.setSearch(QStringLiteral("no body has this")); });

    std::printf("first page (%d rows) of a %ld-message queue through MessageBrowseModel: cold %.1f ms, "
                "median of 20 %.1f ms (target < 100 ms, %s) | next page %.1f ms | newest first %.1f ms | a search "
                "matching nothing, one step (%lld of %lld examined) %.0f ms | %s\n",
                MessageBrowseModel::kPageSize, stored, cold, median(firstPages),
                std::max(cold, median(firstPages)) < 100 ? "met" : "MISSED", nextPage, newestFirst,
                static_cast<long long>(searched.searchedCount()), static_cast<long long>(searched.queueTotal()), scan,
                loadNow().c_str());
    return 0;
}
