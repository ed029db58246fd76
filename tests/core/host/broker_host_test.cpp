// SPDX-License-Identifier: MIT
// BrokerHost, the broker `serve` and the window share: it starts on a real
// database file and port; a taken port is refused, or with nextFreePort
// moved to the next free one; a database it cannot use is refused with the
// store's kind and left unchanged; the window's options are serve's.
#include "engine/broker_engine.h"
#include "host/broker_host.h"
#include "host/serve_options.h"
#include "store/database.h"
#include "support/test_main.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using namespace relaydesk;

namespace {

ServeOptions optionsFor(const QString &path, quint16 port)
{
    ServeOptions options;
    options.databasePath = path;
    options.port = port;
    options.amqpPort = 0;   // tests run side by side
    options.amqpsPort.reset();
    options.managementPort = 0;
    options.clockMode = ClockMode::Virtual;
    return options;
}

QByteArray fingerprint(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QCryptographicHash::hash(file.readAll(), QCryptographicHash::Sha256)
                                          : QByteArray();
}

} // namespace

class BrokerHostTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

private slots:
    void start_onFreePort_hasEndpointAndParts()
    {
        auto started = BrokerHost::start(optionsFor(m_dir.filePath(QStringLiteral("a.db")), 0));
        QVERIFY(std::holds_alternative<std::unique_ptr<BrokerHost>>(started));
        const auto &host = std::get<std::unique_ptr<BrokerHost>>(started);
        QVERIFY(host->port() != 0);
        QCOMPARE(host->endpointUrl(), QStringLiteral("http://127.0.0.1:%1").arg(host->port()));
        QVERIFY(!host->portMoved());
        QCOMPARE(host->engine().clock().mode(), ClockMode::Virtual);
        QVERIFY(QFile::exists(m_dir.filePath(QStringLiteral("a.db"))));
    }

    void takenPort_isRefused_orMovedToTheNextFree()
    {
        QTcpServer taken;
        QVERIFY(taken.listen(QHostAddress::LocalHost, 0));
        const quint16 port = taken.serverPort();
        auto refused = BrokerHost::start(optionsFor(m_dir.filePath(QStringLiteral("b.db")), port));
        QVERIFY(std::holds_alternative<BrokerHostProblem>(refused));
        QCOMPARE(std::get<BrokerHostProblem>(refused).kind, BrokerHostProblem::Kind::Port);
        QVERIFY(std::get<BrokerHostProblem>(refused).message.startsWith(QStringLiteral("cannot listen on 127.0.0.1:%1").arg(port)));

        auto moved = BrokerHost::start(optionsFor(m_dir.filePath(QStringLiteral("b.db")), port), true);
        QVERIFY(std::holds_alternative<std::unique_ptr<BrokerHost>>(moved));
        const auto &host = std::get<std::unique_ptr<BrokerHost>>(moved);
        QVERIFY(host->port() > port);
        QVERIFY(host->portMoved());
    }

    void unusableDatabase_isRefusedWithItsKind_andUnchanged_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<int>("kind");
        QTest::newRow("text file") << QByteArray("not a database\n") << int(StoreStatus::Kind::NotRelaydesk);
        QTest::newRow("damaged") << (QByteArray("SQLite format 3", 16) + QByteArray(4080, 'x')) << int(StoreStatus::Kind::Corrupt);
    }

    void unusableDatabase_isRefusedWithItsKind_andUnchanged()
    {
        QFETCH(QByteArray, content);
        QFETCH(int, kind);
        const QString path = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag()).replace(QLatin1Char(' '), QLatin1Char('-')));
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(content);
        file.close();
        const QByteArray before = fingerprint(path);
        auto refused = BrokerHost::start(optionsFor(path, 0));
        QVERIFY(std::holds_alternative<BrokerHostProblem>(refused));
        const auto &problem = std::get<BrokerHostProblem>(refused);
        QCOMPARE(problem.kind, BrokerHostProblem::Kind::Database);
        QCOMPARE(int(problem.storeKind), kind);
        QVERIFY(!problem.message.isEmpty());
        QCOMPARE(fingerprint(path), before);
    }

    void databaseInUse_isRefused()
    {
        const QString path = m_dir.filePath(QStringLiteral("held.db"));
        auto holder = Database::open(path.toStdString());
        QVERIFY(holder.ok());
        auto refused = BrokerHost::start(optionsFor(path, 0));
        QVERIFY(std::holds_alternative<BrokerHostProblem>(refused));
        QCOMPARE(std::get<BrokerHostProblem>(refused).storeKind, StoreStatus::Kind::InUse);
    }

    void windowOptions_areServeOptions()
    {
        auto parsed = parseServeOptions({QStringLiteral("--db"), QStringLiteral("/tmp/x.db"), QStringLiteral("--port"),
                                         QStringLiteral("9000"), QStringLiteral("--clock"), QStringLiteral("virtual"),
                                         QStringLiteral("--jitter"), QStringLiteral("0.2")},
                                        OptionsFor::Window);
        QVERIFY(std::holds_alternative<ServeOptions>(parsed));
        const ServeOptions &options = std::get<ServeOptions>(parsed);
        QCOMPARE(options.databasePath, QStringLiteral("/tmp/x.db"));
        QCOMPARE(options.port, quint16(9000));
        QVERIFY(options.portGiven);
        QCOMPARE(options.clockMode, ClockMode::Virtual);
        QCOMPARE(options.jitter, 0.2);
        auto defaults = parseServeOptions({}, OptionsFor::Window);
        QVERIFY(std::holds_alternative<ServeOptions>(defaults));
        QCOMPARE(std::get<ServeOptions>(defaults).port, ServeOptions::kDefaultPort);
        QVERIFY(!std::get<ServeOptions>(defaults).portGiven);
        auto bad = parseServeOptions({QStringLiteral("--port"), QStringLiteral("99999")}, OptionsFor::Window);
        QVERIFY(std::holds_alternative<QString>(bad));
        QVERIFY(windowOptionsHelp().startsWith(QStringLiteral("Usage: relaydesk [options]")));
        QVERIFY(windowOptionsHelp().contains(QStringLiteral("--ca-file")));
    }
};

RELAYDESK_TEST_MAIN(BrokerHostTest)
#include "broker_host_test.moc"
