// SPDX-License-Identifier: MIT
#pragma once

#include "api/wire/wire_error.h"

#include <QHostAddress>
#include <QList>
#include <QString>

#include <optional>
#include <string>
#include <vector>

namespace relaydesk {

class HttpRequest;
struct ServeOptions;

// The browser boundary of the broker's port (docs/behaviour.md §8.2.1): the requests a
// web page could make a developer's browser send, refused before any route
// sees them (mock endpoints, /health and /metrics included).
//
//  - Host: the broker answers only to the names and addresses it is reached
//    under — loopback (`localhost`, `NAME.localhost`, 127.0.0.0/8, [::1]),
//    the addresses it listens on, the --advertised-url host, the
//    --allow-host names and addresses — on any port (a forwarded port, ssh -L
//    or docker -p, changes it; the name is what DNS rebinding cannot fake).
//    Anything else is 421 MisdirectedRequest, whose message names the
//    option that allows it. An HTTP/1.0 request without Host passes (such
//    clients may omit it, no browser does); HTTP/1.1 without Host is 400
//    (RFC 9112 §3.2). More than one Host is refused. An absolute-form
//    target ("GET http://HOST/…") names its host in place of the Host
//    header (RFC 9112 §3.2.2) and is checked as that host.
//    The header is read as RFC 3986's host[:port] and nothing more: no
//    user info, no percent-encoding, no zone id, an IPv4 address only in
//    dotted decimal, IPv6 only in brackets; a name may end in one dot.
//  - Origin: a request carrying one comes from a web page. It passes only
//    from the broker's own origin — http or https, with the Host header's
//    host and port (the scheme's default when either has none); any other,
//    `null` included, is 403 AccessDenied, preflights (OPTIONS) too. The
//    broker never answers with Access-Control-Allow-* headers.
//
// Plain value type; check() is pure.
class RequestBoundary final {
public:
    // Whom the broker answers to besides loopback.
    struct Hosts {
        std::vector<std::string> names;   // lowercase, without a trailing dot
        QList<QHostAddress> addresses;

        // Adds `host` as --allow-host takes it: a name, an IPv4 address in
        // dotted decimal or an IPv6 address (brackets optional), without a
        // port. False, adding nothing, when it is none of these.
        bool add(const QString &host);
    };

    RequestBoundary() = default;          // loopback only
    explicit RequestBoundary(Hosts hosts);

    // Nothing when `request` may pass, else the refusal to answer it with.
    std::optional<WireError> check(const HttpRequest &request) const;

private:
    Hosts m_hosts;
};

// Whom a broker started with `options` answers to: the bind address (for a
// wildcard bind, every address of the machine's interfaces at start), the
// --advertised-url host, the --allow-host values.
RequestBoundary::Hosts brokerHosts(const ServeOptions &options);

} // namespace relaydesk
