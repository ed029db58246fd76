// SPDX-License-Identifier: MIT
// Benchmark (not a test): the broker figures, in-process through
// BrokerService / BrokerEngine on a real database file (WAL,
// synchronous=FULL), 256-byte bodies, producers and consumers on real
// threads outside the broker thread (as the HTTP layer). One line per
// figure: rate, target, messages and units per commit, machine load.
//   broker_bench [scale=1] [memory-messages=1000000] [directory=/tmp] [figure=all] [metrics=on|off]
// figure: all | memory | send | send-backlog | send-unit | send-batch | receive | receive-fifo |
//         receive-unit | receive-fifo-unit | long-poll | depths | curves (only when named: 1.1 million messages)
//         | bulk (only when named: expiry, purge, deletion and auto-delete of a million messages each)
//         | purge (only when named: bulk's purge alone, of a million messages)
//         | scale (only when named: one queue to 10 million messages, then their expiry and purge; ~6 GB of disk)
// (the *-unit figures run MessageSender/MessageReceiver as bare engine units,
// without BrokerService's per-unit lifetime queries, for comparison)
// scale multiplies the message counts (0.1 for a quick run). Run the memory
// figure first or alone: VmRSS is of the whole process.
#include "broker_bench.h"

#include <QCoreApplication>

#include <cstdio>
#include <cstdlib>
#include <string>

using namespace relaydesk;
using namespace relaydesk::bench;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const double scale = argc > 1 ? std::atof(argv[1]) : 1.0;
    const long memoryMessages = argc > 2 ? std::atol(argv[2]) : 1000000;
    const std::filesystem::path directory = argc > 3 ? argv[3] : "/tmp";
    const std::string only = argc > 4 ? argv[4] : "all";
    countMetrics = !(argc > 5 && std::string(argv[5]) == "metrics=off");
    const auto wanted = [&](const char *figure) { return only == "all" || only == figure; };
    const auto scaled = [scale](double count) { return std::max(1L, static_cast<long>(count * scale)); };

    std::printf("broker_bench: scale %.2f, directory %s, WAL, synchronous=FULL, %u hardware threads, metrics %s\n",
                scale, directory.c_str(), std::thread::hardware_concurrency(), countMetrics ? "on" : "off");
    if (wanted("memory") && memoryMessages > 0)
        benchMemory(directory, memoryMessages);
    if (wanted("send"))
        benchSend(directory, 32, static_cast<int>(scaled(1000)));
    if (wanted("send-backlog"))
        benchSendWithBacklog(directory, 32, 10, scaled(100000));
    if (wanted("send-unit"))
        benchSendUnit(directory, 32, static_cast<int>(scaled(1000)));
    if (wanted("send-batch"))
        benchSendBatch(directory, 32, static_cast<int>(scaled(500)));
    if (wanted("receive"))
        benchReceiveDelete(directory, false, 32, scaled(32000), 1);
    if (wanted("receive-fifo"))
        benchReceiveDelete(directory, true, 32, scaled(32000), 1);
    if (wanted("receive-unit"))
        benchReceiveDeleteUnits(directory, false, 32, scaled(32000));
    if (wanted("receive-fifo-unit"))
        benchReceiveDeleteUnits(directory, true, 32, scaled(32000));
    if (wanted("long-poll"))
        benchLongPoll(directory, static_cast<int>(scaled(500)));
    if (only == "curves")   // not in "all": it stores over a million messages
        benchCurves(directory, scale);
    if (wanted("depths"))
        benchDepths(directory, scaled(240000), 21);
    if (only == "bulk")   // not in "all": it stores a million messages four times
        benchBulkRemoval(directory, scaled(1000000));
    if (only == "purge")   // not in "all": the purge of bulk alone
        benchBulkPurge(directory, scaled(1000000));
    if (only == "scale")   // not in "all": it stores ten million messages, twice
        benchScale(directory, scale);
    return 0;
}
