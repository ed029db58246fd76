// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "host/broker_credentials.h"
#include "host/request_boundary.h"
#include "http/http1_server.h"
#include "http/http_reply.h"
#include "http/http_request.h"

#include <QObject>

#include <cstddef>
#include <string>

namespace relaydesk {

class BrokerEngine;
class BrokerHealth;
class BrokerService;
class MockEndpoints;

// The one port of `relaydesk serve` (docs/behaviour.md §8.2): refuses what a web page
// could have sent (host/request_boundary.h: a foreign Host or Origin, in the
// protocol's error shape), then, with --credentials, the requests without
// their credentials (host/broker_credentials.h: an AWS signature for SQS and
// SNS, a bearer token for the native API, Zaqar and /metrics; the mock
// endpoints, the certificate and /health stay open), then routes each
// request by its shape, in this order —
//   /_mock/NAME…                                  → the mock endpoints (docs/behaviour.md §4.7)
//   GET /SimpleNotificationService.pem            → the signing certificate (docs/behaviour.md §4.1)
//   /health                                       → the broker's state (broker_health.h)
//   /metrics                                      → Prometheus text (native_api.h)
//   POST with X-Amz-Target: AmazonSQS.*          → SQS JSON protocol
//   /api/v1/…                                    → native JSON API
//   POST form-encoded, or GET with ?Action=…     → SQS / SNS query protocol
//   anything else                                → 404 in the native shape
// and refuses a body over kMaxBodyBytes (413, in the protocol's shape, as
// soon as the declared or received length passes it; the connection then
// closes). HTTP/1.1 itself (framing, keep-alive, pipelining in order,
// timeouts, the connection cap) is http/http1_server.h's. Requests are
// answered asynchronously from the broker's replies, whose context is the
// request's connection: a client that goes away before its answer (a long
// poll given up) is not answered, and its waiting receive is withdrawn
// before it takes a message.
// Ownership: borrows the engine, the service and the mock endpoints, which
// must outlive the server. Thread: the thread it was made on (the broker's replies are posted
// there).
class BrokerHttpServer final : public QObject {
    Q_OBJECT

public:
    // 1 MiB message + batch framing + base64 binary attributes.
    static constexpr std::size_t kMaxBodyBytes = 4 * 1024 * 1024;

    struct Options {
        bool autoConfirm = false;   // HTTP/S subscriptions start confirmed (serve --auto-confirm)
        MockEndpoints *mocks = nullptr;     // null: /_mock/ and /api/v1/mocks answer 404
        std::string signingCertificatePem;  // empty: /SimpleNotificationService.pem answers 404
        // false: replies to a request build queue URLs on its Host header
        // (identityForHost); true (serve --advertised-url): always on the identity's endpoint.
        bool advertisedEndpoint = false;
        const BrokerHealth *health = nullptr;  // null: GET /health answers 404
        // Whom the port answers to, and from which web pages (default: loopback, none).
        RequestBoundary boundary;
        // What clients must present (serve --credentials; default: nothing).
        RequestCredentials credentials;
        Http1Server::Options transport = defaultTransport();   // timeouts and limits (tests make them small)
    };
    static Http1Server::Options defaultTransport();

    BrokerHttpServer(BrokerEngine &engine, BrokerService &service, BrokerIdentity identity, Options options,
                     QObject *parent = nullptr);

    // Starts serving `listener` (already listening); takes ownership.
    void bind(HttpListener *listener) { m_http.bind(listener); }
    const Http1Server &transport() const { return m_http; }
    void stopAccepting() { m_http.stopAccepting(); }

private:
    // The route dispatch: every request of every connection comes here.
    void handleRequest(const HttpRequest &request, ReplyChannel channel);

    BrokerEngine &m_engine;
    BrokerService &m_service;
    const BrokerIdentity m_identity;
    const Options m_options;
    Http1Server m_http;
};

} // namespace relaydesk
