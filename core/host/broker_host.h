// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "connections/embedded/embedded_broker.h"
#include "host/serve_options.h"
#include "engine/broker_database.h"

#include <QString>

#include <memory>
#include <variant>


namespace relaydesk {

class BrokerEngine;
class BrokerHealth;
class BrokerHttpServer;
class BrokerMetrics;
class BrokerService;
class DeliveryWorker;
class MockEndpoints;
class ServiceBusEndpoint;
class ServiceBusManagementServer;
class SystemWallTimeSource;

// Why a broker could not start, in words for a person (the text after
// "relaydesk serve: " on the command line; the window shows it in its
// database dialog). `storeKind` says what was wrong with the database file
// when `kind` is Database, so the window can offer the right way out.
struct BrokerHostProblem {
    enum class Kind { Config, CaFile, Credentials, Database, Port, SigningKey, Tls };
    Kind kind = Kind::Database;
    StoreStatus::Kind storeKind = StoreStatus::Kind::Ok;
    QString message;
};

// One running broker (docs/architecture.md §3): the database opened
// read-write, the engine, the signing key, the delivery worker, the service,
// the mock endpoints and the HTTP server on one port — the parts `relaydesk
// serve` runs and the window owns, built in one place and stopped in order.
//
// start() checks in this order, changing nothing before the check that
// refuses: the --config file (read whole), the --ca-file, the TLS
// certificate (--tls-cert/--tls-key, or the local CA's, made or renewed
// when it must be: its only write before the database), the database (never
// created over a file it refuses; a refused file is left untouched), the port
// (with `nextFreePort`, the next free port after a taken one, up to 100
// further), the signing key; then it applies the config as one unit and
// starts the worker. The caller prints the ready line itself.
//
// The window's pages see it as the EmbeddedBroker it is
// (connections/embedded/embedded_broker.h); only MainWindow starts it.
//
// Ownership: owns every part. Thread: the thread with the Qt event loop that
// made it (the HTTP server and the engine's change signal live there); a
// QCoreApplication must exist. The destructor stops the HTTP server first,
// then the worker (requests in flight are dropped, their rows stay pending),
// the service and last the engine, which commits everything pending.
class BrokerHost final : public EmbeddedBroker {
public:
    static std::variant<std::unique_ptr<BrokerHost>, BrokerHostProblem> start(const ServeOptions &options,
                                                                            bool nextFreePort = false);
    ~BrokerHost() override;
    BrokerHost(const BrokerHost &) = delete;
    BrokerHost &operator=(const BrokerHost &) = delete;

    BrokerEngine &engine() const override { return *m_engine; }
    BrokerService &service() const override { return *m_service; }
    MockEndpoints &mocks() const override { return *m_mocks; }
    // The engine's counters and depths (any thread; see broker/metrics/broker_metrics.h):
    // the window's dashboard reads snapshot(), GET /metrics renders them.
    BrokerMetrics &metrics() const override;
    const BrokerIdentity &identity() const override { return m_identity; }
    // "http://HOST:PORT", the endpoint clients use and the ready line prints.
    // (127.0.0.1 for a wildcard bind; the identity's endpoint may be --advertised-url).
    const QString &endpointUrl() const override { return m_endpointUrl; }
    quint16 port() const { return m_port; }
    // The database file as given (":memory:" for an in-memory database).
    const QString &databasePath() const override { return m_databasePath; }
    // "amqp://HOST:PORT" of the Service Bus endpoint; empty when it is off.
    const QString &amqpUrl() const override { return m_amqpUrl; }
    // "amqps://HOST:PORT" of Service Bus over TLS; empty when it is off.
    const QString &amqpsUrl() const override { return m_amqpsUrl; }
    // The local CA's certificate clients trust for amqpsUrl (docs/behaviour.md §8.7);
    // empty when the user's own certificate (--tls-cert) is presented or TLS is off.
    const QString &tlsAuthorityPath() const override { return m_tlsAuthorityPath; }
    // "http://HOST:PORT" of the Service Bus management API; empty when it is off.
    const QString &managementUrl() const override { return m_managementUrl; }
    // Whether the port is another than the one asked for (it was taken).
    bool portMoved() const { return m_portMoved; }

    // The first half of a stop that answers what it owes (docs/behaviour.md
    // §8.1): no new connections, and every waiting long poll answers now
    // with what it has (nothing). Requests already read are still answered;
    // owedAnswers() tells when all of them are written. The host's thread.
    void beginStop();
    std::size_t owedAnswers() const;

private:
    BrokerHost() = default;

    std::unique_ptr<SystemWallTimeSource> m_wall; // outlives the engine (member order)
    std::unique_ptr<BrokerEngine> m_engine;
    std::unique_ptr<DeliveryWorker> m_worker;
    std::unique_ptr<BrokerService> m_service;
    std::unique_ptr<MockEndpoints> m_mocks;
    std::unique_ptr<BrokerHealth> m_health;       // GET /health
    std::unique_ptr<BrokerHttpServer> m_server;
    std::unique_ptr<ServiceBusEndpoint> m_serviceBus;   // destroyed before the service it calls
    std::unique_ptr<ServiceBusManagementServer> m_management;   // 〃
    BrokerIdentity m_identity;
    QString m_endpointUrl;
    QString m_amqpUrl;
    QString m_amqpsUrl;
    QString m_tlsAuthorityPath;
    QString m_managementUrl;
    QString m_databasePath;
    quint16 m_port = 0;
    bool m_portMoved = false;
};

// The text of a host for a URL: IPv6 in brackets.
QString urlHostText(const QHostAddress &address);

} // namespace relaydesk
