// SPDX-License-Identifier: MIT
#pragma once
// Wire side of http_load_client (a benchmark, not a test): keep-alive HTTP/1.1
// connections on raw non-blocking sockets driven by one epoll loop, and the
// SQS JSON requests exactly as botocore frames them (POST /, X-Amz-Target,
// Content-Type application/x-amz-json-1.0, SigV4-shaped Authorization).
//
// Ownership: a LoadConnection owns its socket. Thread: one thread (the loop's).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace relaydesk::bench {

struct LoadEndpoint {
    std::string host = "127.0.0.1";
    int port = 0;
};

// "http://127.0.0.1:9324" → host and port; nullopt if not of that shape.
std::optional<LoadEndpoint> parseEndpoint(const std::string &url);

// A full HTTP/1.1 request for one SQS JSON action with `json` as its body.
std::string sqsJsonRequest(const LoadEndpoint &endpoint, const std::string &action, const std::string &json);

// A full HTTP/1.1 request of the Zaqar v2 API as python-zaqarclient frames
// one: METHOD /v2/PATH with a Client-ID, `json` as the body (none when empty).
std::string zaqarRequest(const LoadEndpoint &endpoint, const std::string &method, const std::string &path,
                         const std::string &json);

// A full HTTP/1.1 request for the SQS query protocol: POST / with `form`
// (already percent-encoded) as an application/x-www-form-urlencoded body.
std::string sqsQueryRequest(const LoadEndpoint &endpoint, const std::string &form);
// `text` percent-encoded for a form value (unreserved characters kept).
std::string formEncoded(const std::string &text);

// A 256-byte message body that starts with `serial`.
std::string loadBody(std::uint64_t serial);

// The steady clock in nanoseconds; /proc/loadavg's three figures (the load
// clients' lines end with them; amqp_load_client shares both).
std::int64_t nowNs();
std::string loadAverage();

// The options every load client takes: --queue NAME, --connections N,
// --duration SECONDS. Stores VALUE and answers true when NAME is one of them.
bool readLoadOption(const std::string &name, const char *value, std::string &queue, int &connections,
                    double &duration);

// One keep-alive connection: write a request, then collect the response.
class LoadConnection final {
public:
    explicit LoadConnection(int fd) : m_fd(fd) {}
    ~LoadConnection();
    LoadConnection(const LoadConnection &) = delete;
    LoadConnection &operator=(const LoadConnection &) = delete;

    int fd() const { return m_fd; }
    bool busy() const { return m_busy; }

    // Queues `request` and writes as much as the socket takes.
    bool send(std::string request);
    // Call when the socket is writable (finishes a partial write).
    bool flush();
    // Reads what is available; true when a whole response arrived (status()
    // and body() are then valid until the next send()). False with failed()
    // set on a closed or broken connection.
    bool readResponse();
    bool failed() const { return m_failed; }
    bool wantsWrite() const { return m_written < m_out.size(); }
    int status() const { return m_status; }
    const std::string &body() const { return m_body; }

    // Planned start (open loop) or actual start (closed loop), ns.
    std::int64_t startedNs = 0;
    bool lastWasDelete = false;   // receive-delete: the request in flight is a DeleteMessage

private:
    bool parse();

    int m_fd = -1;
    bool m_busy = false;
    bool m_failed = false;
    std::string m_out;
    std::size_t m_written = 0;
    std::string m_in;
    int m_status = 0;
    std::string m_body;
};

// Blocking connect to the endpoint (TCP_NODELAY, then non-blocking); -1 on failure.
int connectTo(const LoadEndpoint &endpoint);
// Sends `request` on a new connection and waits (≤ 30 s) for its response body.
std::optional<std::string> exchangeRequest(const LoadEndpoint &endpoint, const std::string &request, int *status);

// One request on a fresh blocking exchange (setup calls: CreateQueue, GetQueueAttributes).
std::optional<std::string> exchangeOnce(const LoadEndpoint &endpoint, const std::string &action,
                                        const std::string &json, int *status);

} // namespace relaydesk::bench
