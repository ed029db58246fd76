// SPDX-License-Identifier: MIT
#pragma once

// What the connections' end-to-end tests share: a server in a process of its
// own (`relaydesk serve`, sqslite) read up to its ready line, and waiting for
// a connection call's one callback.
#include "connections/broker_connection.h"
#include "support/server_process.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QProcess>
#include <QStringList>
#include <QTcpServer>
#include <QTest>

#include <memory>
#include <optional>

namespace relaydesk::test {

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
