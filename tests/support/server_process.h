// SPDX-License-Identifier: MIT
#pragma once

// A server in a process of its own (`relaydesk serve`, sqslite) read up to
// its ready line: the connections' end-to-end tests and the window's tests
// of remote connections.
#include <QDeadlineTimer>
#include <QHostAddress>
#include <QProcess>
#include <QStringList>
#include <QTcpServer>

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

// A free TCP port on 127.0.0.1 (for a server that cannot pick its own).
inline quint16 freePort()
{
    QTcpServer probe;
    probe.listen(QHostAddress::LocalHost, 0);
    return probe.serverPort();
}

} // namespace relaydesk::test
