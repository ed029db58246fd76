// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

namespace relaydesk {

class BrokerEngine;
class BrokerMetrics;
class BrokerService;
class MockEndpoints;
struct BrokerIdentity;

// The broker the window embeds, as its pages and dialogs see it
// (docs/architecture.md §2, §10): its engine, service, counters, mock
// endpoints, identity and the addresses clients use — never how it was
// started. BrokerHost (host/broker_host.h) is the one implementation; the
// window's MainWindow starts it and hands the pages this, so ui/ includes
// core/host in one place only. Thread: the window's (the host's).
class EmbeddedBroker {
public:
    virtual ~EmbeddedBroker() = default;

    virtual BrokerEngine &engine() const = 0;
    virtual BrokerService &service() const = 0;
    virtual MockEndpoints &mocks() const = 0;
    // The engine's counters and depths (any thread): the dashboard reads snapshot().
    virtual BrokerMetrics &metrics() const = 0;
    virtual const BrokerIdentity &identity() const = 0;
    // "http://HOST:PORT", the endpoint clients use.
    virtual const QString &endpointUrl() const = 0;
    // The database file as given (":memory:" for an in-memory database).
    virtual const QString &databasePath() const = 0;
    // "amqp://HOST:PORT" / "amqps://HOST:PORT" of the Service Bus endpoint; empty when off.
    virtual const QString &amqpUrl() const = 0;
    virtual const QString &amqpsUrl() const = 0;
    // The local CA's certificate clients trust for amqpsUrl; empty when none is made.
    virtual const QString &tlsAuthorityPath() const = 0;
    // "http://HOST:PORT" of the Service Bus management API; empty when it is off.
    virtual const QString &managementUrl() const = 0;

protected:
    EmbeddedBroker() = default;
    EmbeddedBroker(const EmbeddedBroker &) = default;
    EmbeddedBroker &operator=(const EmbeddedBroker &) = default;
};

} // namespace relaydesk
