// SPDX-License-Identifier: MIT
#pragma once

// What the connections' end-to-end tests share: a server in a process of its
// own (`relaydesk serve`, sqslite) read up to its ready line, and waiting for
// a connection call's one callback.
#include "connections/broker_connection.h"
#include "support/server_process.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QFile>
#include <QProcess>
#include <QStringList>
#include <QTcpServer>
#include <QTest>

#include <memory>
#include <optional>

namespace relaydesk::test {

// `relaydesk serve --credentials FILE` on a free port, in memory, on a virtual
// clock, without the Service Bus ports; its URL (empty when it did not start).
// With `managementPort` "0" the Service Bus management API listens too, with
// `amqpPort` "0" its AMQP port: their ready lines follow, AMQP's first
// (ServerProcess::readyLine).
inline QString startRelaydeskServe(ServerProcess &server, const QString &credentialsFile,
                                   const QString &managementPort = QStringLiteral("off"),
                                   const QString &amqpPort = QStringLiteral("off"))
{
    return server.start(QStringLiteral(RELAYDESK_BINARY),
                        {"serve", "--port", "0", "--amqp-port", amqpPort, "--amqps-port", "off", "--sb-management-port",
                         managementPort, "--db", ":memory:", "--clock", "virtual", "--credentials", credentialsFile},
                        QStringLiteral("relaydesk: listening on "));
}

// A --credentials file in `dir` with one access key and one bearer token, and
// `relaydesk serve` started with it (startRelaydeskServe); its URL or empty.
inline QString startRelaydeskServeWith(ServerProcess &server, const QString &dir, const QString &keyId,
                                       const QString &secret, const QString &token)
{
    QFile file(dir + QStringLiteral("/credentials.json"));
    if (!file.open(QIODevice::WriteOnly))
        return {};
    file.write(QStringLiteral(R"({"accessKeys": {"%1": "%2"}, "bearerTokens": ["%3"]})").arg(keyId, secret, token).toUtf8());
    file.close();
    return startRelaydeskServe(server, file.fileName());
}

// Runs the event loop until the call's callback has run; its result.
template <class T>
ConnectionResult<T> awaitCall(const std::function<ConnectionCall *(BrokerConnection::Reply<T>)> &start)
{
    auto got = std::make_shared<std::optional<ConnectionResult<T>>>();
    start([got](ConnectionResult<T> result) { *got = std::move(result); });
    QDeadlineTimer limit(60000);   // a safety net: each request has its own 30 s transfer timeout
    while (!*got && !limit.hasExpired())
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 100);
    if (!*got)
        return ConnectionResult<T>::failure({QStringLiteral("test"), QStringLiteral("NoAnswer"), {}, 0});
    return std::move(**got);
}

} // namespace relaydesk::test

// `AWAIT(T, connection.call(…, reply))`: the call made with a callback named
// `reply`, and its result once it has answered.
#define AWAIT(T, expr) ::relaydesk::test::awaitCall<T>([&](::relaydesk::BrokerConnection::Reply<T> reply) { return (expr); })
