// SPDX-License-Identifier: MIT
// EmbeddedConnection ("This computer") over a BrokerService in this process:
// the operations of the boundary on queues, topics and subscriptions, the
// broker's errors in the services' codes, and peek leaving messages as they were.
#include "connections/embedded_connection.h"
#include "support/engine_test_support.h"
#include "support/test_main.h"
#include "connection_test_support.h"

#include <QTemporaryDir>
#include <QTest>

using namespace relaydesk;
using relaydesk::test::awaitCall;


class EmbeddedConnectionTest : public QObject {
    Q_OBJECT
private slots:
    void queues();
    void topicsAndSubscriptions();
    void errorsInTheServicesCodes_data();
    void errorsInTheServicesCodes();
    void listsEveryPage();
    void cancelledCallAnswersCancelledOnce();
};

namespace {

ClockTime start() { return fromEpochMilliseconds(1795000000000); }

} // namespace

void EmbeddedConnectionTest::queues()
{
    QTemporaryDir dir;
    relaydesk::testing::ServiceBench bench(dir, "embedded.db", start());
    EmbeddedConnection connection(bench.service(), bench.identity());
    QCOMPARE(connection.displayName(), QStringLiteral("This computer"));
    const auto queue = AWAIT(EntityRef, connection.createEntity(EntityKind::Queue, QStringLiteral("orders"), {},
                                                                {{QStringLiteral("VisibilityTimeout"), QStringLiteral("40")}}, reply));
    QVERIFY2(queue.ok, qPrintable(queue.error.text()));
    QCOMPARE(queue.value.address, QString::fromStdString(bench.identity().queueUrl("orders")));
    const auto listed = AWAIT(std::vector<EntitySummary>, connection.listEntities(EntityKind::Queue, {}, reply));
    QCOMPARE(listed.value.size(), std::size_t(1));
    QCOMPARE(listed.value[0].ref.name, QStringLiteral("orders"));

    OutgoingMessage message;
    message.body = QStringLiteral("hello");
    message.attributes.insert(QStringLiteral("kind"), QStringLiteral("new"));
    const auto sent = AWAIT(QString, connection.send(queue.value, message, reply));
    QVERIFY2(sent.ok, qPrintable(sent.error.text()));
    const auto peeked = AWAIT(MessagePage, connection.peek(queue.value, {}, reply));
    QVERIFY2(peeked.ok, qPrintable(peeked.error.text()));
    QCOMPARE(peeked.value.messages.size(), std::size_t(1));
    QCOMPARE(peeked.value.messages[0].messageId, sent.value);
    QCOMPARE(peeked.value.messages[0].state, QStringLiteral("available"));
    QCOMPARE(peeked.value.messages[0].attributes.value(QStringLiteral("kind")), QStringLiteral("new"));
    QCOMPARE(peeked.value.total, std::optional<qint64>(1));
    const auto polled = AWAIT(std::vector<MessageLine>, connection.poll(queue.value, {10, 30}, reply));
    QCOMPARE(polled.value.size(), std::size_t(1));
    QCOMPARE(polled.value[0].receiveCount, 1);   // the peek before was no receive
    QCOMPARE(AWAIT(MessagePage, connection.peek(queue.value, {}, reply)).value.messages[0].state, QStringLiteral("inFlight"));
    QVERIFY(AWAIT(Done, connection.settle(queue.value, polled.value[0], reply)).ok);
    QVERIFY(AWAIT(MessagePage, connection.peek(queue.value, {}, reply)).value.messages.empty());

    QVERIFY(AWAIT(QString, connection.send(queue.value, message, reply)).ok);
    QVERIFY(AWAIT(Done, connection.purge(queue.value, reply)).ok);
    QVERIFY(AWAIT(Done, connection.setAttributes(queue.value, {{QStringLiteral("DelaySeconds"), QStringLiteral("5")}}, reply)).ok);
    const auto attributes = AWAIT(EntityAttributes, connection.attributes(queue.value, reply));
    QCOMPARE(attributes.value.value(QStringLiteral("ApproximateNumberOfMessages")), QStringLiteral("0"));
    QCOMPARE(attributes.value.value(QStringLiteral("VisibilityTimeout")), QStringLiteral("40"));
    QCOMPARE(attributes.value.value(QStringLiteral("DelaySeconds")), QStringLiteral("5"));
    QVERIFY(AWAIT(Done, connection.deleteEntity(queue.value, reply)).ok);
    QVERIFY(AWAIT(std::vector<EntitySummary>, connection.listEntities(EntityKind::Queue, {}, reply)).value.empty());
}

void EmbeddedConnectionTest::topicsAndSubscriptions()
{
    QTemporaryDir dir;
    relaydesk::testing::ServiceBench bench(dir, "embedded.db", start());
    EmbeddedConnection connection(bench.service(), bench.identity());
    const auto topic = AWAIT(EntityRef, connection.createEntity(EntityKind::Topic, QStringLiteral("events"), {}, {}, reply));
    QVERIFY2(topic.ok, qPrintable(topic.error.text()));
    const auto queue = AWAIT(EntityRef, connection.createEntity(EntityKind::Queue, QStringLiteral("copy"), {}, {}, reply));
    const auto subscription = AWAIT(EntityRef, connection.createEntity(
        EntityKind::Subscription, QStringLiteral("copy"), topic.value.address,
        {{QStringLiteral("Protocol"), QStringLiteral("sqs")},
         {QStringLiteral("Endpoint"), QString::fromStdString(bench.identity().queueArn("copy"))},
         {QStringLiteral("RawMessageDelivery"), QStringLiteral("true")}}, reply));
    QVERIFY2(subscription.ok, qPrintable(subscription.error.text()));
    const auto subscriptions = AWAIT(std::vector<EntitySummary>,
                                     connection.listEntities(EntityKind::Subscription, topic.value.address, reply));
    QCOMPARE(subscriptions.value.size(), std::size_t(1));
    QCOMPARE(subscriptions.value[0].ref.parent, topic.value.address);
    const auto attributes = AWAIT(EntityAttributes, connection.attributes(subscription.value, reply));
    QCOMPARE(attributes.value.value(QStringLiteral("RawMessageDelivery")), QStringLiteral("true"));
    OutgoingMessage message;
    message.body = QStringLiteral("fanned out");
    QVERIFY(AWAIT(QString, connection.send(topic.value, message, reply)).ok);
    const auto copied = AWAIT(MessagePage, connection.peek(queue.value, {}, reply));
    QCOMPARE(copied.value.messages.at(0).body, QStringLiteral("fanned out"));
    QVERIFY(AWAIT(Done, connection.setAttributes(topic.value, {{QStringLiteral("DisplayName"), QStringLiteral("E")}}, reply)).ok);
    QCOMPARE(AWAIT(EntityAttributes, connection.attributes(topic.value, reply)).value.value(QStringLiteral("DisplayName")),
             QStringLiteral("E"));
    QVERIFY(AWAIT(Done, connection.deleteEntity(subscription.value, reply)).ok);
    QVERIFY(AWAIT(Done, connection.deleteEntity(topic.value, reply)).ok);
    QVERIFY(AWAIT(std::vector<EntitySummary>, connection.listEntities(EntityKind::Topic, {}, reply)).value.empty());
}

void EmbeddedConnectionTest::errorsInTheServicesCodes_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("service");
    QTest::addColumn<QString>("code");
    QTest::newRow("a queue that is not there") << int(EntityKind::Queue) << "SQS" << "QueueDoesNotExist";
    QTest::newRow("a topic that is not there") << int(EntityKind::Topic) << "SNS" << "NotFound";
}

void EmbeddedConnectionTest::errorsInTheServicesCodes()
{
    QFETCH(int, kind);
    QFETCH(QString, service);
    QFETCH(QString, code);
    QTemporaryDir dir;
    relaydesk::testing::ServiceBench bench(dir, "embedded.db", start());
    EmbeddedConnection connection(bench.service(), bench.identity());
    const EntityRef missing{EntityKind(kind), QStringLiteral("missing"),
                            kind == int(EntityKind::Topic) ? QString::fromStdString(bench.identity().topicArn("missing"))
                                                           : QString::fromStdString(bench.identity().queueUrl("missing")),
                            {}};
    const auto answer = AWAIT(EntityAttributes, connection.attributes(missing, reply));
    QVERIFY(!answer.ok);
    QCOMPARE(answer.error.service, service);
    QCOMPARE(answer.error.code, code);
    QVERIFY(!answer.error.message.isEmpty());
}

void EmbeddedConnectionTest::listsEveryPage()
{
    QTemporaryDir dir;
    relaydesk::testing::ServiceBench bench(dir, "embedded.db", start());
    EmbeddedConnection connection(bench.service(), bench.identity());
    for (int i = 0; i < 105; ++i)   // SNS's page is 100 topics
        QVERIFY(AWAIT(EntityRef, connection.createEntity(EntityKind::Topic, QStringLiteral("t%1").arg(i), {}, {}, reply)).ok);
    QList<qint64> progress;
    const auto topics = awaitCall<std::vector<EntitySummary>>([&](BrokerConnection::Reply<std::vector<EntitySummary>> reply) {
        ConnectionCall *call = connection.listEntities(EntityKind::Topic, {}, reply);
        QObject::connect(call, &ConnectionCall::progress, call, [&progress](qint64 done, qint64) { progress << done; });
        return call;
    });
    QCOMPARE(topics.value.size(), std::size_t(105));
    QCOMPARE(progress, (QList<qint64>{100, 105}));
}

// A cancelled call answers Cancelled at once; the broker's reply, already on
// its way, is dropped, and the send it made stays made (cancel stops waiting,
// it undoes nothing).
void EmbeddedConnectionTest::cancelledCallAnswersCancelledOnce()
{
    QTemporaryDir dir;
    relaydesk::testing::ServiceBench bench(dir, "embedded.db", start());
    EmbeddedConnection connection(bench.service(), bench.identity());
    const auto queue = AWAIT(EntityRef, connection.createEntity(EntityKind::Queue, QStringLiteral("orders"), {}, {}, reply));
    int answers = 0;
    QString code;
    OutgoingMessage message;
    message.body = QStringLiteral("sent anyway");
    QPointer<ConnectionCall> call = connection.send(queue.value, message, [&](ConnectionResult<QString> result) {
        ++answers;
        code = result.error.code;
    });
    call->cancel();
    QCOMPARE(answers, 1);
    QCOMPARE(code, QStringLiteral("Cancelled"));
    // A poll is a unit on the broker thread after the send's (a peek reads
    // on its own and may come first): the message cancel did not undo.
    const auto polled = AWAIT(std::vector<MessageLine>, connection.poll(queue.value, {}, reply));
    QCOMPARE(polled.value.size(), std::size_t(1));
    QTRY_VERIFY(call.isNull());
    QCOMPARE(answers, 1);
}

RELAYDESK_TEST_MAIN(EmbeddedConnectionTest)
#include "embedded_connection_test.moc"
