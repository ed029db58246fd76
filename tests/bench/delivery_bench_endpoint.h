// SPDX-License-Identifier: MIT
#pragma once
// The fast endpoint of delivery_bench (a benchmark, not a test): an HTTP/1.1
// keep-alive server on loopback on its own thread (raw sockets, epoll) that
// answers every POST with 200 and an empty body at once, and counts them.
//
// Ownership: owns its thread and sockets (stopped in the destructor).
// Thread: construct/destroy on one thread; requests() from any thread.

#include <atomic>
#include <cstdint>
#include <thread>

namespace relaydesk::bench {

class FastEndpoint final {
public:
    FastEndpoint();
    ~FastEndpoint();
    FastEndpoint(const FastEndpoint &) = delete;
    FastEndpoint &operator=(const FastEndpoint &) = delete;

    int port() const { return m_port; }
    std::uint64_t requests() const { return m_requests.load(); }
    // Steady-clock ns of the first and the latest answered request (0: none yet).
    std::int64_t firstNs() const { return m_firstNs.load(); }
    std::int64_t lastNs() const { return m_lastNs.load(); }

private:
    void serve();

    int m_listener = -1;
    int m_epoll = -1;
    int m_stopPipe[2] = {-1, -1};
    int m_port = 0;
    std::atomic<std::uint64_t> m_requests{0};
    std::atomic<std::int64_t> m_firstNs{0};
    std::atomic<std::int64_t> m_lastNs{0};
    std::thread m_thread;
};

} // namespace relaydesk::bench
