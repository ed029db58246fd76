// SPDX-License-Identifier: MIT
#pragma once
// What the window benchmarks (window_bench, deliveries_bench) share: the
// resident size, and the UI event-loop lateness probe (a 10 ms timer on the
// GUI thread and the delays it was fired with).

#include <QElapsedTimer>
#include <QTimer>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

namespace relaydesk::bench {

inline long residentKilobytes()
{
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line))
        if (line.rfind("VmRSS:", 0) == 0)
            return std::stol(line.substr(6));
    return -1;
}

// Started, it records how late each 10 ms tick came; quantile() after stop().
class LatenessProbe final {
public:
    LatenessProbe()
    {
        m_timer.setTimerType(Qt::PreciseTimer);
        m_timer.setInterval(10);
        QObject::connect(&m_timer, &QTimer::timeout, [this] {
            const qint64 now = m_clock.elapsed();
            m_late.push_back(static_cast<double>(std::max<qint64>(0, now - m_due)));
            m_due = now + 10;
        });
    }
    void start()
    {
        m_clock.start();
        m_due = 10;
        m_timer.start();
    }
    void stop()
    {
        m_timer.stop();
        std::sort(m_late.begin(), m_late.end());
    }
    double quantile(double q) const
    {
        return m_late.empty() ? 0.0 : m_late[static_cast<std::size_t>(q * double(m_late.size() - 1))];
    }
    double max() const { return m_late.empty() ? 0.0 : m_late.back(); }
    std::size_t probes() const { return m_late.size(); }

private:
    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_due = 10;
    std::vector<double> m_late;
};

} // namespace relaydesk::bench
