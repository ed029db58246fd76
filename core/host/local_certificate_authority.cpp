// SPDX-License-Identifier: MIT
#include "host/local_certificate_authority.h"

#include "host/serve_options.h"
#include "host/tls_certificates.h"

#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QLockFile>
#include <QStandardPaths>
#include <QUrl>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace relaydesk {

namespace {

namespace certs = tls_certificates;

constexpr std::int64_t kDay = 24 * 3600;
constexpr int kLockWaitMs = 10'000;

// Writes `bytes` to `path` whole: a temporary file beside it (mode `mode`,
// synced) renamed over it. The error in words, or empty.
QString writeAtomically(const QString &path, const QByteArray &bytes, mode_t mode)
{
    const QByteArray target = QFile::encodeName(path);
    const QByteArray temporary = target + ".new";
    ::unlink(temporary.constData());
    const int descriptor = ::open(temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (descriptor < 0)
        return QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)));
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t step = ::write(descriptor, bytes.constData() + written, std::size_t(bytes.size() - written));
        if (step < 0 && errno == EINTR)
            continue;
        if (step <= 0)
            break;
        written += step;
    }
    const bool whole = written == bytes.size() && ::fchmod(descriptor, mode) == 0 && ::fsync(descriptor) == 0;
    const int error = errno;
    ::close(descriptor);
    if (!whole || ::rename(temporary.constData(), target.constData()) != 0) {
        ::unlink(temporary.constData());
        return QStringLiteral("cannot write %1: %2").arg(path, QString::fromLocal8Bit(std::strerror(whole ? errno : error)));
    }
    return {};
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

QString writePem(const QString &certificatePath, const QString &keyPath, const certs::Pem &pem)
{
    // The key first: a certificate on disk always has its key beside it.
    if (QString why = writeAtomically(keyPath, pem.key, 0600); !why.isEmpty())
        return why;
    return writeAtomically(certificatePath, pem.certificate, 0644);
}

} // namespace

QString LocalCertificateAuthority::defaultFolder()
{
    const QString data = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    return QDir(data.isEmpty() ? QDir::homePath() : data).filePath(QStringLiteral("tls"));
}

LocalCertificateAuthority::LocalCertificateAuthority(QString folder) : m_folder(std::move(folder)) {}

QString LocalCertificateAuthority::path(const char *name) const { return QDir(m_folder).filePath(QLatin1String(name)); }

QString LocalCertificateAuthority::certificatePath() const { return path("relaydesk-ca.pem"); }

QString LocalCertificateAuthority::ensureAuthority(std::int64_t now) const
{
    if (!QDir().mkpath(m_folder))
        return QStringLiteral("cannot make the folder %1").arg(m_folder);
    QLockFile lock(path(".lock"));
    if (!lock.tryLock(kLockWaitMs))
        return QStringLiteral("the local CA in %1 is locked by another process").arg(m_folder);
    return ensureAuthorityLocked(now);
}

QString LocalCertificateAuthority::ensureAuthorityLocked(std::int64_t now) const
{
    const QByteArray certificate = readAll(certificatePath());
    const QByteArray key = readAll(path("relaydesk-ca-key.pem"));
    if (certs::keyMatches(certificate, key) && certs::validAt(certificate, now + kRenewBeforeDays * kDay))
        return {};
    const std::optional<certs::Pem> made = certs::makeAuthority(now, kAuthorityDays);
    if (!made)
        return QStringLiteral("OpenSSL could not make the local CA");
    return writePem(certificatePath(), path("relaydesk-ca-key.pem"), *made);
}

std::variant<TlsFiles, QString> LocalCertificateAuthority::serverCertificate(const QStringList &names,
                                                                              std::int64_t now) const
{
    if (!QDir().mkpath(m_folder))
        return QStringLiteral("cannot make the folder %1").arg(m_folder);
    QLockFile lock(path(".lock"));
    if (!lock.tryLock(kLockWaitMs))
        return QStringLiteral("the local CA in %1 is locked by another process").arg(m_folder);
    if (QString why = ensureAuthorityLocked(now); !why.isEmpty())
        return why;
    const TlsFiles files{path("server.pem"), path("server-key.pem")};
    const certs::Pem authority{readAll(certificatePath()), readAll(path("relaydesk-ca-key.pem"))};
    const QByteArray certificate = readAll(files.certificate);
    if (certs::keyMatches(certificate, readAll(files.key)) && certs::signedBy(certificate, authority.certificate) &&
        certs::validAt(certificate, now + kRenewBeforeDays * kDay) &&
        certs::alternativeNames(certificate) == certs::alternativeNamesFor(names))
        return files;
    const std::optional<certs::Pem> issued = certs::issueServer(authority, names, now, kServerDays);
    if (!issued)
        return QStringLiteral("OpenSSL could not issue the server certificate");
    if (QString why = writePem(files.certificate, files.key, *issued); !why.isEmpty())
        return why;
    return files;
}

QStringList serverCertificateNames(const ServeOptions &options)
{
    QStringList names{QStringLiteral("localhost"), QStringLiteral("127.0.0.1"), QStringLiteral("::1")};
    if (!options.bind.isLoopback() && options.bind != QHostAddress(QHostAddress::AnyIPv4) &&
        options.bind != QHostAddress(QHostAddress::Any) && options.bind != QHostAddress(QHostAddress::AnyIPv6))
        names << options.bind.toString();
    if (!options.advertisedUrl.isEmpty())
        names << QUrl(options.advertisedUrl).host();
    names << options.allowHosts;
    names.removeDuplicates();
    return names;
}

QString tlsFilesProblem(const TlsFiles &files)
{
    QFile certificate(files.certificate);
    if (!certificate.open(QIODevice::ReadOnly))
        return QStringLiteral("--tls-cert %1: %2").arg(files.certificate, certificate.errorString());
    QFile key(files.key);
    if (!key.open(QIODevice::ReadOnly))
        return QStringLiteral("--tls-key %1: %2").arg(files.key, key.errorString());
    const QByteArray certificatePem = certificate.readAll();
    const QByteArray keyPem = key.readAll();
    if (!certs::isCertificate(certificatePem))
        return QStringLiteral("--tls-cert %1: no PEM certificate in it").arg(files.certificate);
    if (!certs::keyMatches(certificatePem, keyPem))
        return QStringLiteral("--tls-key %1: not the private key of the certificate in %2 (or not a PEM key)")
            .arg(files.key, files.certificate);
    return {};
}

} // namespace relaydesk
