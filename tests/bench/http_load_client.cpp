// SPDX-License-Identifier: MIT
// http_load_client (a benchmark, not a test): the HTTP load generator. Keep-
// alive HTTP/1.1 connections to a running `relaydesk serve`, SQS JSON requests
// as botocore frames them, 256-byte bodies, one epoll thread.
//
//   http_load_client URL ACTION [--queue NAME] [--connections N]
//                    [--duration SECONDS | --count MESSAGES] [--rate REQUESTS_PER_S]
//                    [--protocol json|query]
//   --protocol query: the SQS query protocol (form bodies, XML answers), as
//           peers that speak only it (sqslite) need; send and health only.
//   --queue-url URL: sends to URL instead of the QueueUrl CreateQueue answered
//           (sqslite answers with its address but knows its queues by a
//           localhost URL).
//   ACTION: send (SendMessage) | batch (SendMessageBatch of 10) |
//           receive-delete (ReceiveMessage of up to 10, then one DeleteMessage each) |
//           health (GET /health: the server's trivial route, the reference of the others) |
//           zaqar-send (Zaqar v2: POST /v2/queues/NAME/messages of one message) |
//           zaqar-batch (the same with 10 messages)
//   --rate: open loop — requests planned at fixed times, latency measured from the
//           planned time (a request waits for a free connection; no coordinated omission).
//
// Prints one line: messages/s, requests/s, errors, latency p50/p99/max, load average.

#include "http_load_wire.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <string>
#include <sys/epoll.h>
#include <unordered_map>
#include <vector>

using namespace relaydesk::bench;

namespace {

struct Options {
    std::string url;
    std::string action;
    std::string queue = "http-bench";
    int connections = 64;
    double duration = 10;
    long count = 0;        // messages; 0: run for `duration`
    double rate = 0;       // requests/s; 0: closed loop
    bool query = false;    // --protocol query
    std::string queueUrl;  // --queue-url; empty: CreateQueue's answer
};

bool isZaqar(const Options &options) { return options.action == "zaqar-send" || options.action == "zaqar-batch"; }

// Zaqar's body of `count` messages from serial `first` on.
std::string zaqarMessages(std::uint64_t first, int count)
{
    nlohmann::json messages = nlohmann::json::array();
    for (int i = 0; i < count; ++i)
        messages.push_back({{"ttl", 3600}, {"body", loadBody(first + std::uint64_t(i))}});
    return nlohmann::json{{"messages", std::move(messages)}}.dump();
}

bool parseOptions(int argc, char **argv, Options &options)
{
    if (argc < 3)
        return false;
    options.url = argv[1];
    options.action = argv[2];
    for (int i = 3; i + 1 < argc; i += 2) {
        const std::string name = argv[i];
        const char *value = argv[i + 1];
        if (readLoadOption(name, value, options.queue, options.connections, options.duration))
            continue;
        if (name == "--count")
            options.count = std::atol(value);
        else if (name == "--rate")
            options.rate = std::atof(value);
        else if (name == "--protocol" && (std::string(value) == "json" || std::string(value) == "query"))
            options.query = std::string(value) == "query";
        else if (name == "--queue-url")
            options.queueUrl = value;
        else
            return false;
    }
    if (options.query)
        return options.action == "send" || options.action == "health";
    return options.action == "send" || options.action == "batch" || options.action == "receive-delete" ||
           options.action == "health" || isZaqar(options);
}

class LoadRun final {
public:
    LoadRun(Options options, LoadEndpoint endpoint, std::string queueUrl)
        : m_options(std::move(options)), m_endpoint(std::move(endpoint)), m_queueUrl(std::move(queueUrl))
    {
    }

    int run();

private:
    std::string nextRequest(LoadConnection &connection);
    void start(LoadConnection &connection, std::int64_t startedNs);
    void finished(LoadConnection &connection, std::int64_t doneNs);
    bool wantMore() const
    {
        if (m_stopped)
            return false;
        if (m_options.count > 0)
            return m_issuedMessages < m_options.count;
        return nowNs() < m_deadlineNs;
    }
    void watch(LoadConnection &connection);

    Options m_options;
    LoadEndpoint m_endpoint;
    std::string m_queueUrl;
    int m_epoll = -1;
    std::vector<std::unique_ptr<LoadConnection>> m_connections;
    std::unordered_map<LoadConnection *, std::vector<std::string>> m_handles;
    std::deque<std::int64_t> m_backlog;   // planned start times waiting for a free connection
    std::vector<std::int64_t> m_latenciesNs;
    std::uint64_t m_serial = 0;
    long m_issuedMessages = 0;
    long m_messages = 0;
    long m_requests = 0;
    long m_errors = 0;
    int m_emptyReceives = 0;
    bool m_stopped = false;
    std::int64_t m_deadlineNs = 0;
};

std::string LoadRun::nextRequest(LoadConnection &connection)
{
    const std::string &action = m_options.action;
    if (action == "health") {
        ++m_issuedMessages;
        return "GET /health HTTP/1.1\r\nHost: " + m_endpoint.host + ":" + std::to_string(m_endpoint.port) +
               "\r\nAccept-Encoding: identity\r\n\r\n";
    }
    if (isZaqar(m_options)) {
        const int count = action == "zaqar-batch" ? 10 : 1;
        m_issuedMessages += count;
        const std::string body = zaqarMessages(m_serial, count);
        m_serial += std::uint64_t(count);
        return zaqarRequest(m_endpoint, "POST", "queues/" + m_options.queue + "/messages", body);
    }
    if (m_options.query) {   // send
        ++m_issuedMessages;
        return sqsQueryRequest(m_endpoint, "Action=SendMessage&QueueUrl=" + formEncoded(m_queueUrl) +
                                               "&MessageBody=" + formEncoded(loadBody(m_serial++)));
    }
    nlohmann::json json;
    json["QueueUrl"] = m_queueUrl;
    if (action == "send") {
        json["MessageBody"] = loadBody(m_serial++);
        ++m_issuedMessages;
        return sqsJsonRequest(m_endpoint, "SendMessage", json.dump());
    }
    if (action == "batch") {
        nlohmann::json entries = nlohmann::json::array();
        for (int i = 0; i < 10; ++i)
            entries.push_back({{"Id", std::to_string(i)}, {"MessageBody", loadBody(m_serial++)}});
        json["Entries"] = std::move(entries);
        m_issuedMessages += 10;
        return sqsJsonRequest(m_endpoint, "SendMessageBatch", json.dump());
    }
    std::vector<std::string> &handles = m_handles[&connection];
    if (!handles.empty()) {
        json["ReceiptHandle"] = handles.back();
        handles.pop_back();
        connection.lastWasDelete = true;
        ++m_issuedMessages;
        return sqsJsonRequest(m_endpoint, "DeleteMessage", json.dump());
    }
    connection.lastWasDelete = false;
    json["MaxNumberOfMessages"] = 10;
    json["WaitTimeSeconds"] = 0;
    return sqsJsonRequest(m_endpoint, "ReceiveMessage", json.dump());
}

void LoadRun::watch(LoadConnection &connection)
{
    epoll_event event = {};
    event.events = EPOLLIN | (connection.wantsWrite() ? EPOLLOUT : 0u);
    event.data.ptr = &connection;
    ::epoll_ctl(m_epoll, EPOLL_CTL_MOD, connection.fd(), &event);
}

void LoadRun::start(LoadConnection &connection, std::int64_t startedNs)
{
    connection.startedNs = startedNs;
    if (!connection.send(nextRequest(connection)))
        ++m_errors;
    if (connection.wantsWrite())
        watch(connection);
}

void LoadRun::finished(LoadConnection &connection, std::int64_t doneNs)
{
    ++m_requests;
    m_latenciesNs.push_back(doneNs - connection.startedNs);
    const std::string &body = connection.body();
    if (isZaqar(m_options)) {
        if (connection.status() != 201) {
            if (m_errors++ < 3)
                std::fprintf(stderr, "http_load_client: status %d: %.300s\n", connection.status(), body.c_str());
            return;
        }
        m_messages += m_options.action == "zaqar-batch" ? 10 : 1;
        return;
    }
    if (connection.status() != 200) {
        if (m_errors++ < 3)
            std::fprintf(stderr, "http_load_client: status %d: %.300s\n", connection.status(), body.c_str());
        return;
    }
    const std::string &action = m_options.action;
    if (action == "send" || action == "health") {
        ++m_messages;
    } else if (action == "batch") {
        for (auto at = body.find("MD5OfMessageBody"); at != std::string::npos; at = body.find("MD5OfMessageBody", at + 1))
            ++m_messages;
    } else if (connection.lastWasDelete) {
        ++m_messages;   // one DeleteMessage answered 200
    } else if (body.find("ReceiptHandle") == std::string::npos) {
        if (++m_emptyReceives >= m_options.connections)
            m_stopped = true;   // the queue is drained
    } else {
        const nlohmann::json reply = nlohmann::json::parse(body, nullptr, false);
        if (reply.is_object() && reply.contains("Messages"))
            for (const auto &message : reply["Messages"])
                m_handles[&connection].push_back(message.value("ReceiptHandle", std::string()));
    }
}

int LoadRun::run()
{
    m_epoll = ::epoll_create1(0);
    for (int i = 0; i < m_options.connections; ++i) {
        const int fd = connectTo(m_endpoint);
        if (fd < 0) {
            std::fprintf(stderr, "http_load_client: cannot connect to %s\n", m_options.url.c_str());
            return 1;
        }
        auto connection = std::make_unique<LoadConnection>(fd);
        epoll_event event = {};
        event.events = EPOLLIN;
        event.data.ptr = connection.get();
        ::epoll_ctl(m_epoll, EPOLL_CTL_ADD, fd, &event);
        m_connections.push_back(std::move(connection));
    }
    const bool openLoop = m_options.rate > 0;
    const std::int64_t intervalNs = openLoop ? std::int64_t(1e9 / m_options.rate) : 0;
    const std::int64_t begin = nowNs();
    m_deadlineNs = begin + std::int64_t(m_options.duration * 1e9);
    std::int64_t nextPlanned = begin;
    if (!openLoop)
        for (auto &connection : m_connections)
            if (wantMore())
                start(*connection, nowNs());

    std::vector<epoll_event> events(std::size_t(m_options.connections));
    for (;;) {
        if (openLoop) {
            const std::int64_t now = nowNs();
            while (nextPlanned <= now && wantMore()) {
                m_backlog.push_back(nextPlanned);
                nextPlanned += intervalNs;
            }
            for (auto &connection : m_connections) {
                if (m_backlog.empty())
                    break;
                if (!connection->busy()) {
                    start(*connection, m_backlog.front());
                    m_backlog.pop_front();
                }
            }
        }
        const bool anyBusy = std::any_of(m_connections.begin(), m_connections.end(),
                                         [](const auto &connection) { return connection->busy(); });
        if (!anyBusy && m_backlog.empty() && !wantMore())
            break;
        int timeoutMs = 1000;
        if (openLoop && wantMore())
            timeoutMs = int(std::max<std::int64_t>(0, (nextPlanned - nowNs()) / 1000000));
        const int ready = ::epoll_wait(m_epoll, events.data(), int(events.size()), timeoutMs);
        for (int i = 0; i < ready; ++i) {
            auto &connection = *static_cast<LoadConnection *>(events[std::size_t(i)].data.ptr);
            if ((events[std::size_t(i)].events & EPOLLOUT) && connection.flush() && !connection.wantsWrite())
                watch(connection);
            if (!(events[std::size_t(i)].events & (EPOLLIN | EPOLLHUP | EPOLLERR)))
                continue;
            if (!connection.readResponse()) {
                if (connection.failed()) {
                    std::fprintf(stderr, "http_load_client: connection closed by the server\n");
                    return 1;
                }
                continue;
            }
            const std::int64_t done = nowNs();
            finished(connection, done);
            const bool moreDeletes = !m_handles[&connection].empty();
            if (openLoop) {
                if (!m_backlog.empty()) {
                    start(connection, m_backlog.front());
                    m_backlog.pop_front();
                }
            } else if (moreDeletes || wantMore()) {
                start(connection, done);
            }
        }
    }
    const double seconds = double(nowNs() - begin) / 1e9;
    std::sort(m_latenciesNs.begin(), m_latenciesNs.end());
    auto percentile = [&](double p) {
        if (m_latenciesNs.empty())
            return 0.0;
        const std::size_t at = std::min(m_latenciesNs.size() - 1, std::size_t(p * double(m_latenciesNs.size())));
        return double(m_latenciesNs[at]) / 1e6;
    };
    std::printf("http %s: %d connections%s: %.0f msg/s, %.0f req/s (%ld messages, %ld requests in %.2f s), "
                "errors %ld, latency p50 %.2f ms p99 %.2f ms max %.2f ms | load %s\n",
                m_options.action.c_str(), m_options.connections,
                openLoop ? (", open loop " + std::to_string(long(m_options.rate)) + " req/s").c_str() : ", closed loop",
                double(m_messages) / seconds, double(m_requests) / seconds, m_messages, m_requests, seconds, m_errors,
                percentile(0.50), percentile(0.99), percentile(1.0), loadAverage().c_str());
    return m_errors == 0 ? 0 : 3;
}

} // namespace

int main(int argc, char **argv)
{
    Options options;
    if (!parseOptions(argc, argv, options)) {
        std::fprintf(stderr, "usage: http_load_client URL send|batch|receive-delete|health|zaqar-send|zaqar-batch [--queue NAME] [--connections N] "
                             "[--duration S | --count MESSAGES] [--rate REQUESTS_PER_S] [--protocol json|query] [--queue-url URL]\n");
        return 2;
    }
    const std::optional<LoadEndpoint> endpoint = parseEndpoint(options.url);
    if (!endpoint) {
        std::fprintf(stderr, "http_load_client: not an http://HOST:PORT endpoint: %s\n", options.url.c_str());
        return 2;
    }
    int status = 0;
    if (isZaqar(options)) {
        const auto created = exchangeRequest(*endpoint, zaqarRequest(*endpoint, "PUT", "queues/" + options.queue, "{}"), &status);
        if (!created || (status != 201 && status != 204)) {
            std::fprintf(stderr, "http_load_client: Zaqar queue create failed (%d): %s\n", status, created ? created->c_str() : "");
            return 1;
        }
        LoadRun run(options, *endpoint, std::string());
        return run.run();
    }
    if (options.query) {
        const auto created = exchangeRequest(
            *endpoint, sqsQueryRequest(*endpoint, "Action=CreateQueue&QueueName=" + formEncoded(options.queue)), &status);
        const std::size_t from = created ? created->find("<QueueUrl>") : std::string::npos;
        const std::size_t to = created ? created->find("</QueueUrl>") : std::string::npos;
        if (status != 200 || from == std::string::npos || to == std::string::npos) {
            std::fprintf(stderr, "http_load_client: CreateQueue failed (%d): %s\n", status, created ? created->c_str() : "");
            return 1;
        }
        const std::string queueUrl = options.queueUrl.empty() ? created->substr(from + 10, to - from - 10) : options.queueUrl;
        LoadRun run(options, *endpoint, queueUrl);
        return run.run();
    }
    const auto created = exchangeOnce(*endpoint, "CreateQueue", nlohmann::json{{"QueueName", options.queue}}.dump(), &status);
    if (!created || status != 200) {
        std::fprintf(stderr, "http_load_client: CreateQueue failed (%d): %s\n", status, created ? created->c_str() : "");
        return 1;
    }
    const nlohmann::json reply = nlohmann::json::parse(*created, nullptr, false);
    if (!reply.is_object() || !reply.contains("QueueUrl")) {
        std::fprintf(stderr, "http_load_client: no QueueUrl in %s\n", created->c_str());
        return 1;
    }
    LoadRun run(options, *endpoint, reply["QueueUrl"].get<std::string>());
    return run.run();
}
