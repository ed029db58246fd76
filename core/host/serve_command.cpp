// SPDX-License-Identifier: MIT
#include "host/serve_command.h"

#include "host/command_help.h"
#include "host/broker_host.h"
#include "host/ready_file.h"
#include "host/serve_options.h"

#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QDeadlineTimer>
#include <QSocketNotifier>
#include <QTimer>

#include <chrono>
#include <csignal>
#include <functional>
#include <memory>
#include <utility>

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

// SIGINT, SIGTERM and SIGHUP (the terminal closed) call `stop` on the event
// loop (through a socket pair, the only safe way out of a signal handler);
// SIGUSR1, SIGUSR2 and SIGPIPE are ignored, so a stray one never kills the
// broker (docs/behaviour.md §8.1).
std::unique_ptr<QSocketNotifier> onStopSignals(std::function<void()> stop)
{
    if (::socketpair(AF_UNIX, SOCK_STREAM, 0, g_signalPipe) != 0)
        return nullptr;
    auto notifier = std::make_unique<QSocketNotifier>(g_signalPipe[1], QSocketNotifier::Read);
    QObject::connect(notifier.get(), &QSocketNotifier::activated, [stop = std::move(stop)] {
        char byte = 0;
        [[maybe_unused]] const auto got = ::read(g_signalPipe[1], &byte, 1);
        stop();
    });
    struct sigaction action = {};
    action.sa_handler = onStopSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (const int stop : {SIGINT, SIGTERM, SIGHUP})
        ::sigaction(stop, &action, nullptr);
    for (const int ignored : {SIGUSR1, SIGUSR2, SIGPIPE})
        std::signal(ignored, SIG_IGN);
    return notifier;
}

// A stop answers what the broker owes before the event loop ends: no new
// connections, waiting long polls answered with nothing, and every request
// already read answered and written — or kStopGrace, whichever comes first.
// A second signal ends at once.
void stopAnsweringWhatIsOwed(BrokerHost &host)
{
    static bool stopping = false;
    if (std::exchange(stopping, true)) {
        QCoreApplication::quit();
        return;
    }
    constexpr std::chrono::milliseconds kStopGrace{10'000};
    constexpr std::chrono::milliseconds kCheckEvery{10};
    host.beginStop();
    auto *check = new QTimer(QCoreApplication::instance());
    const QDeadlineTimer deadline(kStopGrace);
    QObject::connect(check, &QTimer::timeout, [&host, deadline] {
        if (host.owedAnswers() == 0 || deadline.hasExpired())
            QCoreApplication::quit();
    });
    check->start(kCheckEvery);
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
    const auto parsed = parseServeOptions(arguments, OptionsFor::Serve, QProcessEnvironment::systemEnvironment());
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
    if (!options.readyFile.isEmpty()) {
        if (const QString problem = ready_file::clearStale(options.readyFile); !problem.isEmpty()) {
            print(err, QStringLiteral("relaydesk serve: %1\n").arg(problem));
            return 1;
        }
    }
    auto started = BrokerHost::start(options);
    if (const auto *problem = std::get_if<BrokerHostProblem>(&started)) {
        print(err, QStringLiteral("relaydesk serve: %1\n").arg(problem->message));
        return 1;
    }
    const auto host = std::get<std::unique_ptr<BrokerHost>>(std::move(started));
    if (options.bindsBeyondLoopback() && options.credentialsFile.isEmpty())
        print(err, QStringLiteral("relaydesk serve: warning: listening on %1, reachable from other machines; "
                                  "the broker checks no credentials (--credentials FILE requires them)\n")
                       .arg(urlHostText(options.bind)));
    else if (options.bindsBeyondLoopback())
        print(err, QStringLiteral("relaydesk serve: listening on %1, reachable from other machines; requests need the "
                                  "credentials of %2\n")
                       .arg(urlHostText(options.bind), options.credentialsFile));
    if (!options.advertisedUrl.isEmpty())
        print(err, QStringLiteral("relaydesk serve: the URLs handed out start with %1\n").arg(options.advertisedUrl));
    BrokerHost &running = *host;
    const auto stopSignals = onStopSignals([&running] { stopAnsweringWhatIsOwed(running); });
    QList<ready_file::Listening> listening{{QStringLiteral("http"), host->endpointUrl()}};
    if (!host->amqpUrl().isEmpty())
        listening.append({QStringLiteral("amqp"), host->amqpUrl()});
    if (!host->managementUrl().isEmpty())
        listening.append({QStringLiteral("management"), host->managementUrl()});
    if (!host->amqpsUrl().isEmpty())
        listening.append({QStringLiteral("amqps"), host->amqpsUrl()});
    if (!options.readyFile.isEmpty()) {   // before the lines: whoever reads a line finds the file
        if (const QString problem = ready_file::write(options.readyFile, listening); !problem.isEmpty()) {
            print(err, QStringLiteral("relaydesk serve: %1\n").arg(problem));
            return 1;
        }
    }
    for (const ready_file::Listening &each : listening)
        print(out, QStringLiteral("relaydesk: listening on %1\n").arg(each.second));
    const int status = QCoreApplication::exec();
    if (!options.readyFile.isEmpty())
        ready_file::remove(options.readyFile);   // stopped with everything committed
    return status;
}

} // namespace relaydesk
