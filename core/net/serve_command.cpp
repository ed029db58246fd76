// SPDX-License-Identifier: MIT
#include "net/serve_command.h"

#include "broker/broker_identity.h"
#include "broker/id_source.h"
#include "broker/notification_signer.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "engine/command_help.h"
#include "engine/delivery_worker.h"
#include "net/broker_config.h"
#include "net/broker_health.h"
#include "net/broker_http_server.h"
#include "net/mock_endpoints.h"
#include "net/serve_identity.h"
#include "net/serve_options.h"
#include "store/database.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSslCertificate>
#include <QSocketNotifier>
#include <QTcpServer>

#include <csignal>
#include <memory>
#include <optional>
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

QString hostText(const QHostAddress &address)
{
    const QString text = address.toString();
    return address.protocol() == QAbstractSocket::IPv6Protocol ? QLatin1Char('[') + text + QLatin1Char(']') : text;
}

// Why `path` cannot serve as the extra CA file (empty: it can).
QString caFileProblem(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return file.errorString();
    if (QSslCertificate::fromData(file.readAll(), QSsl::Pem).isEmpty())
        return QStringLiteral("no PEM certificate in it");
    return {};
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
    // Region and account: the options, else the config file's, else the
    // defaults; the endpoint once the port is known (serve_identity.h).
    BrokerIdentity identity;
    if (!options.configFile.isEmpty()) {
        auto fromFile = readConfigFileIdentity(options.configFile.toStdString(), identity);
        if (!fromFile) {
            print(err, QStringLiteral("relaydesk serve: %1\n").arg(QString::fromStdString(fromFile.error().message)));
            return 1;
        }
        identity = serveIdentity(options, 0, *fromFile);
    }
    std::optional<BrokerConfig> config;   // --config: read and checked whole before anything starts
    if (!options.configFile.isEmpty()) {
        auto read = readBrokerConfigFile(options.configFile.toStdString(), identity);
        if (!read) {
            print(err, QStringLiteral("relaydesk serve: %1\n").arg(QString::fromStdString(read.error().message)));
            return 1;
        }
        config = std::move(read).value();
    }

    QCoreApplication app(argc, argv);   // before the CA file check: Qt's TLS backend is a plugin
    if (!options.caFile.isEmpty()) {       // --ca-file: checked before anything starts
        if (const QString problem = caFileProblem(options.caFile); !problem.isEmpty()) {
            print(err, QStringLiteral("relaydesk serve: --ca-file %1: %2\n").arg(options.caFile, problem));
            return 1;
        }
    }

    if (options.databasePath != QLatin1String(":memory:"))
        QDir().mkpath(QFileInfo(options.databasePath).absolutePath());
    auto database = Database::open(options.databasePath.toStdString());
    if (!database.ok()) {
        print(err, QStringLiteral("relaydesk serve: %1\n").arg(QString::fromStdString(database.status().message())));
        return 1;
    }

    raiseDescriptorLimit();   // connections are capped below it (Http1Server)
    auto listener = std::make_unique<HttpListener>();
    listener->setListenBacklogSize(Http1Server::kListenBacklog);
    if (!listener->listen(options.bind, options.port)) {
        print(err, QStringLiteral("relaydesk serve: cannot listen on %1:%2: %3\n")
                       .arg(hostText(options.bind))
                       .arg(options.port)
                       .arg(listener->errorString()));
        return 1;
    }
    if (options.bindsBeyondLoopback())
        print(err, QStringLiteral("relaydesk serve: warning: listening on %1, reachable from other machines; "
                                  "the broker checks no credentials\n")
                       .arg(hostText(options.bind)));

    const quint16 listenerPort = listener->serverPort();
    identity = serveIdentity(options, listenerPort, identity);

    SystemWallTimeSource wall;
    BrokerEngineOptions engineOptions;
    engineOptions.clockMode = options.clockMode;
    engineOptions.clockScale = options.timeScale;
    BrokerEngine engine(std::move(database).value(), wall, engineOptions);
    // The signing key (SPEC 4.1), generated once and kept in the database.
    auto signer = engine.executeAndWait([](Database &db, ClockTime now) -> Result<std::shared_ptr<NotificationSigner>> {
        auto loaded = NotificationSigner::loadOrCreate(db, now);
        if (!loaded)
            return loaded.error();
        return std::shared_ptr<NotificationSigner>(std::move(loaded).value());
    });
    if (!signer) {
        print(err, QStringLiteral("relaydesk serve: signing key: %1\n").arg(QString::fromStdString(signer.error().message)));
        engine.stop();
        return 1;
    }
    DeliveryWorkerOptions workerOptions;
    workerOptions.requestTimeout = std::chrono::seconds(options.requestTimeoutSeconds);
    workerOptions.jitterFraction = options.jitter;
    workerOptions.jitterSeed = options.seed;
    workerOptions.extraCaFile = options.caFile.toStdString();
    workerOptions.signEnvelope = [signing = *signer](std::string envelope) {
        auto signedEnvelope = signing->signEnvelope(envelope);
        return signedEnvelope ? std::move(signedEnvelope).value() : envelope; // unsigned rather than not sent
    };
    auto worker = std::make_unique<DeliveryWorker>(engine, wall, identity, workerOptions);
    auto service = std::make_unique<BrokerService>(engine, identity);
    service->setDeliveryWorker(worker.get());
    MockEndpoints mocks(engine.clock());
    BrokerHealth health(engine.clock(), identity, options.databasePath.toStdString());   // 503 until ready
    BrokerHttpServer::Options serverOptions;
    serverOptions.advertisedEndpoint = !options.advertisedUrl.isEmpty();
    serverOptions.health = &health;
    serverOptions.autoConfirm = options.autoConfirm;
    serverOptions.mocks = &mocks;
    serverOptions.signingCertificatePem = (*signer)->certificatePem();
    auto server = std::make_unique<BrokerHttpServer>(engine, *service, identity, serverOptions);
    server->bind(listener.release());
    const auto stopSignals = quitOnStopSignals();

    if (config) {   // one unit: a file refused while applying changes nothing
        if (auto applied = applyBrokerConfigAndWait(engine, *service, identity, *config); !applied) {
            print(err, QStringLiteral("relaydesk serve: %1: %2\n")
                           .arg(options.configFile, QString::fromStdString(applied.error().message)));
            server.reset();
            service->setDeliveryWorker(nullptr);
            worker.reset();
            service.reset();
            engine.stop();
            return 1;
        }
    }
    worker->start();
    health.setState(BrokerHealth::State::Ready);
    if (!options.advertisedUrl.isEmpty())
        print(err, QStringLiteral("relaydesk serve: the URLs handed out start with %1\n").arg(options.advertisedUrl));
    // Where it listens, as a client on this machine reaches it (never 0.0.0.0).
    print(out, QStringLiteral("relaydesk: listening on %1\n")
                   .arg(QString::fromStdString(reachableEndpoint(options.bind, listenerPort))));
    const int status = QCoreApplication::exec();
    health.setState(BrokerHealth::State::Stopping);

    server.reset();   // no new requests
    service->setDeliveryWorker(nullptr);
    worker->stop();   // before the engine: requests in flight are dropped, their rows stay pending
    worker.reset();
    service.reset();
    engine.stop();    // commits everything pending
    return status;
}

} // namespace relaydesk
