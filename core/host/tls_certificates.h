// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QStringList>

#include <cstdint>
#include <optional>

namespace relaydesk::tls_certificates {

// The OpenSSL (libcrypto) work of the local CA (host/local_certificate_authority.h):
// keys, certificates and what is checked of them, on PEM bytes. Pure
// functions but for the randomness of keys and serial numbers.

struct Pem {
    QByteArray certificate;
    QByteArray key;
};

// A new CA: ECDSA P-256 key, self-signed, CA:TRUE (pathlen 0), keyCertSign,
// valid from an hour before `now` for `days`. Nothing when OpenSSL fails.
std::optional<Pem> makeAuthority(std::int64_t now, int days);
// A server certificate signed by `authority` for `names` (DNS or IP
// subject alternative names), serverAuth, valid from an hour before `now` for `days`.
std::optional<Pem> issueServer(const Pem &authority, const QStringList &names, std::int64_t now, int days);

// Whether `pem` holds a certificate.
bool isCertificate(const QByteArray &pem);
// Whether `certificate` (PEM) is valid at `at` (seconds since the epoch).
bool validAt(const QByteArray &certificate, std::int64_t at);
// Whether `key` is the private key of `certificate`.
bool keyMatches(const QByteArray &certificate, const QByteArray &key);
// Whether `certificate` was signed by `authority`'s key.
bool signedBy(const QByteArray &certificate, const QByteArray &authority);
// The subject alternative names of `certificate`, as "DNS:name" / "IP:address", sorted.
QStringList alternativeNames(const QByteArray &certificate);
// The same form for names asked for: "IP:" for an address, "DNS:" otherwise, sorted, each once.
QStringList alternativeNamesFor(const QStringList &names);

} // namespace relaydesk::tls_certificates
