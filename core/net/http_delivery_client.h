// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

class QNetworkAccessManager;
class QNetworkReply;

namespace relaydesk {

class WallTimeSource;

// One HTTP/S POST of a delivery attempt (SPEC 4.1).
struct HttpDeliveryRequest {
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
};

// How it went: a status when a response came (any status; the caller
// classifies it, SPEC 4.2), else the transport failure. `duration` is WALL
// time from sending to the end of the response.
struct HttpDeliveryResult {
    enum class Failure { None, Timeout, ConnectionError };
    std::optional<int> httpStatus;
    Failure failure = Failure::None;
    std::string errorText;
    std::chrono::milliseconds duration{0};
};

struct HttpDeliveryClientOptions {
    // Per-request timeout (SPEC 4.1, default 15 s). WALL time, also under the
    // virtual or scaled clock: it bounds real I/O, and the virtual clock
    // stands still while a request is in flight.
    std::chrono::milliseconds requestTimeout{15000};
    // PEM file of extra CA certificates trusted besides the system's (empty: none).
    std::string extraCaFile;
    // Response bodies are read and discarded; at most this many bytes are kept.
    std::size_t maxBodyBytes = 4096;
};

// The HTTP/S transport of the delivery worker: POSTs with keep-alive (one
// QNetworkAccessManager, its connection pool), no redirects followed (a 3xx
// is returned as its status), a transfer timeout, TLS with the system CAs
// plus an optional extra CA file, response bodies read in bounded chunks.
// Any status counts as a response; timeouts and connection errors (refused,
// reset, DNS, TLS) come back as failures.
//
// Ownership: owns its QNetworkAccessManager; borrows the WallTimeSource.
// Thread: lives on the thread that made it (the broker thread); post() and
// the callbacks run there. Destroying it aborts requests in flight without
// calling their callbacks.
class HttpDeliveryClient final : public QObject { // no Q_OBJECT: no signals or slots of its own
public:
    using Callback = std::function<void(HttpDeliveryResult)>;

    HttpDeliveryClient(const WallTimeSource &wall, HttpDeliveryClientOptions options, QObject *parent = nullptr);
    ~HttpDeliveryClient() override;
    HttpDeliveryClient(const HttpDeliveryClient &) = delete;
    HttpDeliveryClient &operator=(const HttpDeliveryClient &) = delete;

    const HttpDeliveryClientOptions &options() const { return m_options; }
    // Sends `request`; `done` is called once, later, on this object's thread.
    void post(const HttpDeliveryRequest &request, Callback done);
    std::size_t inFlight() const { return m_inFlight; }

private:
    const WallTimeSource &m_wall;
    HttpDeliveryClientOptions m_options;
    QNetworkAccessManager *m_network = nullptr; // child
    std::size_t m_inFlight = 0;
    bool m_closing = false;
};

} // namespace relaydesk
