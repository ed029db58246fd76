// SPDX-License-Identifier: MIT
#include "host/tls_command.h"

#include "host/command_help.h"
#include "host/local_certificate_authority.h"

#include <QCoreApplication>
#include <QDateTime>

namespace relaydesk {

namespace {

const char *const kTlsHelp =
    "Usage: relaydesk tls ca\n"
    "\n"
    "Prints the path of the local certificate authority's certificate (PEM), making the CA on first use. The broker's\n"
    "TLS ports (serve --amqps-port) present a certificate it issued; trust this one file in your clients.\n"
    "\n"
    "Options:\n"
    "  -h, --help             this text\n"
    "  --version              the version\n"
    "\n"
    "Trust it with NODE_EXTRA_CA_CERTS (Node), REQUESTS_CA_BUNDLE or SSL_CERT_FILE (Python), keytool -importcert\n"
    "(Java), or /usr/local/share/ca-certificates and update-ca-certificates (the system store).\n";

void print(FILE *stream, const QString &text)
{
    std::fputs(text.toLocal8Bit().constData(), stream);
    std::fflush(stream);
}

} // namespace

int runTlsCommand(const QStringList &arguments, FILE *out, FILE *err)
{
    QCoreApplication::setOrganizationName(QStringLiteral("Relaydesk"));
    QCoreApplication::setApplicationName(QStringLiteral("Relaydesk"));
    const QString first = arguments.value(0);
    if (first == QLatin1String("--help") || first == QLatin1String("-h")) {
        print(out, QLatin1String(kTlsHelp));
        return 0;
    }
    if (first == QLatin1String("--version")) {
        print(out, versionText());
        return 0;
    }
    if (arguments != QStringList{QStringLiteral("ca")}) {
        print(err, QStringLiteral("relaydesk tls: %1\nTry 'relaydesk tls --help'.\n")
                       .arg(first.isEmpty() ? QStringLiteral("missing subcommand (ca)")
                                            : QStringLiteral("unexpected argument '%1'").arg(arguments.join(QLatin1Char(' ')))));
        return 2;
    }
    const LocalCertificateAuthority authority(LocalCertificateAuthority::defaultFolder());
    if (const QString why = authority.ensureAuthority(QDateTime::currentSecsSinceEpoch()); !why.isEmpty()) {
        print(err, QStringLiteral("relaydesk tls: %1\n").arg(why));
        return 1;
    }
    print(out, authority.certificatePath() + QLatin1Char('\n'));
    return 0;
}

} // namespace relaydesk
