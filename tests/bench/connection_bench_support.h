// SPDX-License-Identifier: MIT
#pragma once

// What the remote connections' benchmarks share (connection_bench,
// remote_tree_bench): how long the calling thread's event loop was held, the
// event loop run until a call answers, calls made many at a time, a line of
// the figures.
#include "connections/broker_connection.h"
#include "support/server_process.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTimer>

#include <cstdio>
#include <functional>
#include <memory>
#include <optional>

namespace relaydesk::bench {

// The longest gap between two runs of a 5 ms timer on this thread.
class LoopWatch {
public:
    LoopWatch()
    {
        m_timer.setInterval(5);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            m_longest = std::max(m_longest, m_since.restart());
        });
    }
    void start() { m_longest = 0; m_since.start(); m_timer.start(); }
    qint64 stop() { m_timer.stop(); return std::max(m_longest, m_since.elapsed()); }

private:
    QTimer m_timer;
    QElapsedTimer m_since;
    qint64 m_longest = 0;
};

inline void runUntil(const std::function<bool()> &done)
{
    while (!done())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
}

template <class T>
ConnectionResult<T> await(const std::function<ConnectionCall *(BrokerConnection::Reply<T>)> &start)
{
    auto got = std::make_shared<std::optional<ConnectionResult<T>>>();
    start([got](ConnectionResult<T> result) { *got = std::move(result); });
    runUntil([&] { return got->has_value(); });
    return std::move(**got);
}

// Runs `count` calls, `inFlight` at a time; false on the first failure.
inline bool inParallel(int count, int inFlight, const std::function<void(int, std::function<void(bool)>)> &call)
{
    int next = 0, running = 0;
    bool ok = true;
    std::function<void()> fill = [&] {
        while (ok && running < inFlight && next < count) {
            ++running;
            call(next++, [&](bool fine) { --running; ok = ok && fine; fill(); });
        }
    };
    fill();
    runUntil([&] { return !ok || (running == 0 && next == count); });
    return ok;
}

inline void report(const char *what, qint64 ms, qint64 frozen, const QString &detail)
{
    std::printf("%-44s %8lld ms   loop gap max %4lld ms   %s\n", what, static_cast<long long>(ms),
                static_cast<long long>(frozen), qPrintable(detail));
    std::fflush(stdout);
}

// `relaydesk serve` (BINARY) in a process of its own, in memory, without the
// Service Bus ports; its URL, empty when it did not start.
inline QString startServe(test::ServerProcess &server, const QString &binary)
{
    return server.start(binary,
                        {"serve", "--port", "0", "--amqp-port", "off", "--amqps-port", "off", "--sb-management-port", "off",
                         "--db", ":memory:"},
                        QStringLiteral("relaydesk: listening on "));
}

} // namespace relaydesk::bench
