// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QString>

#include <optional>
#include <string>

namespace relaydesk {

struct HttpDeliveryRequest;

// Where an HTTP/1.1 connection goes: scheme, host and port. Connections are
// pooled per origin.
struct Http1Origin {
    bool tls = false;  // https
    QString host;      // as in the URL (lowercase name, or an address without brackets)
    quint16 port = 0;  // explicit or the scheme's default

    std::string key() const;
};

// A delivery POST as bytes on the wire, and the origin it goes to.
struct Http1Request {
    Http1Origin origin;
    QByteArray wire;
};

// Writes `request` as one HTTP/1.1 message: `POST <path?query> HTTP/1.1`,
// Host (with the port when it is not the scheme's default), the caller's
// headers (except Host, Content-Length, Transfer-Encoding and Connection,
// which are ours; CR/LF in a value become spaces), Authorization Basic when
// the URL carries user info and the caller set none, Content-Length,
// `Connection: keep-alive`, then the body. Returns nothing and sets `error`
// when the URL is not an absolute http/https URL with a host.
std::optional<Http1Request> http1PostFor(const HttpDeliveryRequest &request, std::string &error);

} // namespace relaydesk
