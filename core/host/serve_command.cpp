// SPDX-License-Identifier: MIT
#include "host/serve_command.h"

#include "host/command_help.h"
#include "host/broker_host.h"
#include "host/serve_options.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <csignal>
#include <memory>
#include <sys/socket.h>
#include <unistd.h>

namespace relaydesk {

namespace {

int g_signalPipe[2] = {-1, -1};

void onStopSignal(int)
{
    const char byte = 1;
    [[maybe_unused]] const auto written = ::write(g_signalPipe[0], &byte, 1);
}

// SIGINT/SIGTERM end the event loop (through a socket pair, the only safe
// way out of a signal handler).
std::unique_ptr<QSocketNotifier> quitOnStopSignals()
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0)
        return nullptr;
    auto notifier = std::make_unique<QSocketNotifier>(g_signalPipe[1], QSocketNotifier::Read);
    QObject::connect(notifier.get(), &QSocketNotifier::activated, [] {
        char byte = 0;
        [[maybe_unused]] const auto got = ::read(g_signalPipe[1], &byte, 1);
        QCoreApplication::quit();
    });
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGTERM, &action, nullptr);
    return notifier;
}

void print(FILE *stream, const QString &text)
{
    std::fputs(text.toLocal8Bit().constData(), stream);
    std::fflush(stream);
}

} // namespace

QString serveCommandUsage() { return serveOptionsHelp(); }

int runServeCommand(int argc, char **argv, const QStringList &arguments, FILE *out, FILE *err)
{
    // Before the options: the default database is under these names
    // (AppDataLocation), the same file the window opens.
    QCoreApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QCoreApplication::setApplicationName(QStringLiteral("Relaydesk"));
    const auto parsed = parseServeOptions(arguments);
    if (const QString *usage = std::get_if<QString>(&parsed)) {
        print(err, QStringLiteral("relaydesk serve: %1\nTry 'relaydesk serve --help'.\n").arg(*usage));
        return 2;
    }
    const ServeOptions options = std::get<ServeOptions>(parsed);
    if (options.showHelp) {
        print(out, serveOptionsHelp());
        return 0;
    }
    if (options.showVersion) {
        print(out, versionText());
        return 0;
    }
    QCoreApplication app(argc, argv);   // before the broker: Qt's TLS backend (--ca-file) is a plugin
    auto started = BrokerHost::start(options);
    if (const auto *problem = std::get_if<BrokerHostProblem>(&started)) {
        print(err, QStringLiteral("relaydesk serve: %1\n").arg(problem->message));
        return 1;
    }
    const auto host = std::get<std::unique_ptr<BrokerHost>>(std::move(started));
    if (options.bindsBeyondLoopback())
        print(err, QStringLiteral("relaydesk serve: warning: listening on %1, reachable from other machines; "
                                  "the broker checks no credentials\n")
                       .arg(urlHostText(options.bind)));
    if (!options.advertisedUrl.isEmpty())
        print(err, QStringLiteral("relaydesk serve: the URLs handed out start with %1\n").arg(options.advertisedUrl));
    const auto stopSignals = quitOnStopSignals();
    print(out, QStringLiteral("relaydesk: listening on %1\n").arg(host->endpointUrl()));
    if (!host->amqpUrl().isEmpty())
        print(out, QStringLiteral("relaydesk: listening on %1\n").arg(host->amqpUrl()));
    const int status = QCoreApplication::exec();
    return status;
}

} // namespace relaydesk
