// SPDX-License-Identifier: MIT
#pragma once

// What the connections' end-to-end tests share: a server in a process of its
// own (`relaydesk serve`, sqslite) read up to its ready line, and waiting for
// a connection call's one callback.
#include "connections/broker_connection.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QProcess>
#include <QStringList>
#include <QTcpServer>
#include <QTest>

#include <memory>
#include <optional>

namespace relaydesk::test {

// A server process, stopped (SIGTERM, then waited for) when destroyed.
class ServerProcess {
public:
    ~ServerProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(30000))
                m_process.kill();
        }
    }
    // Starts PROGRAM and reads stdout lines until one starts with `readyPrefix`;
    // the rest of that line is the answer (the URL). Empty when it exits first.
    QString start(const QString &program, const QStringList &arguments, const QString &readyPrefix)
    {
        m_process.start(program, arguments);
        if (!m_process.waitForStarted())
            return {};
        return readyLine(readyPrefix);
    }
    // The rest of the next stdout line that starts with `prefix` (a later ready line).
    QString readyLine(const QString &prefix)
    {
        QDeadlineTimer limit(60000);   // a safety net for a hung start, not a measure
        while (!limit.hasExpired()) {
            while (m_process.canReadLine()) {
                const QString line = QString::fromUtf8(m_process.readLine()).trimmed();
                if (line.startsWith(prefix))
                    return line.mid(prefix.size()).trimmed();
            }
            if (!m_process.waitForReadyRead(1000) && m_process.state() == QProcess::NotRunning)
                return {};
        }
        return {};
    }
    QString errors() { return QString::fromUtf8(m_process.readAllStandardError()); }

private:
    QProcess m_process;
};

// `relaydesk serve --credentials FILE` on a free port, in memory, on a virtual
// clock, without the Service Bus ports; its URL (empty when it did not start).
// With `managementPort` "0" the Service Bus management API listens too: its
// ready line follows (ServerProcess::readyLine).
inline QString startRelaydeskServe(ServerProcess &server, const QString &credentialsFile,
                                   const QString &managementPort = QStringLiteral("off"))
{
    return server.start(QStringLiteral(RELAYDESK_BINARY),
                        {"serve", "--port", "0", "--amqp-port", "off", "--amqps-port", "off", "--sb-management-port",
                         managementPort, "--db", ":memory:", "--clock", "virtual", "--credentials", credentialsFile},
                        QStringLiteral("relaydesk: listening on "));
}

// A free TCP port on 127.0.0.1 (for a server that cannot pick its own).
inline quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
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
