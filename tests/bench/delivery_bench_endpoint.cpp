// SPDX-License-Identifier: MIT
#include "delivery_bench_endpoint.h"

#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace relaydesk::bench {

namespace {

std::int64_t steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

// Removes every whole request at the front of `in`; returns how many.
int takeRequests(std::string &in)
{
    int count = 0;
    for (;;) {
        const auto headerEnd = in.find("\r\n\r\n");
        if (headerEnd == std::string::npos)
            return count;
        std::size_t length = 0;
        for (std::size_t line = in.find("\r\n") + 2; line < headerEnd;) {
            const std::size_t next = in.find("\r\n", line);
            if (next - line > 15 && ::strncasecmp(in.c_str() + line, "content-length:", 15) == 0)
                length = std::size_t(std::strtoull(in.c_str() + line + 15, nullptr, 10));
            line = next + 2;
        }
        if (in.size() < headerEnd + 4 + length)
            return count;
        in.erase(0, headerEnd + 4 + length);
        ++count;
    }
}

} // namespace

FastEndpoint::FastEndpoint()
{
    m_listener = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);
    const int one = 1;
    ::setsockopt(m_listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(m_listener, reinterpret_cast<sockaddr *>(&address), sizeof address);
    ::listen(m_listener, 256);
    socklen_t size = sizeof address;
    ::getsockname(m_listener, reinterpret_cast<sockaddr *>(&address), &size);
    m_port = ntohs(address.sin_port);
    [[maybe_unused]] const int piped = ::pipe(m_stopPipe);
    m_epoll = ::epoll_create1(0);
    epoll_event event = {};
    event.events = EPOLLIN;
    event.data.fd = m_listener;
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_listener, &event);
    event.data.fd = m_stopPipe[0];
    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, m_stopPipe[0], &event);
    m_thread = std::thread([this] { serve(); });
}

FastEndpoint::~FastEndpoint()
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(m_stopPipe[1], &byte, 1);
    m_thread.join();
    ::close(m_epoll);
    ::close(m_listener);
    ::close(m_stopPipe[0]);
    ::close(m_stopPipe[1]);
}

void FastEndpoint::serve()
{
    static constexpr char kReply[] = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 0\r\n\r\n";
    std::map<int, std::string> inputs;
    epoll_event events[64];
    for (;;) {
        const int ready = ::epoll_wait(m_epoll, events, 64, -1);
        for (int i = 0; i < ready; ++i) {
            const int fd = events[i].data.fd;
            if (fd == m_stopPipe[0]) {
                for (auto &input : inputs)
                    ::close(input.first);
                return;
            }
            if (fd == m_listener) {
                for (int client; (client = ::accept4(m_listener, nullptr, nullptr, SOCK_NONBLOCK)) >= 0;) {
                    const int one = 1;
                    ::setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    epoll_event event = {};
                    event.events = EPOLLIN;
                    event.data.fd = client;
                    ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, client, &event);
                    inputs[client];
                }
                continue;
            }
            std::string &in = inputs[fd];
            char buffer[65536];
            bool closed = false;
            for (;;) {
                const ssize_t n = ::recv(fd, buffer, sizeof buffer, 0);
                if (n > 0) {
                    in.append(buffer, std::size_t(n));
                    continue;
                }
                closed = n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR);
                if (n < 0 && errno == EINTR)
                    continue;
                break;
            }
            const int answered = takeRequests(in);
            if (answered > 0) {
                std::string out;
                for (int k = 0; k < answered; ++k)
                    out += kReply;
                [[maybe_unused]] const auto sent = ::send(fd, out.data(), out.size(), MSG_NOSIGNAL);
                const std::int64_t now = steadyNs();
                std::int64_t expected = 0;
                m_firstNs.compare_exchange_strong(expected, now);
                m_lastNs.store(now);
                m_requests.fetch_add(std::uint64_t(answered));
            }
            if (closed) {
                ::epoll_ctl(m_epoll, EPOLL_CTL_DEL, fd, nullptr);
                ::close(fd);
                inputs.erase(fd);
            }
        }
    }
}

} // namespace relaydesk::bench
