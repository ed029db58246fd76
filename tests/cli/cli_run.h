// SPDX-License-Identifier: MIT
#pragma once

// The real `relaydesk` binary as a user runs it: a process of its own, a
// headless environment (no DISPLAY, WAYLAND_DISPLAY or QT_QPA_PLATFORM),
// `input` on its standard input. Shared by the tests of tests/cli.
#include <QProcess>
#include <QString>
#include <QStringList>

namespace relaydesk::test {

struct CliRun {
    int exitCode = -1;   // -1: did not start; -2: crashed
    QString out;
    QString err;
};

inline CliRun runRelaydesk(const QStringList &arguments, const QByteArray &input = {})
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"})
        environment.remove(QLatin1String(name));
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(RELAYDESK_BINARY), arguments);
    if (!process.waitForStarted())
        return {};
    process.write(input);
    process.closeWriteChannel();
    process.waitForFinished(60000);
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -2,
            QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
}

} // namespace relaydesk::test
