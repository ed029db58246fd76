// SPDX-License-Identifier: MIT
// ServiceBusConnection: connection strings read as Azure writes them (a
// table), and the management API end to end against `relaydesk serve
// --credentials FILE --sb-management-port 0` in a process of its own: queues,
// topics and subscriptions listed with their counts, created, read and
// deleted under a Shared Access Signature; properties changed (the whole
// description sent back, a bad value refused naming it, nothing changed); a
// wrong key refused in the
// service's words. Messages over AMQP (its --amqp-port, plain as the
// emulator's): sent, peeked in pages, polled, completed, abandoned,
// dead-lettered, resubmitted from the dead-letter subqueue and purged; a wrong
// key's put-token refused (amqp:unauthorized-access) with nothing sent.
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
    void messages();
    void wrongKeyMessages();

private:
    QString connectionString(const QString &key) const;

    QTemporaryDir m_dir;
    relaydesk::test::ServerProcess m_server;
    QUrl m_management;
    QUrl m_amqp;
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
    QVERIFY2(!relaydesk::test::startRelaydeskServe(m_server, file.fileName(), QStringLiteral("0"), QStringLiteral("0"))
                  .isEmpty(),
             qPrintable(m_server.errors()));
    m_amqp = QUrl(m_server.readyLine(QStringLiteral("relaydesk: listening on ")));
    QVERIFY2(m_amqp.scheme() == QLatin1String("amqp"), qPrintable(m_server.errors()));
    // The management port answers TLS (the local CA) or plain HTTP, by the first byte: plain here.
    QString management = m_server.readyLine(QStringLiteral("relaydesk: listening on "));
    QVERIFY2(!management.isEmpty(), qPrintable(m_server.errors()));
    m_management = QUrl(management.replace(QStringLiteral("https://"), QStringLiteral("http://")));
}

QString ServiceBusConnectionTest::connectionString(const QString &key) const
{
    return QStringLiteral("Endpoint=sb://%1:%3/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=%2;"
                          "UseDevelopmentEmulator=true")
        .arg(m_management.host(), key)
        .arg(m_amqp.port());
}

void ServiceBusConnectionTest::managesEntities()
{
    ServiceBusConnection bus({QStringLiteral("namespace"), connectionString(kKey), m_management, {}});
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
    const auto set = AWAIT(Done, bus.setAttributes(queues.value[0].ref, {{QStringLiteral("MaxDeliveryCount"), QStringLiteral("7")}},
                                                   reply));
    QVERIFY2(set.ok, qPrintable(set.error.text()));
    const auto changed = AWAIT(EntityAttributes, bus.attributes(queues.value[0].ref, reply));
    QCOMPARE(changed.value.value(QStringLiteral("MaxDeliveryCount")), QStringLiteral("7"));
    QCOMPARE(changed.value.value(QStringLiteral("LockDuration")), attributes.value.value(QStringLiteral("LockDuration")));
    const auto bad = AWAIT(Done, bus.setAttributes(queues.value[0].ref, {{QStringLiteral("MaxDeliveryCount"), QStringLiteral("many")}},
                                                   reply));
    QVERIFY(!bad.ok);
    QCOMPARE(bad.error.service, QStringLiteral("Service Bus"));
    QCOMPARE(AWAIT(EntityAttributes, bus.attributes(queues.value[0].ref, reply)).value.value(QStringLiteral("MaxDeliveryCount")),
             QStringLiteral("7"));

    const auto again = AWAIT(EntityRef, bus.createEntity(EntityKind::ServiceBusQueue, QStringLiteral("orders"), {}, {}, reply));
    QVERIFY(!again.ok);
    QCOMPARE(again.error.service, QStringLiteral("Service Bus"));
    QCOMPARE(again.error.httpStatus, 409);
    const auto sent = AWAIT(QString, bus.send(subscription.value, {}, reply));
    QCOMPARE(sent.error.code, QStringLiteral("Unsupported"));


    QVERIFY(AWAIT(Done, bus.deleteEntity(subscription.value, reply)).ok);
    QVERIFY(AWAIT(Done, bus.deleteEntity(topic.value, reply)).ok);
    QVERIFY(AWAIT(Done, bus.deleteEntity(queue.value, reply)).ok);
    QVERIFY(AWAIT(std::vector<EntitySummary>, bus.listEntities(EntityKind::ServiceBusQueue, {}, reply)).value.empty());
    const auto gone = AWAIT(EntityAttributes, bus.attributes(queue.value, reply));
    QCOMPARE(gone.error.httpStatus, 404);
}

void ServiceBusConnectionTest::wrongKey()
{
    ServiceBusConnection bus({QStringLiteral("namespace"), connectionString(QStringLiteral("bm90LXRoZS1rZXk=")), m_management, {}});
    const auto listed = AWAIT(std::vector<EntitySummary>, bus.listEntities(EntityKind::ServiceBusQueue, {}, reply));
    QVERIFY(!listed.ok);
    QCOMPARE(listed.error.service, QStringLiteral("Service Bus"));
    QCOMPARE(listed.error.code, QStringLiteral("401"));
    QCOMPARE(listed.error.httpStatus, 401);
    QVERIFY2(!listed.error.message.isEmpty() && !listed.error.text().contains(kKey), qPrintable(listed.error.text()));
}

namespace {

QStringList bodies(const std::vector<MessageLine> &lines)
{
    QStringList found;
    for (const MessageLine &line : lines)
        found << line.body;
    found.sort();
    return found;
}

} // namespace

void ServiceBusConnectionTest::messages()
{
    ServiceBusConnection bus({QStringLiteral("namespace"), connectionString(kKey), m_management, {}});
    const auto queue = AWAIT(EntityRef, bus.createEntity(EntityKind::ServiceBusQueue, QStringLiteral("inbox"), {}, {}, reply));
    QVERIFY2(queue.ok, qPrintable(queue.error.text()));
    for (const QString &body : {QStringLiteral("one"), QStringLiteral("two"), QStringLiteral("three")}) {
        OutgoingMessage message;
        message.body = body;
        message.attributes = {{QStringLiteral("colour"), QStringLiteral("blue")}};
        message.messageId = QStringLiteral("id-") + body;
        message.subject = QStringLiteral("greeting");
        message.contentType = QStringLiteral("text/plain");
        const auto sent = AWAIT(QString, bus.send(queue.value, message, reply));
        QVERIFY2(sent.ok, qPrintable(sent.error.text()));
        QCOMPARE(sent.value, message.messageId);
    }

    // Peek: two pages, nothing changed.
    const auto first = AWAIT(MessagePage, bus.peek(queue.value, PeekRequest{std::nullopt, 2}, reply));
    QVERIFY2(first.ok, qPrintable(first.error.text()));
    QCOMPARE(first.value.messages.size(), std::size_t(2));
    QVERIFY(first.value.next.has_value());
    const MessageLine &line = first.value.messages.front();
    QCOMPARE(line.body, QStringLiteral("one"));
    QCOMPARE(line.messageId, QStringLiteral("id-one"));
    QCOMPARE(line.attributes.value(QStringLiteral("colour")), QStringLiteral("blue"));
    QCOMPARE(line.attributes.value(QStringLiteral("Subject")), QStringLiteral("greeting"));
    QCOMPARE(line.attributes.value(QStringLiteral("ContentType")), QStringLiteral("text/plain"));
    QCOMPARE(line.state, QStringLiteral("available"));
    QVERIFY(line.sequenceNumber.has_value() && line.receiptHandle.isEmpty());
    const auto second = AWAIT(MessagePage, bus.peek(queue.value, PeekRequest{first.value.next, 2}, reply));
    QVERIFY2(second.ok, qPrintable(second.error.text()));
    QCOMPARE(bodies(second.value.messages), QStringList{QStringLiteral("three")});
    QVERIFY(!second.value.next.has_value());

    // Poll in peek-lock; complete one, dead-letter one, abandon one.
    const auto polled = AWAIT(std::vector<MessageLine>, bus.poll(queue.value, PollRequest{10, 30}, reply));
    QVERIFY2(polled.ok, qPrintable(polled.error.text()));
    QCOMPARE(bodies(polled.value), (QStringList{QStringLiteral("one"), QStringLiteral("three"), QStringLiteral("two")}));
    for (const MessageLine &received : polled.value) {
        QCOMPARE(received.state, QStringLiteral("received"));
        QVERIFY(!received.receiptHandle.isEmpty());
        const Settlement how = received.body == QLatin1String("one")   ? Settlement::Complete
                               : received.body == QLatin1String("two") ? Settlement::DeadLetter
                                                                        : Settlement::Abandon;
        const auto settled = AWAIT(Done, bus.settleAs(queue.value, received, how, QStringLiteral("total does not add up"), reply));
        QVERIFY2(settled.ok, qPrintable(received.body + QLatin1Char(' ') + settled.error.text()));
    }
    const auto again = AWAIT(Done, bus.settle(queue.value, polled.value.front(), reply));
    QCOMPARE(again.error.code, QStringLiteral("com.microsoft:message-lock-lost"));
    const auto left = AWAIT(MessagePage, bus.peek(queue.value, {}, reply));
    QCOMPARE(bodies(left.value.messages), QStringList{QStringLiteral("three")});

    // The dead-letter subqueue: peeked, polled, resubmitted to its queue.
    const EntityRef deadLetters = bus.deadLetters(queue.value);
    QCOMPARE(deadLetters.name, QStringLiteral("inbox/$DeadLetterQueue"));
    const auto dead = AWAIT(MessagePage, bus.peek(deadLetters, {}, reply));
    QVERIFY2(dead.ok, qPrintable(dead.error.text()));
    QCOMPARE(bodies(dead.value.messages), QStringList{QStringLiteral("two")});
    // The reason given when dead-lettering travels with the message.
    QCOMPARE(dead.value.messages.front().attributes.value(QStringLiteral("DeadLetterReason")), QStringLiteral("total does not add up"));
    const auto deadPolled = AWAIT(std::vector<MessageLine>, bus.poll(deadLetters, {}, reply));
    QVERIFY2(deadPolled.ok && deadPolled.value.size() == 1, qPrintable(deadPolled.error.text()));
    const auto resubmitted = AWAIT(QString, bus.resubmit(deadLetters, deadPolled.value.front(), reply));
    QVERIFY2(resubmitted.ok, qPrintable(resubmitted.error.text()));
    QCOMPARE(resubmitted.value, QStringLiteral("id-two"));
    QVERIFY(AWAIT(MessagePage, bus.peek(deadLetters, {}, reply)).value.messages.empty());
    const auto back = AWAIT(MessagePage, bus.peek(queue.value, {}, reply));
    QCOMPARE(bodies(back.value.messages), (QStringList{QStringLiteral("three"), QStringLiteral("two")}));
    QCOMPARE(back.value.messages.back().attributes.value(QStringLiteral("colour")), QStringLiteral("blue"));

    // Purge: receive-and-delete until none is left, with progress.
    qint64 lastDone = -1;
    const auto purged = AWAIT(Done, [&] {
        ConnectionCall *call = bus.purge(queue.value, reply);
        QObject::connect(call, &ConnectionCall::progress, call, [&lastDone](qint64 done, qint64) { lastDone = done; });
        return call;
    }());
    QVERIFY2(purged.ok, qPrintable(purged.error.text()));
    QCOMPARE(lastDone, qint64(2));
    QVERIFY(AWAIT(MessagePage, bus.peek(queue.value, {}, reply)).value.messages.empty());

    const auto missing = AWAIT(QString, bus.send({EntityKind::ServiceBusQueue, QStringLiteral("nowhere"),
                                                  QStringLiteral("/nowhere"), {}}, {}, reply));
    QVERIFY(!missing.ok);
    QCOMPARE(missing.error.code, QStringLiteral("amqp:not-found"));   // the link's detach, as Azure's
    QVERIFY(!missing.error.message.isEmpty());
    QVERIFY(AWAIT(Done, bus.deleteEntity(queue.value, reply)).ok);
}

void ServiceBusConnectionTest::wrongKeyMessages()
{
    ServiceBusConnection bus({QStringLiteral("namespace"), connectionString(kKey), m_management, {}});
    const auto queue = AWAIT(EntityRef, bus.createEntity(EntityKind::ServiceBusQueue, QStringLiteral("guarded"), {}, {}, reply));
    QVERIFY2(queue.ok, qPrintable(queue.error.text()));
    ServiceBusConnection wrong({QStringLiteral("namespace"), connectionString(QStringLiteral("bm90LXRoZS1rZXk=")), m_management, {}});
    OutgoingMessage message;
    message.body = QStringLiteral("never");
    const auto sent = AWAIT(QString, wrong.send(queue.value, message, reply));
    QVERIFY(!sent.ok);
    QCOMPARE(sent.error.service, QStringLiteral("Service Bus"));
    QVERIFY2(sent.error.code.endsWith(QLatin1String(":unauthorized-access")), qPrintable(sent.error.text()));
    QVERIFY2(!sent.error.message.isEmpty() && !sent.error.text().contains(kKey), qPrintable(sent.error.text()));
    const auto peeked = AWAIT(MessagePage, wrong.peek(queue.value, {}, reply));
    QVERIFY2(peeked.error.code.endsWith(QLatin1String(":unauthorized-access")), qPrintable(peeked.error.text()));
    const auto still = AWAIT(MessagePage, bus.peek(queue.value, {}, reply));
    QVERIFY2(still.ok && still.value.messages.empty(), qPrintable(still.error.text()));
    QVERIFY(AWAIT(Done, bus.deleteEntity(queue.value, reply)).ok);
}

RELAYDESK_TEST_MAIN(ServiceBusConnectionTest)
#include "servicebus_connection_test.moc"
