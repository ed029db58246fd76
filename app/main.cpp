// SPDX-License-Identifier: MIT
// relaydesk: parses the command line, builds the parts, hands them over.
#include "host/command_help.h"
#include "host/policy_command.h"
#include "host/serve_command.h"
#include "host/serve_options.h"
#include "host/tls_command.h"

#ifdef RELAYDESK_HAS_GUI
#include "charts/policy_render_command.h"
#include "charts/policy_scan_charts.h"
#include "models/preferences.h"
#include "views/main_window.h"
#include "views/window_command_line.h"
#include "widgets/english_plurals.h"

#include <QApplication>
#endif

#include <QCoreApplication>
#include <QDir>
#include <QStringList>

#include <algorithm>
#include <cerrno>
#include <variant>
#include <cstdio>

#include <sys/stat.h>
#include <unistd.h>

namespace {

// The top-level help, in the format of host/command_help.h (the man page's source).
const char *const kUsage =
    "Usage: relaydesk [options]\n"
    "       relaydesk serve [options]\n"
    "       relaydesk policy explain|validate|render|diff|scan [options] ...\n"
    "       relaydesk tls ca\n"
    "\n"
    "Relaydesk administers message queues, topics and notification retry policies: a desktop window, a headless\n"
    "broker that AWS SDKs and the aws CLI talk to as they would to Amazon SQS and SNS, and commands that explain,\n"
    "check and draw delivery policies. Without a command it opens the window, which runs its own broker on one\n"
    "port (9911, or the next free one) shared with your code; the options below are the window's broker's.\n"
    "\n"
    "Commands:\n"
    "  serve                  the headless broker: SQS, SNS and the native JSON API on one port\n"
    "  policy                 explain, validate, render, diff or scan delivery policies\n"
    "  tls                    the local certificate authority: 'tls ca' prints the path of the certificate to trust\n"
    "\n";

const char *const kUsageEnd =
    "\n"
    "Each command has its own help: relaydesk serve --help, relaydesk policy --help.\n"
    "Exit status: 0 ok, 1 failure, 2 usage error.\n";

// The top-level help: kUsage, the window's broker options (one list with serve's), kUsageEnd.
QString topLevelHelp()
{
    const QString options = relaydesk::windowOptionsHelp();
    const qsizetype from = options.indexOf(QLatin1String("Options:"));
    const qsizetype to = options.indexOf(QLatin1String("\n\n"), from);
    return QLatin1String(kUsage) + options.mid(from, to - from + 1) + QLatin1String(kUsageEnd);
}

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
    print(stderr, QStringLiteral("relaydesk: %1\nTry 'relaydesk --help'.\n").arg(message));
    return relaydesk::kExitUsage;
}

#ifdef RELAYDESK_HAS_GUI
// The application id (reverse DNS): the desktop entry, the AppStream metainfo
// and the icons are installed under this name (installer/CMakeLists.txt).
const char *const kDesktopFileName = "io.github.relaydesk.Relaydesk";

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

bool displayAvailable(bool platformChosen)
{
    return platformChosen || !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") ||
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
#ifdef RELAYDESK_HAS_GUI
    const bool charts = std::any_of(arguments.begin(), arguments.end(), [](const QString &argument) {
        return argument == QLatin1String("--charts") || argument.startsWith(QLatin1String("--charts="));
    });
    if (arguments.value(0) == QLatin1String("scan") && charts) {
        qputenv("QT_QPA_PLATFORM", "offscreen");   // the charts need no display, as render's
        ensureRuntimeDirectory();
        QApplication app(argc, argv);
        return relaydesk::runPolicyScanWithCharts(arguments);
    }
#endif
    QCoreApplication app(argc, argv);
    return relaydesk::runPolicyCommand(arguments);
}

int runWindow(int argc, char **argv, const QStringList &arguments)
{
    // Before the options: the default database is under these names (AppDataLocation).
    QCoreApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QCoreApplication::setApplicationName(QStringLiteral("Relaydesk"));
#ifdef RELAYDESK_HAS_GUI
    // Qt's own options (-style Fusion, -platform xcb, …) are QApplication's, which reads them from argv.
    const relaydesk::WindowCommandLine commandLine = relaydesk::splitWindowCommandLine(arguments);
    const QStringList brokerArguments = commandLine.brokerArguments;
#else
    const QStringList &brokerArguments = arguments;
#endif
    const auto parsed = relaydesk::parseServeOptions(brokerArguments, relaydesk::OptionsFor::Window);
    if (const QString *usage = std::get_if<QString>(&parsed))
        return usageError(*usage);
    relaydesk::ServeOptions options = std::get<relaydesk::ServeOptions>(parsed);
#ifdef RELAYDESK_HAS_GUI
    relaydesk::Preferences::load().applyTo(options, brokerArguments); // what the command line leaves out
#endif
    if (options.showHelp) {
        print(stdout, topLevelHelp());
        return relaydesk::kExitOk;
    }
    if (options.showVersion) {
        print(stdout, relaydesk::versionText());
        return relaydesk::kExitOk;
    }
#ifdef RELAYDESK_HAS_GUI
    if (!displayAvailable(commandLine.choosesPlatform)) {
        print(stderr, QStringLiteral("relaydesk: no display available (DISPLAY and WAYLAND_DISPLAY are unset), so the "
                                     "window cannot open; 'relaydesk serve' and 'relaydesk policy' need none.\n"
                                     "Try 'relaydesk --help'.\n"));
        return 1;
    }
    QApplication app(argc, argv);
    QApplication::setApplicationVersion(QStringLiteral(RELAYDESK_VERSION));
    relaydesk::installEnglishPlurals();
    QGuiApplication::setDesktopFileName(QLatin1String(kDesktopFileName));
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
    print(stderr, QStringLiteral("relaydesk: this build has no window (RELAYDESK_GUI=OFF); 'relaydesk serve' and "
                                 "'relaydesk policy' work.\nTry 'relaydesk --help'.\n"));
    return 1;
#endif
}

} // namespace

int main(int argc, char **argv)
{
    const QStringList arguments = argumentsOf(argc, argv).mid(1);
    const QString command = arguments.value(0);
    if (command == QLatin1String("policy"))
        return runPolicy(argc, argv, arguments.mid(1));
    if (command == QLatin1String("tls")) {
        QCoreApplication app(argc, argv);
        return relaydesk::runTlsCommand(arguments.mid(1), stdout, stderr);
    }
    if (command == QLatin1String("serve"))
        return relaydesk::runServeCommand(argc, argv, arguments.mid(1));
    return runWindow(argc, argv, arguments);
}
