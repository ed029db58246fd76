// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"

#include <QAbstractHttpServer>

#include <cstddef>
#include <string>

namespace relaydesk {

class BrokerEngine;
class BrokerHealth;
class BrokerService;
class MockEndpoints;

// The one port of `relaydesk serve` (SPEC 8.2): routes each request by its
// shape —
//   /_mock/NAME…                                  → the mock endpoints (SPEC 4.7)
//   GET /health                                   → the broker's state (broker_health.h)
//   GET /SimpleNotificationService.pem            → the signing certificate (SPEC 4.1)
//   POST with X-Amz-Target: AmazonSQS.*          → SQS JSON protocol
//   /api/v1/…                                    → native JSON API
//   POST form-encoded, or GET with ?Action=…     → SQS / SNS query protocol
//   anything else                                → 404 in the native shape
// and refuses a body over kMaxBodyBytes (413, in the protocol's shape).
// Requests are answered asynchronously from the broker's replies; a client
// that goes away before its answer (a long poll given up) is simply not
// answered.
// Ownership: borrows the engine, the service and the mock endpoints, which
// must outlive the server. Thread: the thread it was made on (the broker's replies are posted
// there).
class BrokerHttpServer final : public QAbstractHttpServer {
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
    };

    BrokerHttpServer(BrokerEngine &engine, BrokerService &service, BrokerIdentity identity, Options options,
                     QObject *parent = nullptr);

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override;
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override;

private:
    BrokerEngine &m_engine;
    BrokerService &m_service;
    const BrokerIdentity m_identity;
    const Options m_options;
};

} // namespace relaydesk
