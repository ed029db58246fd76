// SPDX-License-Identifier: MIT
#pragma once

#include <QDeadlineTimer>
#include <QObject>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

class QSslConfiguration;
class QTimer;

namespace relaydesk {

class Http1Connection;
struct Http1Outcome;
class WallTimeSource;

// One HTTP/S POST of a delivery attempt (docs/behaviour.md §4.1). Requests of different
// `lane`s never wait for each other's connections, even to one origin (the
// worker's lane is the subscription ARN: a hanging endpoint path on a host
// does not hold back another subscription's path on that host).
struct HttpDeliveryRequest {
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    std::string lane;
};

// How it went: a status when a response came (any status; the caller
// classifies it, docs/behaviour.md §4.2), else the transport failure. `duration` is WALL
// time from post() to the end of the response (or the failure). errorText:
// the failure in words, or with a status the broker's own words
// (kBrokerErrorHeader, http_reply.h), usually empty.
struct HttpDeliveryResult {
    enum class Failure { None, Timeout, ConnectionError };
    std::optional<int> httpStatus;
    Failure failure = Failure::None;
    std::string errorText;
    std::chrono::milliseconds duration{0};
};

struct HttpDeliveryClientOptions {
    // Per-request timeout (docs/behaviour.md §4.1, default 15 s). WALL time, also under the
    // virtual or scaled clock: it bounds real I/O, and the virtual clock
    // stands still while a request is in flight.
    std::chrono::milliseconds requestTimeout{15000};
    // PEM file of extra CA certificates trusted besides the system's (empty: none).
    std::string extraCaFile;
    // Response bodies are read and discarded; at most this many bytes are kept.
    std::size_t maxBodyBytes = 4096;
};

// The HTTP/S transport of the delivery worker: a small HTTP/1.1 client on
// QTcpSocket / QSslSocket (http/http1_connection.h, http/http1_response_parser.h).
// - Per origin (scheme, host, port) and lane a pool of keep-alive connections, one
//   request at a time each (no pipelining): an idle connection is reused
//   (most recently used first) unless its peer has closed it; otherwise a new
//   one is opened, up to kMaxConnectionsPerOrigin; beyond that requests wait
//   in post() order.
// - Exactly one send per post(): a connection that closes or resets before a
//   complete response gives Failure::ConnectionError, never a re-send. There
//   is no retry even for the race "idle connection closed by the server just
//   as it is reused" (an idle connection is checked on the socket before reuse,
//   which makes that race narrow); retrying is the delivery policy's business.
// - No redirects followed (a 3xx is returned as its status). Any status counts
//   as a response. Response bodies are read and discarded (at most
//   maxBodyBytes kept); header sections over 64 KiB and malformed responses
//   are ConnectionErrors whose errorText says what was wrong.
// - requestTimeout bounds the WALL time from post() to the end of the response
//   (DNS, connect, TLS, send, response) -> Failure::Timeout, and the connection
//   is closed, not reused. The deadline runs on Qt's monotonic clock
//   (QDeadlineTimer), so it fires under a ManualWallTimeSource too;
//   `duration` is measured with the WallTimeSource.
// - Idle connections stay open until the endpoint closes them (no idle
//   timeout of our own); pools are kept per origin for the client's life.
// - TLS: the system CAs plus the certificates of extraCaFile, peer verified,
//   host name checked; a TLS failure is a ConnectionError with the TLS text.
//
// Ownership: owns its connections (QObject children); borrows the WallTimeSource.
// Thread: lives on the thread that made it (the broker thread); post() and
// the callbacks run there, callbacks never inside post(). Destroying it
// aborts requests in flight without calling their callbacks.
class HttpDeliveryClient final : public QObject { // no Q_OBJECT: no signals or slots of its own
public:
    using Callback = std::function<void(HttpDeliveryResult)>;
    static constexpr std::size_t kMaxConnectionsPerOrigin = 64;

    HttpDeliveryClient(const WallTimeSource &wall, HttpDeliveryClientOptions options, QObject *parent = nullptr);
    ~HttpDeliveryClient() override;
    HttpDeliveryClient(const HttpDeliveryClient &) = delete;
    HttpDeliveryClient &operator=(const HttpDeliveryClient &) = delete;

    const HttpDeliveryClientOptions &options() const { return m_options; }
    // Sends `request`; `done` is called once, later, on this object's thread.
    void post(const HttpDeliveryRequest &request, Callback done);
    // Requests posted whose callback has not run yet (waiting, connecting or sending).
    std::size_t inFlight() const { return m_deliveries.size(); }
    // Test hook: connections opened so far (all origins).
    std::uint64_t connectionsOpenedForTest() const { return m_connectionsOpened; }

private:
    struct Delivery;
    struct OriginPool;

    void dispatch(OriginPool &pool, std::uint64_t id);
    void startOn(Http1Connection &connection, std::uint64_t id);
    void onFinished(Http1Connection &connection, Http1Outcome outcome);
    void drop(OriginPool &pool, Http1Connection &connection);
    void startWaiting(OriginPool &pool);
    void expireDeadlines();
    void armDeadlineTimer();
    void complete(std::uint64_t id, HttpDeliveryResult result);
    const QSslConfiguration *tlsConfiguration();

    const WallTimeSource &m_wall;
    HttpDeliveryClientOptions m_options;
    std::unordered_map<std::uint64_t, std::unique_ptr<Delivery>> m_deliveries;
    std::unordered_map<std::string, std::unique_ptr<OriginPool>> m_pools;
    std::deque<std::pair<QDeadlineTimer, std::uint64_t>> m_deadlines; // post() order = deadline order
    QTimer *m_deadlineTimer = nullptr;                                  // child
    std::unique_ptr<QSslConfiguration> m_tls;                           // made at the first https request
    std::uint64_t m_nextId = 0;
    std::uint64_t m_connectionsOpened = 0;
    bool m_posting = false; // inside post(): completions are deferred
};

} // namespace relaydesk
