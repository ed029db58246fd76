// SPDX-License-Identifier: MIT
#include "host/serve_options.h"

#include "broker/broker_identity.h"
#include "host/request_boundary.h"
#include "host/serve_environment.h"

#include <QCommandLineParser>
#include <QDir>
#include <QStandardPaths>

#include <tuple>
#include <utility>

namespace relaydesk {

namespace {

// The broker options both commands take (one `  --name VALUE   text` line each: the man page and
// the completion are generated from them).
const QString kBrokerOptions = QStringLiteral(
    "  --db PATH|:memory:     database file (default: the application data folder's relaydesk.db)\n"
    "  --bind ADDRESS         address to listen on (default 127.0.0.1; any other prints a warning)\n"
    "  --port N               port (default 9911; 0 picks a free one)\n"
    "  --config FILE          apply a configuration file at start\n"
    "  --amqp-port N|off      Azure Service Bus (AMQP 1.0) port (default 5672; 0 picks a free one; off: none)\n"
    "  --amqps-port N|off     Azure Service Bus over TLS (AMQPS) port (default 5671; 0 picks a free one; off: none)\n"
    "  --amqp-max-connections N  AMQP and AMQPS connections open at once, 1 to 1000000 (default: a quarter of the descriptor limit)\n"
    "  --amqp-open-timeout S  seconds from an AMQP connection's accept to its AMQP open, 1 to 3600 (default 30)\n"
    "  --tls-cert FILE        PEM certificate chain the TLS ports present (default: one issued by the local CA, see 'relaydesk tls ca')\n"
    "  --tls-key FILE         PEM private key of --tls-cert\n"
    "  --sb-management-port N|off  Service Bus management API (ATOM, ServiceBusAdministrationClient) port (default 5300; 0 picks a free one; off: none)\n"
    "  --servicebus-config FILE  create the Service Bus queues and topics of an emulator Config.json\n"
    "  --clock real|scaled|virtual  clock mode (default real; virtual: time moves only when told to advance)\n"
    "  --time-scale X         speed of the scaled clock (e.g. 60)\n"
    "  --jitter FRACTION      retry-delay jitter, 0 to 0.5 (default 0.1): each delay d is drawn from d(1-J)..d(1+J)\n"
    "  --seed N               seed of the jitter, for repeatable runs\n"
    "  --request-timeout S    timeout of one HTTP/S delivery request in (wall) seconds, 1 to 3600 (default 15)\n"
    "  --ca-file FILE         PEM certificates trusted for https endpoints besides the system's (self-signed local endpoints)\n"
    "  --auto-confirm         confirm HTTP/S subscriptions without a confirmation request\n"
    "  --region REGION        the region in every ARN, e.g. eu-west-1 (default: the config file's, else us-east-1)\n"
    "  --account ID           the 12-digit account id in ARNs and queue URLs (default: the config file's, else 000000000000)\n"
    "  --advertised-url URL   base of every URL handed out, e.g. http://host.docker.internal:9911 (default: queue URLs follow the request's Host)\n"
    "  --allow-host NAME      also answer requests whose Host is NAME, any port (repeatable), e.g. a name containers use for this machine (loopback, the bind address and the --advertised-url host are answered anyway)\n"
    "  --credentials FILE     require AWS signatures (SQS, SNS) and bearer tokens (native API, Zaqar, /metrics) from the keys in FILE (JSON; see docs/configuration.md)\n");
const QString kServeOnlyOptions = QStringLiteral(
    "  --ready-file FILE      once every port listens, write their URLs to FILE (JSON, written whole); removed at a clean stop\n");
const QString kEveryCommandOptions = QStringLiteral(
    "  -h, --help             this text\n"
    "  --version              the version\n");

// The browser boundary (host/request_boundary.h), in both usages.
const QString kBoundaryNote = QStringLiteral(
    "Web pages cannot drive it: a request with an Origin other than its own, or with a Host other than loopback,\n"
    "the bind address, the --advertised-url host or an --allow-host name, is refused.\n");

const QString kServeHelp =
    QStringLiteral("Usage: relaydesk serve [options]\n"
                   "\n"
                   "The headless broker: SQS (JSON and query protocols), SNS and the native JSON API on one port.\n"
                   "\n"
                   "Options:\n") +
    kBrokerOptions + kServeOnlyOptions + kEveryCommandOptions +
    QStringLiteral("\n"
                   "When ready it prints one line, relaydesk: listening on http://HOST:PORT (127.0.0.1 for a wildcard bind),\n"
                   "and GET /health answers 200.\n"
                   "It stops on SIGINT, SIGTERM or SIGHUP with everything committed.\n"
                   "Every option can also come from the environment: --allow-host from RELAYDESK_ALLOW_HOST, --clock from\n"
                   "RELAYDESK_CLOCK, and so on (a flag: true or false; --allow-host: names separated by commas); the command\n"
                   "line wins.\n") +
    kBoundaryNote;

const QString kWindowHelp =
    QStringLiteral("Usage: relaydesk [options]\n"
                   "\n"
                   "The window, with its own broker: SQS, SNS and the native JSON API on one port, shared with your code.\n"
                   "\n"
                   "Options:\n") +
    kBrokerOptions + kEveryCommandOptions +
    QStringLiteral("\n"
                   "Without --port the window takes 9911, or the next free port when 9911 is taken.\n"
                   "When ready it prints one line: relaydesk: listening on http://HOST:PORT\n") +
    kBoundaryNote;

QString defaultDatabasePath()
{
    const QString folder = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(folder.isEmpty() ? QDir::homePath() : folder).filePath(QStringLiteral("relaydesk.db"));
}

// --region, --account, --advertised-url into `options`; the usage error, if any.
QString readIdentityOptions(const QCommandLineParser &parser, const QCommandLineOption &region,
                            const QCommandLineOption &account, const QCommandLineOption &advertisedUrl,
                            ServeOptions &options)
{
    BrokerIdentity check;   // the defaults, each option checked alone so the message names it
    options.region = parser.value(region);
    options.accountId = parser.value(account);
    options.advertisedUrl = parser.value(advertisedUrl);
    while (options.advertisedUrl.endsWith(QLatin1Char('/')))
        options.advertisedUrl.chop(1);
    const std::pair<const QCommandLineOption *, std::string *> fields[] = {
        {&region, &check.region}, {&account, &check.accountId}, {&advertisedUrl, &check.endpoint}};
    for (const auto &[option, field] : fields) {
        if (!parser.isSet(*option))
            continue;
        const std::string before = *field;
        *field = option == &advertisedUrl ? options.advertisedUrl.toStdString() : parser.value(*option).toStdString();
        if (Status valid = check.validate(); !valid)
            return QStringLiteral("--%1: '%2': %3")
                .arg(option->names().constFirst(), parser.value(*option), QString::fromStdString(valid.error().message));
        *field = before;
    }
    return {};
}

} // namespace

QString serveOptionsHelp() { return kServeHelp; }
QString windowOptionsHelp() { return kWindowHelp; }

namespace {

// parseServeOptions, with the options the environment supplied in `fromEnvironment`.
std::variant<ServeOptions, QString> readServeOptions(const QStringList &arguments, OptionsFor command,
                                                     const QProcessEnvironment &environment,
                                                     EnvironmentOptions &fromEnvironment)
{
    QCommandLineParser parser;
    parser.setSingleDashWordOptionMode(QCommandLineParser::ParseAsLongOptions);
    const QCommandLineOption db(QStringLiteral("db"), {}, QStringLiteral("PATH"));
    const QCommandLineOption bind(QStringLiteral("bind"), {}, QStringLiteral("ADDRESS"));
    const QCommandLineOption port(QStringLiteral("port"), {}, QStringLiteral("N"));
    const QCommandLineOption config(QStringLiteral("config"), {}, QStringLiteral("FILE"));
    const QCommandLineOption amqpPort(QStringLiteral("amqp-port"), {}, QStringLiteral("N"));
    const QCommandLineOption amqpsPort(QStringLiteral("amqps-port"), {}, QStringLiteral("N"));
    const QCommandLineOption amqpMaxConnections(QStringLiteral("amqp-max-connections"), {}, QStringLiteral("N"));
    const QCommandLineOption amqpOpenTimeout(QStringLiteral("amqp-open-timeout"), {}, QStringLiteral("SECONDS"));
    const QCommandLineOption tlsCert(QStringLiteral("tls-cert"), {}, QStringLiteral("FILE"));
    const QCommandLineOption tlsKey(QStringLiteral("tls-key"), {}, QStringLiteral("FILE"));
    const QCommandLineOption managementPort(QStringLiteral("sb-management-port"), {}, QStringLiteral("N"));
    const QCommandLineOption serviceBusConfig(QStringLiteral("servicebus-config"), {}, QStringLiteral("FILE"));
    const QCommandLineOption clock(QStringLiteral("clock"), {}, QStringLiteral("MODE"));
    const QCommandLineOption scale(QStringLiteral("time-scale"), {}, QStringLiteral("X"));
    const QCommandLineOption jitter(QStringLiteral("jitter"), {}, QStringLiteral("FRACTION"));
    const QCommandLineOption seed(QStringLiteral("seed"), {}, QStringLiteral("N"));
    const QCommandLineOption requestTimeout(QStringLiteral("request-timeout"), {}, QStringLiteral("SECONDS"));
    const QCommandLineOption caFile(QStringLiteral("ca-file"), {}, QStringLiteral("FILE"));
    const QCommandLineOption autoConfirm(QStringLiteral("auto-confirm"));
    const QCommandLineOption region(QStringLiteral("region"), {}, QStringLiteral("REGION"));
    const QCommandLineOption account(QStringLiteral("account"), {}, QStringLiteral("ID"));
    const QCommandLineOption advertisedUrl(QStringLiteral("advertised-url"), {}, QStringLiteral("URL"));
    const QCommandLineOption allowHost(QStringLiteral("allow-host"), {}, QStringLiteral("NAME"));
    const QCommandLineOption credentials(QStringLiteral("credentials"), {}, QStringLiteral("FILE"));
    const QCommandLineOption readyFile(QStringLiteral("ready-file"), {}, QStringLiteral("FILE"));
    const QCommandLineOption help(QStringList{QStringLiteral("help"), QStringLiteral("h")});
    const QCommandLineOption version(QStringLiteral("version"));
    // Every option but --help and --version, so also from the environment.
    const QList<QCommandLineOption> settable{db, bind, port, config, amqpPort, serviceBusConfig, clock, scale, jitter,
                                             seed, requestTimeout, caFile, autoConfirm, region, account, advertisedUrl,
                                             allowHost, credentials, readyFile, amqpsPort, tlsCert, tlsKey,
                                             managementPort, amqpMaxConnections, amqpOpenTimeout};
    parser.addOptions(settable);
    parser.addOptions({help, version});
    const QString program = command == OptionsFor::Serve ? QStringLiteral("relaydesk serve") : QStringLiteral("relaydesk");
    if (!parser.parse(QStringList{program} + arguments))
        return parser.errorText();
    if (!parser.positionalArguments().isEmpty())
        return QStringLiteral("unexpected argument '%1'").arg(parser.positionalArguments().first());
    if (command == OptionsFor::Window && parser.isSet(readyFile))
        return QStringLiteral("--ready-file is an option of relaydesk serve");
    // The environment's options go first, so the command line's come last and win.
    auto found = optionsFromEnvironment(parser, settable, {allowHost},
                                        command == OptionsFor::Serve ? environment : QProcessEnvironment());
    if (const QString *refused = std::get_if<QString>(&found))
        return *refused;
    fromEnvironment = std::get<EnvironmentOptions>(std::move(found));
    if (!fromEnvironment.arguments.isEmpty() && !parser.parse(QStringList{program} + fromEnvironment.arguments + arguments))
        return parser.errorText();

    ServeOptions options;
    options.showHelp = parser.isSet(help);
    options.showVersion = parser.isSet(version);
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
    options.serviceBusConfigFile = parser.value(serviceBusConfig);
    for (const auto &[option, field] : {std::pair{&amqpPort, &options.amqpPort}, std::pair{&amqpsPort, &options.amqpsPort},
                                        std::pair{&managementPort, &options.managementPort}}) {
        if (!parser.isSet(*option))
            continue;
        bool ok = false;
        const uint value = parser.value(*option).toUInt(&ok);
        if (parser.value(*option) == QLatin1String("off"))
            field->reset();
        else if (!ok || value > 65535)
            return QStringLiteral("--%1: '%2' is not a port number (0–65535) or off")
                .arg(option->names().constFirst(), parser.value(*option));
        else
            *field = static_cast<quint16>(value);
    }
    for (const auto &[option, field, most, unit] :
         {std::tuple{&amqpMaxConnections, &options.amqpMaxConnections, ServeOptions::kMaxAmqpConnections, "connections"},
          std::tuple{&amqpOpenTimeout, &options.amqpOpenTimeoutSeconds, ServeOptions::kMaxAmqpOpenTimeoutSeconds,
                     "seconds"}}) {
        if (!parser.isSet(*option))
            continue;
        bool ok = false;
        *field = parser.value(*option).toInt(&ok);
        if (!ok || *field < 1 || *field > most)
            return QStringLiteral("--%1: '%2' is not a whole number of %3 from 1 to %4")
                .arg(option->names().constFirst(), parser.value(*option), QLatin1String(unit))
                .arg(most);
    }
    options.tlsCertificateFile = parser.value(tlsCert);
    options.tlsKeyFile = parser.value(tlsKey);
    if (options.tlsCertificateFile.isEmpty() != options.tlsKeyFile.isEmpty())
        return QStringLiteral("--tls-cert and --tls-key go together: the certificate chain and its private key");
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
    if (const QString problem = readIdentityOptions(parser, region, account, advertisedUrl, options); !problem.isEmpty())
        return problem;
    for (const QString &host : parser.values(allowHost)) {
        RequestBoundary::Hosts check;
        if (!check.add(host))
            return QStringLiteral("--allow-host: '%1' is not a host name or an IP address without a port (any port is "
                                  "accepted)")
                .arg(host);
        options.allowHosts.append(host);
    }
    options.credentialsFile = parser.value(credentials);
    if (parser.isSet(credentials) && options.credentialsFile.isEmpty())
        return QStringLiteral("--credentials needs a file name");
    options.readyFile = parser.value(readyFile);
    if (parser.isSet(readyFile) && options.readyFile.isEmpty())
        return QStringLiteral("--ready-file needs a file name");
    return options;
}

} // namespace

std::variant<ServeOptions, QString> parseServeOptions(const QStringList &arguments, OptionsFor command,
                                                      const QProcessEnvironment &environment)
{
    EnvironmentOptions fromEnvironment;
    auto parsed = readServeOptions(arguments, command, environment, fromEnvironment);
    if (const QString *problem = std::get_if<QString>(&parsed))
        return nameTheVariable(*problem, fromEnvironment);   // a value from the environment: its variable named
    return parsed;
}

} // namespace relaydesk
