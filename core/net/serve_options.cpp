// SPDX-License-Identifier: MIT
#include "net/serve_options.h"

#include <QCommandLineParser>
#include <QDir>
#include <QStandardPaths>

namespace relaydesk {

namespace {

// The broker options both commands take.
const QString kBrokerOptions = QStringLiteral(
    "  --db PATH|:memory:     database file (default: the application data folder's relaydesk.db)\n"
    "  --bind ADDRESS         address to listen on (default 127.0.0.1; any other prints a warning)\n"
    "  --port N               port (default 9911; 0 picks a free one)\n"
    "  --config FILE          apply a configuration file at start\n"
    "  --clock MODE           real (default), scaled or virtual\n"
    "  --time-scale X         speed of the scaled clock (e.g. 60)\n"
    "  --jitter FRACTION      retry-delay jitter, 0 to 0.5 (default 0.1): each delay d is drawn from d(1-J)..d(1+J)\n"
    "  --seed N               seed of the jitter, for repeatable runs\n"
    "  --request-timeout S    timeout of one HTTP/S delivery request in (wall) seconds, 1 to 3600 (default 15)\n"
    "  --ca-file FILE         PEM certificates trusted for https endpoints besides the system's (self-signed local endpoints)\n"
    "  --auto-confirm         confirm HTTP/S subscriptions without a confirmation request\n"
    "  --help                 this text\n");

const QString kServeHelp = QStringLiteral("Usage: relaydesk serve [options]\n"
                                          "The headless broker: SQS (JSON and query protocols), SNS and the native "
                                          "JSON API on one port.\n\n") +
                           kBrokerOptions +
                           QStringLiteral("\nWhen ready it prints one line: relaydesk: listening on http://HOST:PORT\n"
                                          "It stops on SIGINT or SIGTERM with everything committed.\n");

const QString kWindowHelp =
    QStringLiteral("Usage: relaydesk [options]\n"
                   "The window, with its own broker: SQS, SNS and the native JSON API on one port, shared with your "
                   "code.\n\n") +
    kBrokerOptions +
    QStringLiteral("\nWithout --port the window takes 9911, or the next free port when 9911 is taken.\n"
                   "When ready it prints one line: relaydesk: listening on http://HOST:PORT\n");

QString defaultDatabasePath()
{
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(folder.isEmpty() ? QDir::homePath() : folder).filePath(QStringLiteral("relaydesk.db"));
}

} // namespace

QString serveOptionsHelp() { return kServeHelp; }
QString windowOptionsHelp() { return kWindowHelp; }

std::variant<ServeOptions, QString> parseServeOptions(const QStringList &arguments, OptionsFor command)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption db(QStringLiteral("db"), {}, QStringLiteral("PATH"));
    const QCommandLineOption bind(QStringLiteral("bind"), {}, QStringLiteral("ADDRESS"));
    const QCommandLineOption port(QStringLiteral("port"), {}, QStringLiteral("N"));
    const QCommandLineOption config(QStringLiteral("config"), {}, QStringLiteral("FILE"));
    const QCommandLineOption clock(QStringLiteral("clock"), {}, QStringLiteral("MODE"));
    const QCommandLineOption scale(QStringLiteral("time-scale"), {}, QStringLiteral("X"));
    const QCommandLineOption jitter(QStringLiteral("jitter"), {}, QStringLiteral("FRACTION"));
    const QCommandLineOption seed(QStringLiteral("seed"), {}, QStringLiteral("N"));
    const QCommandLineOption requestTimeout(QStringLiteral("request-timeout"), {}, QStringLiteral("SECONDS"));
    const QCommandLineOption caFile(QStringLiteral("ca-file"), {}, QStringLiteral("FILE"));
    const QCommandLineOption autoConfirm(QStringLiteral("auto-confirm"));
    const QCommandLineOption help(QStringList{QStringLiteral("help"), QStringLiteral("h")});
    parser.addOptions({db, bind, port, config, clock, scale, jitter, seed, requestTimeout, caFile, autoConfirm, help});
    const QString program = command == OptionsFor::Serve ? QStringLiteral("relaydesk serve") : QStringLiteral("relaydesk");
    if (!parser.parse(QStringList{program} + arguments))
        return parser.errorText();
    if (!parser.positionalArguments().isEmpty())
        return QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first());

    ServeOptions options;
    options.showHelp = parser.isSet(help);
    options.databasePath = parser.isSet(db) ? parser.value(db) : defaultDatabasePath();
    if (options.databasePath.isEmpty())
        return QStringLiteral("--db needs a file name or :memory:");
    if (parser.isSet(bind) && !options.bind.setAddress(parser.value(bind)))
        return QStringLiteral("--bind: '%1' is not an IP address").arg(parser.value(bind));
    if (parser.isSet(port)) {
        bool ok = false;
        const uint value = parser.value(port).toUInt(&ok);
        if (!ok || value > 65535)
            return QStringLiteral("--port: '%1' is not a port number (0–65535)").arg(parser.value(port));
        options.port = static_cast<quint16>(value);
        options.portGiven = true;
    }
    options.configFile = parser.value(config);
    if (parser.isSet(clock)) {
        const auto mode = parseClockMode(parser.value(clock).toStdString());
        if (!mode)
            return QStringLiteral("--clock: '%1' is not real, scaled or virtual").arg(parser.value(clock));
        options.clockMode = *mode;
    }
    if (parser.isSet(scale)) {
        bool ok = false;
        options.timeScale = parser.value(scale).toDouble(&ok);
        if (!ok || options.timeScale < Clock::kMinScale || options.timeScale > Clock::kMaxScale)
            return QStringLiteral("--time-scale: '%1' is not a factor from %2 to %3")
                .arg(parser.value(scale))
                .arg(Clock::kMinScale)
                .arg(Clock::kMaxScale);
        if (!parser.isSet(clock))
            options.clockMode = ClockMode::Scaled;
    }
    if (parser.isSet(jitter)) {
        bool ok = false;
        options.jitter = parser.value(jitter).toDouble(&ok);
        if (!ok || !(options.jitter >= 0.0 && options.jitter <= JitterSampler::kMaxFraction))
            return QStringLiteral("--jitter: '%1' is not a fraction from 0 to %2")
                .arg(parser.value(jitter))
                .arg(JitterSampler::kMaxFraction);
    }
    if (parser.isSet(seed)) {
        bool ok = false;
        options.seed = parser.value(seed).toULongLong(&ok);
        if (!ok)
            return QStringLiteral("--seed: '%1' is not a whole number").arg(parser.value(seed));
    }
    if (parser.isSet(requestTimeout)) {
        bool ok = false;
        options.requestTimeoutSeconds = parser.value(requestTimeout).toInt(&ok);
        if (!ok || options.requestTimeoutSeconds < 1 ||
            options.requestTimeoutSeconds > ServeOptions::kMaxRequestTimeoutSeconds)
            return QStringLiteral("--request-timeout: '%1' is not a whole number of seconds from 1 to %2")
                .arg(parser.value(requestTimeout))
                .arg(ServeOptions::kMaxRequestTimeoutSeconds);
    }
    options.caFile = parser.value(caFile);
    if (parser.isSet(caFile) && options.caFile.isEmpty())
        return QStringLiteral("--ca-file needs a file name");
    options.autoConfirm = parser.isSet(autoConfirm);
    return options;
}

} // namespace relaydesk
