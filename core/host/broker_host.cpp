// SPDX-License-Identifier: MIT
#include "host/broker_host.h"

#include "config/servicebus_config.h"
#include "api/servicebus/servicebus_endpoint.h"
#include "broker/id_source.h"
#include "broker/deliveries/notification_signer.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "engine/delivery_worker.h"
#include "engine/metrics_recording.h"
#include "engine/waiter_registry.h"
#include "config/broker_config.h"
#include "host/broker_credentials.h"
#include "host/broker_health.h"
#include "host/broker_http_server.h"
#include "host/local_certificate_authority.h"
#include "host/request_boundary.h"
#include "http/http1_server.h"
#include "http/tls_server_context.h"
#include "mock/mock_endpoints.h"
#include "host/serve_identity.h"
#include "host/servicebus_management_server.h"
#include "engine/broker_database.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSslCertificate>

#include <optional>

namespace relaydesk {

namespace {

constexpr int kFurtherPorts = 100; // how far nextFreePort looks past a taken port

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

BrokerHostProblem problem(BrokerHostProblem::Kind kind, QString message)
{
    return BrokerHostProblem{kind, StoreStatus::Kind::Ok, std::move(message)};
}

// The certificate the TLS ports present: the user's own, checked, or the
// local CA's server certificate for the broker's names; why not.
std::variant<TlsFiles, QString> tlsCertificate(const ServeOptions &options)
{
    if (!options.tlsCertificateFile.isEmpty()) {
        const TlsFiles own{options.tlsCertificateFile, options.tlsKeyFile};
        if (const QString why = tlsFilesProblem(own); !why.isEmpty())
            return why;
        return own;
    }
    // Certificates are valid in real time, whatever the broker's clock.
    const LocalCertificateAuthority authority(LocalCertificateAuthority::defaultFolder());
    auto issued = authority.serverCertificate(serverCertificateNames(options), QDateTime::currentSecsSinceEpoch());
    if (const QString *why = std::get_if<QString>(&issued))
        return QStringLiteral("local CA: %1").arg(*why);
    return issued;
}

QString loopbackForWildcard(const QHostAddress &bind)
{
    return urlHostText(bind.isEqual(QHostAddress::AnyIPv4) || bind.isEqual(QHostAddress::Any)
                           ? QHostAddress(QHostAddress::LocalHost)
                           : bind);
}

// The listening socket on `port`, or with `nextFreePort` the first free one
// after it; the error of the port asked for otherwise.
std::variant<std::unique_ptr<HttpListener>, QString> listen(const QHostAddress &bind, quint16 port, bool nextFreePort)
{
    auto listener = std::make_unique<HttpListener>();
    listener->setListenBacklogSize(Http1Server::kListenBacklog);
    if (listener->listen(bind, port))
        return listener;
    const QString error = listener->errorString();
    if (nextFreePort && port != 0) {
        for (int next = port + 1; next <= port + kFurtherPorts && next <= 65535; ++next) {
            if (listener->listen(bind, static_cast<quint16>(next)))
                return listener;
        }
    }
    return QStringLiteral("cannot listen on %1:%2: %3").arg(urlHostText(bind)).arg(port).arg(error);
}

} // namespace

QString urlHostText(const QHostAddress &address)
{
    const QString text = address.toString();
    return address.protocol() == QAbstractSocket::IPv6Protocol ? QLatin1Char('[') + text + QLatin1Char(']') : text;
}

std::variant<std::unique_ptr<BrokerHost>, BrokerHostProblem> BrokerHost::start(const ServeOptions &options,
                                                                             bool nextFreePort)
{
    // Region and account: the options, else the config file's, else the
    // defaults; the endpoint once the port is known (serve_identity.h).
    BrokerIdentity identity;
    if (!options.configFile.isEmpty()) {
        auto fromFile = readConfigFileIdentity(options.configFile.toStdString(), identity);
        if (!fromFile)
            return problem(BrokerHostProblem::Kind::Config, QString::fromStdString(fromFile.error().message));
        identity = serveIdentity(options, 0, *fromFile);
    }
    std::optional<BrokerConfig> config; // read and checked whole before anything starts
    if (!options.configFile.isEmpty()) {
        auto read = readBrokerConfigFile(options.configFile.toStdString(), identity);
        if (!read)
            return problem(BrokerHostProblem::Kind::Config, QString::fromStdString(read.error().message));
        config = std::move(read).value();
    }
    ServiceBusConfig serviceBusConfig;
    if (!options.serviceBusConfigFile.isEmpty()) {
        auto read = readServiceBusConfigFile(options.serviceBusConfigFile.toStdString());
        if (!read)
            return problem(BrokerHostProblem::Kind::Config, QString::fromStdString(read.error().message));
        serviceBusConfig = std::move(read).value();
    }
    if (!options.caFile.isEmpty()) {
        if (const QString why = caFileProblem(options.caFile); !why.isEmpty())
            return problem(BrokerHostProblem::Kind::CaFile, QStringLiteral("--ca-file %1: %2").arg(options.caFile, why));
    }

    const bool tlsPorts = options.amqpsPort || options.managementPort;   // AMQPS, the management port's TLS connections
    TlsFiles tls;
    if (tlsPorts) {
        auto chosen = tlsCertificate(options);
        if (auto *why = std::get_if<QString>(&chosen))
            return problem(BrokerHostProblem::Kind::Tls, *why);
        tls = std::get<TlsFiles>(std::move(chosen));
    }

    std::shared_ptr<const BrokerCredentials> credentials;
    if (!options.credentialsFile.isEmpty()) {
        auto read = readCredentialsFile(options.credentialsFile);
        if (auto *why = std::get_if<QString>(&read))
            return problem(BrokerHostProblem::Kind::Credentials, *why);
        credentials = std::make_shared<const BrokerCredentials>(std::get<BrokerCredentials>(std::move(read)));
    }

    if (options.databasePath != QLatin1String(":memory:"))
        QDir().mkpath(QFileInfo(options.databasePath).absolutePath());
    auto database = openBrokerDatabase(options.databasePath.toStdString());
    if (!database.ok())
        return BrokerHostProblem{BrokerHostProblem::Kind::Database, database.status().kind(),
                                 QString::fromStdString(database.status().message())};

    raiseDescriptorLimit(); // connections are capped below it (Http1Server)
    auto listened = listen(options.bind, options.port, nextFreePort);
    if (auto *error = std::get_if<QString>(&listened))
        return problem(BrokerHostProblem::Kind::Port, *error);
    auto listener = std::get<std::unique_ptr<HttpListener>>(std::move(listened));

    std::unique_ptr<BrokerHost> host(new BrokerHost);
    host->m_databasePath = options.databasePath;
    host->m_port = listener->serverPort();
    host->m_portMoved = options.port != 0 && host->m_port != options.port;
    host->m_identity = serveIdentity(options, host->m_port, identity);
    // Where it listens, as a client on this machine reaches it (never 0.0.0.0).
    host->m_endpointUrl = QString::fromStdString(reachableEndpoint(options.bind, host->m_port));

    host->m_wall = std::make_unique<SystemWallTimeSource>();
    BrokerEngineOptions engineOptions;
    engineOptions.clockMode = options.clockMode;
    engineOptions.clockScale = options.timeScale;
    host->m_engine = std::make_unique<BrokerEngine>(std::move(database).value(), *host->m_wall, engineOptions);
    BrokerEngine &engine = *host->m_engine;
    // The signing key (docs/behaviour.md §4.1), generated once and kept in the database.
    auto signer = engine.executeAndWait([](Database &db, ClockTime now) -> Result<std::shared_ptr<NotificationSigner>> {
        auto loaded = NotificationSigner::loadOrCreate(db, now);
        if (!loaded)
            return loaded.error();
        return std::shared_ptr<NotificationSigner>(std::move(loaded).value());
    });
    if (!signer)
        return problem(BrokerHostProblem::Kind::SigningKey,
                       QStringLiteral("signing key: %1").arg(QString::fromStdString(signer.error().message)));

    DeliveryWorkerOptions workerOptions;
    workerOptions.requestTimeout = std::chrono::seconds(options.requestTimeoutSeconds);
    workerOptions.jitterFraction = options.jitter;
    workerOptions.jitterSeed = options.seed;
    workerOptions.extraCaFile = options.caFile.toStdString();
    workerOptions.signEnvelope = [signing = *signer](std::string envelope) {
        auto signedEnvelope = signing->signEnvelope(envelope);
        return signedEnvelope ? std::move(signedEnvelope).value() : envelope; // unsigned rather than not sent
    };
    host->m_worker = std::make_unique<DeliveryWorker>(engine, *host->m_wall, host->m_identity, workerOptions);
    host->m_service = std::make_unique<BrokerService>(engine, host->m_identity);
    host->m_service->setDeliveryWorker(host->m_worker.get());
    host->m_service->setEnvelopeSigner(workerOptions.signEnvelope);   // SNS envelopes into queues, signed as AWS does
    host->m_mocks = std::make_unique<MockEndpoints>(engine.clock());
    host->m_health = std::make_unique<BrokerHealth>(engine.clock(), host->m_identity,
                                                    options.databasePath.toStdString()); // 503 until ready
    BrokerHttpServer::Options serverOptions;
    serverOptions.advertisedEndpoint = !options.advertisedUrl.isEmpty();
    serverOptions.health = host->m_health.get();
    serverOptions.autoConfirm = options.autoConfirm;
    serverOptions.mocks = host->m_mocks.get();
    serverOptions.signingCertificatePem = (*signer)->certificatePem();
    serverOptions.boundary = RequestBoundary(brokerHosts(options));
    if (credentials)
        serverOptions.credentials = RequestCredentials(credentials);
    host->m_server = std::make_unique<BrokerHttpServer>(engine, *host->m_service, host->m_identity, serverOptions);
    host->m_server->bind(listener.release());

    if (config) { // one unit: a file refused while applying changes nothing
        if (auto applied = applyBrokerConfigAndWait(engine, *host->m_service, host->m_identity, *config); !applied)
            return problem(BrokerHostProblem::Kind::Config,
                           QStringLiteral("%1: %2").arg(options.configFile, QString::fromStdString(applied.error().message)));
    }
    if (!serviceBusConfig.queues.empty() || !serviceBusConfig.topics.empty()) {
        if (Status applied = applyServiceBusConfigAndWait(engine, host->m_identity, serviceBusConfig); !applied)
            return problem(BrokerHostProblem::Kind::Config,
                           QStringLiteral("%1: %2").arg(options.serviceBusConfigFile,
                                                        QString::fromStdString(applied.error().message)));
    }
    if (options.amqpPort || options.amqpsPort) { // the window moves to a free port rather than fail when a port is taken
        ServiceBusEndpoint::Ports ports{options.amqpPort, options.amqpsPort, tls.certificate, tls.key, nextFreePort};
        ports.maxConnections = static_cast<std::size_t>(options.amqpMaxConnections);
        ports.openTimeout = std::chrono::seconds(options.amqpOpenTimeoutSeconds);
        auto endpoint = ServiceBusEndpoint::start(*host->m_service, options.bind, ports,
                                                  serverOptions.credentials.sharedAccess());
        if (auto *error = std::get_if<QString>(&endpoint))
            return problem(BrokerHostProblem::Kind::Port, *error);
        host->m_serviceBus = std::get<std::unique_ptr<ServiceBusEndpoint>>(std::move(endpoint));
        if (options.amqpPort)
            host->m_amqpUrl = QStringLiteral("amqp://%1:%2").arg(loopbackForWildcard(options.bind)).arg(host->m_serviceBus->port());
        if (options.amqpsPort)
            host->m_amqpsUrl = QStringLiteral("amqps://%1:%2").arg(loopbackForWildcard(options.bind)).arg(host->m_serviceBus->tlsPort());
    }
    if (options.managementPort) { // the window moves to a free port rather than fail when the port is taken
        auto context = TlsServerContext::load(tls.certificate, tls.key);
        if (auto *why = std::get_if<QString>(&context))
            return problem(BrokerHostProblem::Kind::Tls, *why);
        ServiceBusManagementServer::Options managementOptions{serverOptions.boundary, serverOptions.credentials,
                                                              std::get<std::shared_ptr<const TlsServerContext>>(context)};
        auto management = ServiceBusManagementServer::start(*host->m_service, options.bind, *options.managementPort,
                                                            managementOptions);
        if (std::holds_alternative<QString>(management) && nextFreePort)
            management = ServiceBusManagementServer::start(*host->m_service, options.bind, 0, managementOptions);
        if (auto *error = std::get_if<QString>(&management))
            return problem(BrokerHostProblem::Kind::Port, *error);
        host->m_management = std::get<std::unique_ptr<ServiceBusManagementServer>>(std::move(management));
        // The port answers TLS and plain HTTP alike; the SDKs build https:// URLs.
        host->m_managementUrl = QString::fromStdString(reachableEndpoint(options.bind, host->m_management->port()))
                                    .replace(QStringLiteral("http://"), QStringLiteral("https://"));
    }
    if (tlsPorts && options.tlsCertificateFile.isEmpty()) // the TLS ports present the local CA's
        host->m_tlsAuthorityPath = LocalCertificateAuthority(LocalCertificateAuthority::defaultFolder()).certificatePath();
    // The mock endpoints of the user's set-up (those of --config included), from the store.
    if (Status kept = host->m_mocks->keepIn(engine); !kept)
        return problem(BrokerHostProblem::Kind::Database,
                       QStringLiteral("mock endpoints: %1").arg(QString::fromStdString(kept.error().message)));
    refreshQueueDepths(engine, nullptr, {}); // the gauges start from the store
    host->m_worker->start();
    host->m_health->setState(BrokerHealth::State::Ready);
    return host;
}

BrokerMetrics &BrokerHost::metrics() const { return m_engine->metrics(); }

BrokerHost::~BrokerHost()
{
    if (m_health)
        m_health->setState(BrokerHealth::State::Stopping);
    m_serviceBus.reset(); // no new AMQP work; its connections close
    m_management.reset();
    m_server.reset(); // no new requests
    if (m_service)
        m_service->setDeliveryWorker(nullptr);
    if (m_worker)
        m_worker->stop(); // before the engine: requests in flight are dropped, their rows stay pending
    m_worker.reset();
    m_service.reset();
    m_mocks.reset();
    if (m_engine)
        m_engine->stop(); // commits everything pending
    m_engine.reset();
}

void BrokerHost::beginStop()
{
    m_server->stopAccepting();
    if (m_management)
        m_management->stopAccepting();
    BrokerEngine &engine = *m_engine;
    engine.postAndWait([&engine] { engine.waiters().endAll(); });
}

std::size_t BrokerHost::owedAnswers() const
{
    return m_server->transport().owedAnswers() + (m_management ? m_management->owedAnswers() : 0);
}

} // namespace relaydesk
