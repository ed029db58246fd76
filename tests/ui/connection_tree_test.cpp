// SPDX-License-Identifier: MIT
// The tree's top level is connections (docs/window.md "Connections"): This
// computer first with today's groups under it; each profile of the AWS files
// (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE) named by the profile with its
// region; the window's own connections from its settings, their secrets never
// in the settings file; a listing with its "Loading…" row and Cancel; a
// "production" connection marked for the eye and the screen reader.
#include "models/connection_registry.h"
#include "models/entity_tree_model.h"
#include "support/test_main.h"
#include "window_test_support.h"

#include <QAbstractItemModelTester>
#include <QFile>
#include <QSignalSpy>
#include <QTcpServer>
#include <QTest>

using namespace relaydesk;

namespace {

void writeFile(const QString &path, const QByteArray &text)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(text);
}

QStringList topLevelNames(const EntityTreeModel &model)
{
    QStringList names;
    for (int row = 0; row < model.rowCount(); ++row)
        names << model.index(row, 0).data().toString();
    return names;
}

} // namespace

class ConnectionTreeTest : public QObject {
    Q_OBJECT
private slots:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        testing::keepSettingsIn(*m_dir);
        QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).clear();
    }

    void thisComputerIsFirst_theGroupsUnderIt()
    {
        EntityTreeModel model(nullptr, BrokerIdentity{});
        ConnectionRegistry registry;
        model.setConnections(&registry);
        QCOMPARE(topLevelNames(model), QStringList{QStringLiteral("This computer")});
        QCOMPARE(model.rowCount(model.localConnection()), 3);
        QCOMPARE(model.topicsGroup().parent(), model.localConnection());
        QVERIFY(!model.canFetchMore(model.localConnection()));   // listed by the engine, as before
    }

    void awsProfiles_areConnectionsNamedWithTheirRegion()
    {
        writeFile(m_dir->filePath(QStringLiteral("aws-config")),
                  "[default]\nregion = us-east-1\n\n[profile staging]\nregion = eu-west-3\n"
                  "endpoint_url = http://127.0.0.1:1\n");
        writeFile(m_dir->filePath(QStringLiteral("aws-credentials")),
                  "[staging]\naws_access_key_id = AKID\naws_secret_access_key = s\n\n[ci]\naws_access_key_id = K\n");
        EntityTreeModel model(nullptr, BrokerIdentity{});
        ConnectionRegistry registry;
        model.setConnections(&registry);
        QCOMPARE(topLevelNames(model), (QStringList{QStringLiteral("This computer"), QStringLiteral("default (us-east-1)"),
                                                    QStringLiteral("staging (eu-west-3)"), QStringLiteral("ci")}));
        const QModelIndex staging = model.connectionIndex(QStringLiteral("aws:staging"));
        QVERIFY(model.hasChildren(staging));   // not listed yet: expandable
        QVERIFY(model.canFetchMore(staging));
        QCOMPARE(model.rowCount(staging), 0);
    }

    // A service that takes the connection and never answers: the row says
    // "Loading…" until Cancel, then the boundary's words; listing again starts over.
    void expanding_showsLoading_cancelStopsIt()
    {
        QTcpServer silent;
        QVERIFY(silent.listen(QHostAddress::LocalHost));
        writeFile(m_dir->filePath(QStringLiteral("aws-config")),
                  QStringLiteral("[profile slow]\nregion = eu-west-1\nendpoint_url = http://127.0.0.1:%1\n")
                      .arg(silent.serverPort()).toUtf8());
        writeFile(m_dir->filePath(QStringLiteral("aws-credentials")), "[slow]\naws_access_key_id = K\naws_secret_access_key = S\n");
        EntityTreeModel model(nullptr, BrokerIdentity{});
        QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        ConnectionRegistry registry;
        model.setConnections(&registry);
        const QModelIndex slow = model.connectionIndex(QStringLiteral("aws:slow"));
        QSignalSpy loaded(&model, &EntityTreeModel::connectionLoaded);
        model.fetchMore(slow);   // what expanding the row does (the tester may have done it already)
        QVERIFY(!model.canFetchMore(slow));   // once at a time
        QTRY_COMPARE(model.rowCount(slow), 1);
        const QModelIndex status = model.index(0, 0, slow);
        QVERIFY(status.data(EntityTreeModel::StatusRole).toBool());
        QCOMPARE(status.data().toString(), QStringLiteral("Loading…"));
        QVERIFY(QTest::qWaitFor([&] { return silent.hasPendingConnections(); }, 20000));
        model.cancelLoading(slow);
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(model.index(0, 0, slow).data().toString(),
                 QStringLiteral("connection Cancelled: Cancelled before it finished."));
        model.reloadConnection(slow);
        QCOMPARE(model.index(0, 0, slow).data().toString(), QStringLiteral("Loading…"));
        model.cancelLoading(slow);
    }

    void production_isMarkedForTheEyeAndTheScreenReader()
    {
        writeFile(m_dir->filePath(QStringLiteral("aws-config")), "[profile live]\nregion = eu-central-1\n");
        EntityTreeModel model(nullptr, BrokerIdentity{});
        ConnectionRegistry registry;
        model.setConnections(&registry);
        QModelIndex live = model.connectionIndex(QStringLiteral("aws:live"));
        QVERIFY(!live.data(EntityTreeModel::ProductionRole).toBool());
        QVERIFY(!live.data(Qt::ForegroundRole).isValid());
        registry.setProduction(QStringLiteral("aws:live"), true);
        live = model.connectionIndex(QStringLiteral("aws:live"));
        QVERIFY(live.data(EntityTreeModel::ProductionRole).toBool());
        QCOMPARE(live.data().toString(), QStringLiteral("live (eu-central-1) — production"));
        QCOMPARE(live.data(Qt::AccessibleTextRole).toString(),
                 QStringLiteral("Connection live, eu-central-1 — production"));
        QVERIFY(live.data(Qt::ForegroundRole).isValid());
        // Kept in the window's settings: a new registry (the next start) knows it.
        ConnectionRegistry again;
        QVERIFY(again.find(QStringLiteral("aws:live"))->production);
    }

    void addedConnection_settingsKeepNoSecret()
    {
        ConnectionRegistry registry;
        ConnectionSettings relaydesk;
        relaydesk.kind = ConnectionSettings::Kind::Relaydesk;
        relaydesk.name = QStringLiteral("ci-broker");
        relaydesk.endpointUrl = QStringLiteral("http://127.0.0.1:9324");
        relaydesk.accessKeyId = QStringLiteral("AKIDCI");
        relaydesk.secretAccessKey = QStringLiteral("very-secret-key");
        relaydesk.bearerToken = QStringLiteral("very-secret-token");
        QCOMPARE(registry.add(relaydesk), QString());
        const ConnectionEntry *entry = registry.find(QStringLiteral("window:ci-broker"));
        QVERIFY(entry);
        QCOMPARE(entry->detail, QStringLiteral("http://127.0.0.1:9324"));
        QCOMPARE(registry.secrets().find(QStringLiteral("window:ci-broker")), QStringLiteral("very-secret-key"));
        QSettings settings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk"));
        settings.sync();
        QFile file(settings.fileName());
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray written = file.readAll();
        QVERIFY(written.contains("AKIDCI"));
        QVERIFY(!written.contains("very-secret"));
        QVERIFY(!registry.secrets().persistent());   // no secret service here: memory only, and the dialog says so
        QVERIFY(registry.secrets().whereText().contains(QStringLiteral("memory for this session only")));
        registry.remove(QStringLiteral("window:ci-broker"));
        QVERIFY(!registry.find(QStringLiteral("window:ci-broker")));
        QCOMPARE(registry.secrets().find(QStringLiteral("window:ci-broker")), QString());
    }

    void badConnection_isRefused_nothingChanged_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("error");
        const QString badName = QStringLiteral("A connection's name cannot be empty or contain spaces, brackets or slashes.");
        const QString badUrl = QStringLiteral("The URL must be http:// or https:// with a host, as http://localhost:9324.");
        QTest::newRow("empty name") << QString() << QStringLiteral("http://h:1") << badName;
        QTest::newRow("space") << QStringLiteral("my broker") << QStringLiteral("http://h:1") << badName;
        QTest::newRow("bracket") << QStringLiteral("[x]") << QStringLiteral("http://h:1") << badName;
        QTest::newRow("no URL") << QStringLiteral("ci") << QString() << badUrl;
        QTest::newRow("ftp") << QStringLiteral("ci") << QStringLiteral("ftp://h/") << badUrl;
    }
    void badConnection_isRefused_nothingChanged()
    {
        QFETCH(QString, name);
        QFETCH(QString, url);
        QFETCH(QString, error);
        ConnectionRegistry registry;
        QSignalSpy changed(&registry, &ConnectionRegistry::changed);
        ConnectionSettings s;
        s.kind = ConnectionSettings::Kind::Relaydesk;
        s.name = name;
        s.endpointUrl = url;
        QCOMPARE(registry.add(s), error);
        QCOMPARE(changed.count(), 0);
        QVERIFY(registry.entries().empty());
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
};

RELAYDESK_TEST_MAIN(ConnectionTreeTest)
#include "connection_tree_test.moc"
