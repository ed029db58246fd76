// SPDX-License-Identifier: MIT
// The local CA (docs/behaviour.md §8.7) in a temporary folder: made once,
// kept, its server certificate issued again exactly when the names change or
// an end nears; the files' modes; the checks of a user's own certificate.
// Times are given (seconds since the epoch), never read.
#include "host/local_certificate_authority.h"
#include "host/serve_options.h"
#include "host/tls_certificates.h"
#include "support/result_problem.h"
#include "support/test_main.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace relaydesk;
using relaydesk::test::problemOf;

namespace {

constexpr std::int64_t kNow = 1'800'000'000;
constexpr std::int64_t kDay = 24 * 3600;

QByteArray contents(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

mode_t modeOf(const QString &path)
{
    struct stat status = {};
    return ::stat(QFile::encodeName(path).constData(), &status) == 0 ? (status.st_mode & 0777) : 0;
}

const QStringList kNames{QStringLiteral("localhost"), QStringLiteral("127.0.0.1"), QStringLiteral("::1")};

} // namespace

class LocalCertificateAuthorityTest final : public QObject {
    Q_OBJECT

private slots:
    void firstUse_makesTheCa_keysOwnerOnly_namesCovered()
    {
        QTemporaryDir folder;
        const LocalCertificateAuthority authority(folder.path() + QStringLiteral("/tls"));
        auto issued = authority.serverCertificate(kNames, kNow);
        QVERIFY2(std::holds_alternative<TlsFiles>(issued), qPrintable(problemOf(issued)));
        const TlsFiles files = std::get<TlsFiles>(issued);
        QCOMPARE(modeOf(files.key), mode_t(0600));
        QCOMPARE(modeOf(folder.path() + QStringLiteral("/tls/relaydesk-ca-key.pem")), mode_t(0600));
        const QByteArray certificate = contents(files.certificate);
        QVERIFY(tls_certificates::signedBy(certificate, contents(authority.certificatePath())));
        QCOMPARE(tls_certificates::alternativeNames(certificate),
                 (QStringList{"DNS:localhost", "IP:127.0.0.1", "IP:::1"}));
        QVERIFY(tls_certificates::validAt(certificate, kNow));
    }

    // What a second start finds changed, and what it makes again.
    void laterUse_reissuesExactlyWhenItMust_data()
    {
        QTest::addColumn<QStringList>("names");
        QTest::addColumn<std::int64_t>("now");
        QTest::addColumn<bool>("newServerCertificate");
        QTest::addColumn<bool>("newAuthority");
        QTest::newRow("nothing changed") << kNames << kNow + kDay << false << false;
        QTest::newRow("an --allow-host name added") << (kNames + QStringList{"broker.internal"}) << kNow << true << false;
        QTest::newRow("a name dropped") << QStringList{"localhost"} << kNow << true << false;
        QTest::newRow("the same names in another order") << QStringList{"::1", "localhost", "127.0.0.1"} << kNow << false << false;
        QTest::newRow("31 days before the server certificate ends")
            << kNames << kNow + (LocalCertificateAuthority::kServerDays - 31) * kDay << false << false;
        QTest::newRow("29 days before the server certificate ends")
            << kNames << kNow + (LocalCertificateAuthority::kServerDays - 29) * kDay << true << false;
        QTest::newRow("29 days before the CA ends")
            << kNames << kNow + (LocalCertificateAuthority::kAuthorityDays - 29) * kDay << true << true;
    }
    void laterUse_reissuesExactlyWhenItMust()
    {
        QFETCH(QStringList, names);
        QFETCH(std::int64_t, now);
        QFETCH(bool, newServerCertificate);
        QFETCH(bool, newAuthority);
        QTemporaryDir folder;
        const LocalCertificateAuthority authority(folder.path());
        QVERIFY(std::holds_alternative<TlsFiles>(authority.serverCertificate(kNames, kNow)));
        const QByteArray firstCa = contents(authority.certificatePath());
        const QByteArray firstServer = contents(folder.filePath(QStringLiteral("server.pem")));

        auto again = authority.serverCertificate(names, now);
        QVERIFY2(std::holds_alternative<TlsFiles>(again), qPrintable(problemOf(again)));
        const QByteArray server = contents(std::get<TlsFiles>(again).certificate);
        QCOMPARE(server != firstServer, newServerCertificate);
        QCOMPARE(contents(authority.certificatePath()) != firstCa, newAuthority);
        QCOMPARE(tls_certificates::alternativeNames(server), tls_certificates::alternativeNamesFor(names));
        QVERIFY(tls_certificates::signedBy(server, contents(authority.certificatePath())));
    }

    void serverNames_fromTheOptions()
    {
        ServeOptions options;
        options.bind = QHostAddress(QStringLiteral("192.168.1.20"));
        options.advertisedUrl = QStringLiteral("http://host.docker.internal:9911");
        options.allowHosts = {QStringLiteral("broker.internal"), QStringLiteral("localhost")};
        QCOMPARE(serverCertificateNames(options), (QStringList{"localhost", "127.0.0.1", "::1", "192.168.1.20",
                                                               "host.docker.internal", "broker.internal"}));
    }

    // --tls-cert/--tls-key of the user's own, checked at start.
    void ownFiles_problemsInWords_data()
    {
        QTest::addColumn<QString>("certificate");   // "ca", "server", "missing", "text"
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("problem");       // empty: usable
        QTest::newRow("the server certificate and its key") << "server.pem" << "server-key.pem" << QString();
        QTest::newRow("a key of another certificate") << "server.pem" << "relaydesk-ca-key.pem" << "not the private key";
        QTest::newRow("an unreadable certificate") << "missing.pem" << "server-key.pem" << "--tls-cert";
        QTest::newRow("an unreadable key") << "server.pem" << "missing.pem" << "--tls-key";
        QTest::newRow("a certificate file without PEM") << "text.txt" << "server-key.pem" << "no PEM certificate";
        QTest::newRow("a key file without PEM") << "server.pem" << "text.txt" << "not the private key";
    }
    void ownFiles_problemsInWords()
    {
        QFETCH(QString, certificate);
        QFETCH(QString, key);
        QFETCH(QString, problem);
        QTemporaryDir folder;
        const LocalCertificateAuthority authority(folder.path());
        QVERIFY(std::holds_alternative<TlsFiles>(authority.serverCertificate(kNames, kNow)));
        QFile text(folder.filePath(QStringLiteral("text.txt")));
        QVERIFY(text.open(QIODevice::WriteOnly));
        text.write("not a certificate\n");
        text.close();
        const QString why = tlsFilesProblem(TlsFiles{folder.filePath(certificate), folder.filePath(key)});
        if (problem.isEmpty())
            QVERIFY2(why.isEmpty(), qPrintable(why));
        else
            QVERIFY2(why.contains(problem), qPrintable(why));
    }
};

RELAYDESK_TEST_MAIN(LocalCertificateAuthorityTest)
#include "local_certificate_authority_test.moc"
