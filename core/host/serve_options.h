// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock.h"
#include "policy/jitter_sampler.h"

#include <QHostAddress>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <cstdint>
#include <optional>
#include <variant>

namespace relaydesk {

// The options of `relaydesk serve` (docs/behaviour.md §8.1), parsed and range-checked.
// Plain value type.
struct ServeOptions {
    static constexpr quint16 kDefaultPort = 9911;

    QString databasePath;             // ":memory:" or a file; default: AppDataLocation/relaydesk.db
    QHostAddress bind = QHostAddress::LocalHost;
    quint16 port = kDefaultPort;      // 0: any free port
    bool portGiven = false;           // --port was on the command line (the window then keeps to it)
    QString configFile;               // empty: none
    // Azure Service Bus over AMQP (docs/behaviour.md §8.6): its port (0: any free port;
    // empty: off) and the emulator Config.json applied at start (empty: none).
    static constexpr quint16 kDefaultAmqpPort = 5672;
    std::optional<quint16> amqpPort = kDefaultAmqpPort;
    QString serviceBusConfigFile;
    // Service Bus over TLS (docs/behaviour.md §8.7): its port (0: any free
    // port; empty: off), and the certificate and key it presents: the user's
    // own (--tls-cert, --tls-key, both or neither), else the local CA's
    // (host/local_certificate_authority.h).
    static constexpr quint16 kDefaultAmqpsPort = 5671;
    std::optional<quint16> amqpsPort = kDefaultAmqpsPort;
    QString tlsCertificateFile;
    QString tlsKeyFile;
    // What an AMQP peer may hold (docs/reliability.md "AMQP port"): the
    // connections open at once on the AMQP and AMQPS ports together (0: a
    // quarter of the descriptor limit) and the seconds from a connection's
    // accept to its AMQP open.
    int amqpMaxConnections = 0;
    static constexpr int kMaxAmqpConnections = 1'000'000;
    int amqpOpenTimeoutSeconds = 30;
    static constexpr int kMaxAmqpOpenTimeoutSeconds = 3600;
    // The Service Bus management API (ATOM over HTTP, docs/api.md "Service Bus
    // management"): its port, the emulator's 5300 by default (0: any free
    // port; empty: off).
    static constexpr quint16 kDefaultManagementPort = 5300;
    std::optional<quint16> managementPort = kDefaultManagementPort;
    ClockMode clockMode = ClockMode::Real;
    double timeScale = 1.0;           // scaled mode
    double jitter = JitterSampler::kDefaultFraction; // 0–kMaxFraction (docs/behaviour.md §3.5), fraction of each retry delay
    std::optional<std::uint64_t> seed;
    int requestTimeoutSeconds = 15;   // per HTTP/S delivery request (docs/behaviour.md §4.1), wall time, 1–kMaxRequestTimeoutSeconds
    static constexpr int kMaxRequestTimeoutSeconds = 3600;
    QString caFile;                   // PEM of CA certificates trusted for https endpoints besides the system's; empty: none
    bool autoConfirm = false;
    bool showHelp = false;
    bool showVersion = false;
    // Who the broker says it is (docs/behaviour.md §1): empty = the config file's
    // "region"/"account", else the defaults (us-east-1, 000000000000).
    // Checked by parseServeOptions (BrokerIdentity::validate's rules).
    QString region;
    QString accountId;
    // --advertised-url: the base of every URL the broker hands out (queue
    // URLs, SubscribeURL, UnsubscribeURL, SigningCertURL), "http(s)://HOST[:PORT]"
    // without a trailing slash. Empty: derived (see serve_identity.h).
    QString advertisedUrl;
    // --allow-host (repeatable): names and addresses the broker answers to
    // besides loopback, its own addresses and the advertised URL's host
    // (host/request_boundary.h), as given; each checked by parseServeOptions.
    QStringList allowHosts;
    // --credentials FILE: the access keys, bearer tokens and Service Bus key
    // names clients must present (host/broker_credentials.h); read by
    // BrokerHost::start. Empty: none required.
    QString credentialsFile;
    // --ready-file FILE (serve only): written once every port listens, removed at a
    // clean stop (host/ready_file.h). Empty: none.
    QString readyFile;

    // A bind address other than loopback: the caller prints a warning.
    bool bindsBeyondLoopback() const { return !bind.isLoopback(); }
};

// Who parses: `relaydesk serve` or the window (`relaydesk [options]`), which
// takes the same broker options (one parser for both) and only words its
// usage differently.
enum class OptionsFor { Serve, Window };

// The options or the usage error's message. For `serve`, `environment` supplies the
// options the command line leaves out (RELAYDESK_<OPTION>, host/serve_environment.h);
// the window reads none. Pure.
std::variant<ServeOptions, QString> parseServeOptions(const QStringList &arguments,
                                                      OptionsFor command = OptionsFor::Serve,
                                                      const QProcessEnvironment &environment = {});

QString serveOptionsHelp();
// The usage of the window's command line (`relaydesk [options]`).
QString windowOptionsHelp();

} // namespace relaydesk
