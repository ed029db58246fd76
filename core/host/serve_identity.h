// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "host/serve_options.h"

#include <QByteArrayView>
#include <QHostAddress>

#include <optional>

namespace relaydesk {

// Who `relaydesk serve` says it is (docs/behaviour.md §1, docs/harness.md "Region, account and
// URLs"). Pure functions.
//
// One region and one account per broker: a request's signed region (the
// Authorization header's credential scope) does not select another one, and
// an ARN naming another region or account is answered as not existing, with
// a message naming the broker's region and account.

// The broker's identity: region and account from the options, else
// `fromConfig` (the config file's "region"/"account", else the defaults);
// the endpoint is --advertised-url, else http://BIND:PORT where a wildcard
// bind (0.0.0.0, ::) becomes loopback (127.0.0.1, [::1]) — never a URL no
// client can use.
BrokerIdentity serveIdentity(const ServeOptions &options, quint16 port, const BrokerIdentity &fromConfig);

// http://ADDRESS:PORT with an IPv6 address in brackets and a wildcard
// address replaced by loopback.
std::string reachableEndpoint(const QHostAddress &bind, quint16 port);

// The identity the replies to one request use: `broker` with its endpoint
// taken from the request's Host header ("host", "host:port", "[v6]:port"),
// so a client that reached the broker as localhost or host.docker.internal
// gets queue URLs under that name. Nothing (use `broker`) when the broker
// has an advertised URL, the header is missing, or it is not a plain
// host[:port].
std::optional<BrokerIdentity> identityForHost(const BrokerIdentity &broker, bool advertised, QByteArrayView host);

} // namespace relaydesk
