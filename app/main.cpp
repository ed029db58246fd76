// SPDX-License-Identifier: MIT
// relaydesk: parses the command line, builds the parts, hands them over.
#include "engine/policy_command.h"
#include "net/serve_command.h"
#include "net/serve_options.h"

#ifdef RELAYDESK_HAS_GUI
#include "charts/policy_render_command.h"
#include "views/main_window.h"

#include <QApplication>
#endif

#include <QCoreApplication>
#include <QDir>
#include <QStringList>

#include <cerrno>
#include <variant>
#include <cstdio>

#include <sys/stat.h>
#include <unistd.h>

namespace {

const char *const kUsage =
    "Usage:\n"
    "  relaydesk [options]            the window with its broker (relaydesk --help-window: the options)\n"
    "  relaydesk serve [options]      headless broker: SQS, SNS and the native API on one port\n"
    "  relaydesk policy COMMAND ...   explain | validate | render | diff a delivery policy\n"
    "  relaydesk --help | --version\n\n";

QStringList argumentsOf(int argc, char **argv)
{
    QStringList arguments;
    for (int i = 0; i < argc; ++i)
        arguments << QString::fromLocal8Bit(argv[i]);
    return arguments;
}

void print(FILE *stream, const QString &text)
{
    std::fputs(text.toLocal8Bit().constData(), stream);
}

int usageError(const QString &message)
{
    print(stderr, QStringLiteral("relaydesk: %1\n%2").arg(message, QLatin1String(kUsage)));
    return relaydesk::kExitUsage;
}

#ifdef RELAYDESK_HAS_GUI
// Headless machines often lack XDG_RUNTIME_DIR; Qt then warns on stderr and
// uses /tmp/runtime-USER. Use that same directory, quietly, so a CLI render
// prints only its own line.
void ensureRuntimeDirectory()
{
    if (!qEnvironmentVariableIsEmpty("XDG_RUNTIME_DIR"))
        return;
    const QByteArray directory = QDir::tempPath().toLocal8Bit() + "/runtime-" + QByteArray::number(::getuid());
    if (::mkdir(directory.constData(), 0700) == 0 || errno == EEXIST)
        qputenv("XDG_RUNTIME_DIR", directory);
}

bool displayAvailable()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
           !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}
#endif

int runPolicy(int argc, char **argv, const QStringList &arguments)
{
    if (arguments.value(0) == QLatin1String("render")) {
#ifdef RELAYDESK_HAS_GUI
        // Rendering never needs a display: draw on the offscreen platform.
        qputenv("QT_QPA_PLATFORM", "offscreen");
        ensureRuntimeDirectory();
        QApplication app(argc, argv);
        return relaydesk::runPolicyRenderCommand(arguments);
#endif
    }
    QCoreApplication app(argc, argv);
    return relaydesk::runPolicyCommand(arguments);
}

int runWindow(int argc, char **argv, const QStringList &arguments)
{
    // Before the options: the default database is under these names (AppDataLocation).
    QCoreApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QCoreApplication::setApplicationName(QStringLiteral("Relaydesk"));
    const auto parsed = relaydesk::parseServeOptions(arguments, relaydesk::OptionsFor::Window);
    if (const QString *usage = std::get_if<QString>(&parsed))
        return usageError(*usage);
    const relaydesk::ServeOptions options = std::get<relaydesk::ServeOptions>(parsed);
    if (options.showHelp) {
        print(stdout, relaydesk::windowOptionsHelp());
        return relaydesk::kExitOk;
    }
#ifdef RELAYDESK_HAS_GUI
    if (!displayAvailable()) {
        print(stderr, QStringLiteral("relaydesk: no display available (DISPLAY and WAYLAND_DISPLAY are unset), so the "
                                     "window cannot open.\n%1")
                          .arg(QLatin1String(kUsage)));
        return 1;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationVersion(QStringLiteral(RELAYDESK_VERSION));
    relaydesk::MainWindow window;
    // Exactly one ready line, for the first broker (scripts and tests read it).
    QObject::connect(&window, &relaydesk::MainWindow::brokerStarted, &window, [printed = false](const QString &url) mutable {
        if (printed)
            return;
        printed = true;
        print(stdout, QStringLiteral("relaydesk: listening on %1\n").arg(url));
        std::fflush(stdout);
    });
    window.show();
    // Paint first: opening a large database checks it (O(size)) before the broker starts.
    QCoreApplication::processEvents();
    QCoreApplication::processEvents();
    window.startBroker(options);
    return app.exec();
#else
    (void)argc;
    (void)argv;
    print(stderr, QStringLiteral("relaydesk: this build has no window (RELAYDESK_GUI=OFF).\n%1").arg(QLatin1String(kUsage)));
    return 1;
#endif
}

} // namespace

int main(int argc, char **argv)
{
    const QStringList arguments = argumentsOf(argc, argv).mid(1);
    const QString command = arguments.value(0);
    if (command == QLatin1String("--help-window")) {
        print(stdout, relaydesk::windowOptionsHelp());
        return relaydesk::kExitOk;
    }
    if (command == QLatin1String("--help") || command == QLatin1String("-h")) {
        print(stdout, QLatin1String(kUsage) + relaydesk::policyCommandUsage());
        return relaydesk::kExitOk;
    }
    if (command == QLatin1String("--version")) {
        print(stdout, QStringLiteral("relaydesk %1\n").arg(QLatin1String(RELAYDESK_VERSION)));
        return relaydesk::kExitOk;
    }
    if (command == QLatin1String("policy"))
        return runPolicy(argc, argv, arguments.mid(1));
    if (command == QLatin1String("serve"))
        return relaydesk::runServeCommand(argc, argv, arguments.mid(1));
    return runWindow(argc, argv, arguments);
}
