// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>
#include <variant>

namespace relaydesk {

struct ServeOptions;

// A certificate and its private key, as PEM files.
struct TlsFiles {
    QString certificate;
    QString key;
};

// The user's local certificate authority (docs/behaviour.md §8.7): a CA kept
// in one folder (by default beside the window's and serve's data,
// AppDataLocation/tls), made on first use, and the broker's server
// certificate issued from it for the names clients reach the broker by.
//  - relaydesk-ca.pem (the CA certificate: the one file a user trusts) and
//    relaydesk-ca-key.pem; server.pem and server-key.pem. Keys are ECDSA
//    P-256, written with mode 0600; every file is written whole to a
//    temporary file and renamed, so a reader sees the old file or the new one.
//  - The CA lives kAuthorityDays; it is made again (and must be trusted
//    again) only when missing, unreadable or within kRenewBeforeDays of its end.
//  - The server certificate lives kServerDays; it is issued again when its
//    names differ from those asked for, when it is within kRenewBeforeDays
//    of its end, or when the CA that signed it is not the CA on disk.
//  - A lock file (QLockFile) keeps a window and a serve from making two CAs at once.
// Times are seconds since the epoch, given by the caller (tests move them).
// Thread: any; one object per caller.
class LocalCertificateAuthority final {
public:
    static constexpr int kAuthorityDays = 3650;
    static constexpr int kServerDays = 397;   // what browsers and Apple accept of any certificate
    static constexpr int kRenewBeforeDays = 30;

    // AppDataLocation/tls (the application's names must be set first).
    static QString defaultFolder();

    explicit LocalCertificateAuthority(QString folder);

    QString certificatePath() const;
    // Makes the CA when it must (see above); the error in words, or empty.
    QString ensureAuthority(std::int64_t now) const;
    // The server certificate for `names` (host names and IP addresses),
    // issued when it must be; or why not.
    std::variant<TlsFiles, QString> serverCertificate(const QStringList &names, std::int64_t now) const;

private:
    QString path(const char *name) const;
    QString ensureAuthorityLocked(std::int64_t now) const;

    QString m_folder;
};

// The names the broker's server certificate covers: localhost, 127.0.0.1,
// ::1, the bind address when it is neither loopback nor a wildcard, the
// --advertised-url host and every --allow-host name; each once, in order.
QStringList serverCertificateNames(const ServeOptions &options);

// Why the certificate chain and key in these PEM files cannot serve TLS
// (unreadable, not PEM, the key not the certificate's); empty when they can.
QString tlsFilesProblem(const TlsFiles &files);

} // namespace relaydesk
