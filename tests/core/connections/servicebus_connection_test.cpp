// SPDX-License-Identifier: MIT
// ServiceBusConnection: connection strings read as Azure writes them (a
// table), and the management API end to end against `relaydesk serve
// --credentials FILE --sb-management-port 0` in a process of its own: queues,
// topics and subscriptions listed with their counts, created, read and
// deleted under a Shared Access Signature; properties changed (the whole
// description sent back, a bad value refused naming it, nothing changed); a wrong key refused in the
// service's words; messages said to be not there yet.
#include "connections/servicebus_connection.h"
#include "support/test_main.h"
#include "connection_test_support.h"

#include <QTemporaryDir>
#include <QTest>

using namespace relaydesk;
using relaydesk::test::awaitCall;


namespace {

const QString kKey = QStringLiteral("c2VydmljZWJ1cy1jb25uZWN0aW9uLWtleQ==");

} // namespace

class ServiceBusConnectionTest : public QObject {
    Q_OBJECT
private slots:
    void connectionString_data();
    void connectionString();
    void initTestCase();
    void managesEntities();
    void wrongKey();

private:
    QString connectionString(const QString &key) const;

    QTemporaryDir m_dir;
    relaydesk::test::ServerProcess m_server;
    QUrl m_management;
};

void ServiceBusConnectionTest::connectionString_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("read");   // "host|port|keyName|key|emulator|managementUrl", or the error
    QTest::newRow("Azure") << "Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=abc="
                           << "acme.servicebus.windows.net|-1|Root|abc=|false|https://acme.servicebus.windows.net";
    QTest::newRow("the emulator") << "Endpoint=sb://localhost;SharedAccessKeyName=RootManageSharedAccessKey;"
                                     "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true;"
                                  << "localhost|-1|RootManageSharedAccessKey|SAS_KEY_VALUE|true|http://localhost:5300";
    QTest::newRow("names in any case, spaces") << " endpoint = sb://h:5673/ ; sharedaccesskeyname=K ; SHAREDACCESSKEY=v==;"
                                               << "h|5673|K|v==|false|https://h";
    QTest::newRow("no endpoint") << "SharedAccessKeyName=K;SharedAccessKey=v" << "Endpoint must be sb://HOST/";
    QTest::newRow("an http endpoint") << "Endpoint=https://h/;SharedAccessKeyName=K;SharedAccessKey=v"
                                      << "Endpoint must be sb://HOST/";
    QTest::newRow("no key") << "Endpoint=sb://h/;SharedAccessKeyName=K"
                            << "SharedAccessKeyName and SharedAccessKey are required";
    QTest::newRow("not pairs") << "Endpoint=sb://h/;garbage" << "\"garbage\" is not NAME=VALUE";
}

void ServiceBusConnectionTest::connectionString()
{
    QFETCH(QString, text);
    QFETCH(QString, read);
    const ServiceBusConnectionString string = readServiceBusConnectionString(text);
    const QString got = !string.error.isEmpty()
                            ? string.error
                            : QStringList{string.host, QString::number(string.port), string.keyName, string.key,
                                          string.developmentEmulator ? "true" : "false", string.managementUrl().toString()}
                                  .join(QLatin1Char('|'));
    QCOMPARE(got, read);
}

void ServiceBusConnectionTest::initTestCase()
{
    QFile file(m_dir.filePath(QStringLiteral("credentials.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral(R"({"sharedAccessKeys": {"RootManageSharedAccessKey": "%1"}})").arg(kKey).toUtf8());
    file.close();
    QVERIFY2(!relaydesk::test::startRelaydeskServe(m_server, file.fileName(), QStringLiteral("0")).isEmpty(),
             qPrintable(m_server.errors()));
    // The management port answers TLS (the local CA) or plain HTTP, by the first byte: plain here.
    QString management = m_server.readyLine(QStringLiteral("relaydesk: listening on "));
    QVERIFY2(!management.isEmpty(), qPrintable(m_server.errors()));
    m_management = QUrl(management.replace(QStringLiteral("https://"), QStringLiteral("http://")));
}

QString ServiceBusConnectionTest::connectionString(const QString &key) const
{
    return QStringLiteral("Endpoint=sb://%1/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=%2;"
                          "UseDevelopmentEmulator=true")
        .arg(m_management.host(), key);
}

void ServiceBusConnectionTest::managesEntities()
{
    ServiceBusConnection bus({QStringLiteral("namespace"), connectionString(kKey), m_management});
    QVERIFY(bus.settingsError().isEmpty());
    const auto queue = AWAIT(EntityRef, bus.createEntity(EntityKind::ServiceBusQueue, QStringLiteral("orders"), {},
                                                         {{QStringLiteral("MaxDeliveryCount"), QStringLiteral("5")}}, reply));
    QVERIFY2(queue.ok, qPrintable(queue.error.text()));
    const auto topic = AWAIT(EntityRef, bus.createEntity(EntityKind::ServiceBusTopic, QStringLiteral("events"), {}, {}, reply));
    QVERIFY2(topic.ok, qPrintable(topic.error.text()));
    const auto subscription = AWAIT(EntityRef, bus.createEntity(EntityKind::ServiceBusSubscription, QStringLiteral("audit"),
                                                                QStringLiteral("events"), {}, reply));
    QVERIFY2(subscription.ok, qPrintable(subscription.error.text()));

    const auto queues = AWAIT(std::vector<EntitySummary>, bus.listEntities(EntityKind::ServiceBusQueue, {}, reply));
    QVERIFY2(queues.ok, qPrintable(queues.error.text()));
    QCOMPARE(queues.value.size(), std::size_t(1));
    QCOMPARE(queues.value[0].ref.name, QStringLiteral("orders"));
    QCOMPARE(queues.value[0].available, std::optional<qint64>(0));
    const auto topics = AWAIT(std::vector<EntitySummary>, bus.listEntities(EntityKind::ServiceBusTopic, {}, reply));
    QCOMPARE(topics.value.size(), std::size_t(1));
    const auto subscriptions = AWAIT(std::vector<EntitySummary>,
                                     bus.listEntities(EntityKind::ServiceBusSubscription, QStringLiteral("events"), reply));
    QVERIFY2(subscriptions.ok, qPrintable(subscriptions.error.text()));
    QCOMPARE(subscriptions.value.size(), std::size_t(1));
    QCOMPARE(subscriptions.value[0].ref.address, subscription.value.address);

    const auto attributes = AWAIT(EntityAttributes, bus.attributes(queues.value[0].ref, reply));
    QVERIFY2(attributes.ok, qPrintable(attributes.error.text()));
    QCOMPARE(attributes.value.value(QStringLiteral("MaxDeliveryCount")), QStringLiteral("5"));
    QCOMPARE(attributes.value.value(QStringLiteral("ActiveMessageCount")), QStringLiteral("0"));

    const auto again = AWAIT(EntityRef, bus.createEntity(EntityKind::ServiceBusQueue, QStringLiteral("orders"), {}, {}, reply));
    QVERIFY(!again.ok);
    QCOMPARE(again.error.service, QStringLiteral("Service Bus"));
    QCOMPARE(again.error.httpStatus, 409);
    const auto peeked = AWAIT(MessagePage, bus.peek(queue.value, {}, reply));
    QCOMPARE(peeked.error.code, QStringLiteral("Unsupported"));

    // An update sends the whole description back: the changed element, the others as they were.
    const auto changed = AWAIT(Done, bus.setAttributes(queue.value, {{QStringLiteral("MaxDeliveryCount"), QStringLiteral("9")},
                                                                     {QStringLiteral("LockDuration"), QStringLiteral("PT45S")}},
                                                       reply));
    QVERIFY2(changed.ok, qPrintable(changed.error.text()));
    auto after = AWAIT(EntityAttributes, bus.attributes(queue.value, reply)).value;
    QCOMPARE(after.value(QStringLiteral("MaxDeliveryCount")), QStringLiteral("9"));
    QCOMPARE(after.value(QStringLiteral("LockDuration")), QStringLiteral("PT45S"));
    QCOMPARE(after.value(QStringLiteral("DefaultMessageTimeToLive")), attributes.value.value(QStringLiteral("DefaultMessageTimeToLive")));
    const auto refused = AWAIT(Done, bus.setAttributes(queue.value, {{QStringLiteral("MaxDeliveryCount"), QStringLiteral("many")},
                                                                     {QStringLiteral("LockDuration"), QStringLiteral("PT50S")}},
                                                       reply));
    QVERIFY(!refused.ok);
    QCOMPARE(refused.error.httpStatus, 400);
    QVERIFY2(refused.error.message.contains(QStringLiteral("MaxDeliveryCount")), qPrintable(refused.error.text()));
    after = AWAIT(EntityAttributes, bus.attributes(queue.value, reply)).value;   // nothing changed
    QCOMPARE(after.value(QStringLiteral("MaxDeliveryCount")), QStringLiteral("9"));
    QCOMPARE(after.value(QStringLiteral("LockDuration")), QStringLiteral("PT45S"));
    const EntityRef missing{EntityKind::ServiceBusQueue, QStringLiteral("missing"), QStringLiteral("/missing"), {}};
    QCOMPARE(AWAIT(Done, bus.setAttributes(missing, {{QStringLiteral("MaxDeliveryCount"), QStringLiteral("3")}}, reply)).error.httpStatus,
             404);

    QVERIFY(AWAIT(Done, bus.deleteEntity(subscription.value, reply)).ok);
    QVERIFY(AWAIT(Done, bus.deleteEntity(topic.value, reply)).ok);
    QVERIFY(AWAIT(Done, bus.deleteEntity(queue.value, reply)).ok);
    QVERIFY(AWAIT(std::vector<EntitySummary>, bus.listEntities(EntityKind::ServiceBusQueue, {}, reply)).value.empty());
    const auto gone = AWAIT(EntityAttributes, bus.attributes(queue.value, reply));
    QCOMPARE(gone.error.httpStatus, 404);
}

void ServiceBusConnectionTest::wrongKey()
{
    ServiceBusConnection bus({QStringLiteral("namespace"), connectionString(QStringLiteral("bm90LXRoZS1rZXk=")), m_management});
    const auto listed = AWAIT(std::vector<EntitySummary>, bus.listEntities(EntityKind::ServiceBusQueue, {}, reply));
    QVERIFY(!listed.ok);
    QCOMPARE(listed.error.service, QStringLiteral("Service Bus"));
    QCOMPARE(listed.error.code, QStringLiteral("401"));
    QCOMPARE(listed.error.httpStatus, 401);
    QVERIFY2(!listed.error.message.isEmpty() && !listed.error.text().contains(kKey), qPrintable(listed.error.text()));
}

RELAYDESK_TEST_MAIN(ServiceBusConnectionTest)
#include "servicebus_connection_test.moc"
