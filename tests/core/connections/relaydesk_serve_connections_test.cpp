// SPDX-License-Identifier: MIT
// AwsConnection and RelaydeskConnection end to end against `relaydesk serve
// --credentials FILE` in a process of its own (SigV4 verified by the broker):
// a profile whose keys match administers queues and topics; keys that do not
// match reach the caller as the broker's AWS error code and message; a
// credential_process profile; the native API with and without the bearer
// token; cancel.
#include "connections/aws_connection.h"
#include "connections/aws_profiles.h"
#include "connections/relaydesk_connection.h"
#include "support/test_main.h"
#include "connection_test_support.h"

#include <QTemporaryDir>
#include <QTest>

using namespace relaydesk;
using relaydesk::test::awaitCall;

namespace {

const QString kKeyId = QStringLiteral("AKIDCONNECTIONS1");
const QString kSecret = QStringLiteral("connections-test-secret");
const QString kToken = QStringLiteral("connections-test-token");

// The call `expr` (which names its reply `reply`), waited for.

bool lists(const std::vector<EntitySummary> &entities, const QString &name)
{
    return std::any_of(entities.begin(), entities.end(), [&](const EntitySummary &e) { return e.ref.name == name; });
}

} // namespace

class RelaydeskServeConnectionsTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void profileWithMatchingKeysAdministersQueues();
    void profileWithMatchingKeysAdministersTopics();
    void keysThatDoNotMatch_data();
    void keysThatDoNotMatch();
    void credentialProcess_data();
    void credentialProcess();
    void credentialProcessRunsAgainNearItsExpiration_data();
    void credentialProcessRunsAgainNearItsExpiration();
    void relaydeskWithToken();
    void relaydeskWithoutToken();
    void cancelledCallAnswersCancelledOnce();
    void listsEveryPageOfQueues();

private:
    AwsProfile profile(const QString &config, const QString &credentials) const;

    QTemporaryDir m_dir;
    relaydesk::test::ServerProcess m_server;
    QString m_url;
};

void RelaydeskServeConnectionsTest::initTestCase()
{
    m_url = relaydesk::test::startRelaydeskServeWith(m_server, m_dir.path(), kKeyId, kSecret, kToken);
    QVERIFY2(!m_url.isEmpty(), qPrintable(m_server.errors()));
}

// A profile read from the two files' texts as the AWS CLI would read them.
AwsProfile RelaydeskServeConnectionsTest::profile(const QString &config, const QString &credentials) const
{
    const AwsProfileList list = readAwsProfiles(
        QStringLiteral("[profile relaydesk]\nregion = eu-west-3\nendpoint_url = %1\n").arg(m_url) + config,
        QStringLiteral("[relaydesk]\n") + credentials);
    return *list.find(QStringLiteral("relaydesk"));
}

void RelaydeskServeConnectionsTest::profileWithMatchingKeysAdministersQueues()
{
    AwsConnection aws(profile({}, QStringLiteral("aws_access_key_id = %1\naws_secret_access_key = %2\n").arg(kKeyId, kSecret)));
    const auto created = AWAIT(EntityRef, aws.createEntity(EntityKind::Queue, QStringLiteral("orders"), {},
                                                           {{QStringLiteral("VisibilityTimeout"), QStringLiteral("40")}}, reply));
    QVERIFY2(created.ok, qPrintable(created.error.text()));
    QVERIFY2(created.value.address.endsWith(QStringLiteral("/orders")), qPrintable(created.value.address));
    const auto listed = AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind::Queue, {}, reply));
    QVERIFY2(listed.ok && lists(listed.value, QStringLiteral("orders")), qPrintable(listed.error.text()));

    OutgoingMessage message;
    message.body = QStringLiteral("first order");
    message.attributes.insert(QStringLiteral("kind"), QStringLiteral("new"));
    const auto sent = AWAIT(QString, aws.send(created.value, message, reply));
    QVERIFY2(sent.ok && !sent.value.isEmpty(), qPrintable(sent.error.text()));
    const auto polled = AWAIT(std::vector<MessageLine>, aws.poll(created.value, {10, 30}, reply));
    QVERIFY2(polled.ok, qPrintable(polled.error.text()));
    QCOMPARE(polled.value.size(), std::size_t(1));
    QCOMPARE(polled.value[0].messageId, sent.value);
    QCOMPARE(polled.value[0].body, QStringLiteral("first order"));
    QCOMPARE(polled.value[0].attributes.value(QStringLiteral("kind")), QStringLiteral("new"));
    QCOMPARE(polled.value[0].receiveCount, 1);
    QVERIFY(!polled.value[0].receiptHandle.isEmpty());
    const auto settled = AWAIT(Done, aws.settle(created.value, polled.value[0], reply));
    QVERIFY2(settled.ok, qPrintable(settled.error.text()));

    QVERIFY(AWAIT(QString, aws.send(created.value, message, reply)).ok);
    const auto purged = AWAIT(Done, aws.purge(created.value, reply));
    QVERIFY2(purged.ok, qPrintable(purged.error.text()));
    const auto changed = AWAIT(Done, aws.setAttributes(created.value, {{QStringLiteral("DelaySeconds"), QStringLiteral("5")}}, reply));
    QVERIFY2(changed.ok, qPrintable(changed.error.text()));
    const auto attributes = AWAIT(EntityAttributes, aws.attributes(created.value, reply));
    QVERIFY2(attributes.ok, qPrintable(attributes.error.text()));
    QCOMPARE(attributes.value.value(QStringLiteral("ApproximateNumberOfMessages")), QStringLiteral("0"));
    QCOMPARE(attributes.value.value(QStringLiteral("VisibilityTimeout")), QStringLiteral("40"));
    QCOMPARE(attributes.value.value(QStringLiteral("DelaySeconds")), QStringLiteral("5"));

    const auto refused = AWAIT(MessagePage, aws.peek(created.value, {}, reply));   // SQS has no peek
    QVERIFY(!refused.ok);
    QCOMPARE(refused.error.code, QStringLiteral("Unsupported"));
    QCOMPARE(refused.error.message, aws.capability(EntityKind::Queue, ConnectionFeature::Peek).reason);

    QVERIFY(AWAIT(Done, aws.deleteEntity(created.value, reply)).ok);
    const auto gone = AWAIT(EntityAttributes, aws.attributes(created.value, reply));
    QVERIFY(!gone.ok);
    QCOMPARE(gone.error.service, QStringLiteral("SQS"));
    QCOMPARE(gone.error.code, QStringLiteral("QueueDoesNotExist"));
    QCOMPARE(gone.error.httpStatus, 400);
    QVERIFY(!aws.speaksSqsQuery());
}

void RelaydeskServeConnectionsTest::profileWithMatchingKeysAdministersTopics()
{
    AwsConnection aws(profile({}, QStringLiteral("aws_access_key_id = %1\naws_secret_access_key = %2\n").arg(kKeyId, kSecret)));
    const auto topic = AWAIT(EntityRef, aws.createEntity(EntityKind::Topic, QStringLiteral("events"), {},
                                                         {{QStringLiteral("DisplayName"), QStringLiteral("Events")}}, reply));
    QVERIFY2(topic.ok, qPrintable(topic.error.text()));
    QVERIFY2(topic.value.address.endsWith(QStringLiteral(":events")), qPrintable(topic.value.address));
    const auto queue = AWAIT(EntityRef, aws.createEntity(EntityKind::Queue, QStringLiteral("events-copy"), {}, {}, reply));
    QVERIFY(queue.ok);
    const auto queueArn = AWAIT(EntityAttributes, aws.attributes(queue.value, reply)).value.value(QStringLiteral("QueueArn"));
    const auto subscription = AWAIT(EntityRef, aws.createEntity(EntityKind::Subscription, QStringLiteral("copy"), topic.value.address,
                                                                {{QStringLiteral("Protocol"), QStringLiteral("sqs")},
                                                                 {QStringLiteral("Endpoint"), queueArn}}, reply));
    QVERIFY2(subscription.ok, qPrintable(subscription.error.text()));
    const auto topics = AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind::Topic, {}, reply));
    QVERIFY2(topics.ok && lists(topics.value, QStringLiteral("events")), qPrintable(topics.error.text()));
    const auto subscriptions = AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind::Subscription, topic.value.address, reply));
    QVERIFY2(subscriptions.ok, qPrintable(subscriptions.error.text()));
    QCOMPARE(subscriptions.value.size(), std::size_t(1));
    QCOMPARE(subscriptions.value[0].ref.address, subscription.value.address);
    const auto attributes = AWAIT(EntityAttributes, aws.attributes(topic.value, reply));
    QCOMPARE(attributes.value.value(QStringLiteral("DisplayName")), QStringLiteral("Events"));

    OutgoingMessage message;
    message.body = QStringLiteral("published");
    QVERIFY(AWAIT(QString, aws.send(topic.value, message, reply)).ok);
    const auto copied = AWAIT(std::vector<MessageLine>, aws.poll(queue.value, {10, 30}, reply));
    QCOMPARE(copied.value.size(), std::size_t(1));
    QVERIFY2(copied.value[0].body.contains(QStringLiteral("published")), qPrintable(copied.value[0].body));

    QVERIFY(AWAIT(Done, aws.deleteEntity(subscription.value, reply)).ok);
    QVERIFY(AWAIT(Done, aws.deleteEntity(topic.value, reply)).ok);
    const auto gone = AWAIT(EntityAttributes, aws.attributes(topic.value, reply));
    QCOMPARE(gone.error.service, QStringLiteral("SNS"));
    QCOMPARE(gone.error.code, QStringLiteral("NotFound"));
}

void RelaydeskServeConnectionsTest::keysThatDoNotMatch_data()
{
    QTest::addColumn<QString>("credentials");
    QTest::addColumn<int>("kind");   // EntityKind listed
    QTest::addColumn<QString>("service");
    QTest::addColumn<QString>("code");
    QTest::addColumn<int>("status");
    const QString wrongSecret = QStringLiteral("aws_access_key_id = %1\naws_secret_access_key = not-the-secret\n").arg(kKeyId);
    const QString unknownKey = QStringLiteral("aws_access_key_id = AKIDNOBODY\naws_secret_access_key = %1\n").arg(kSecret);
    QTest::newRow("SQS, wrong secret") << wrongSecret << int(EntityKind::Queue) << "SQS" << "SignatureDoesNotMatch" << 403;
    QTest::newRow("SQS, unknown key id") << unknownKey << int(EntityKind::Queue) << "SQS" << "InvalidClientTokenId" << 403;
    QTest::newRow("SNS, wrong secret") << wrongSecret << int(EntityKind::Topic) << "SNS" << "SignatureDoesNotMatch" << 403;
    QTest::newRow("SNS, unknown key id") << unknownKey << int(EntityKind::Topic) << "SNS" << "InvalidClientTokenId" << 403;
}

void RelaydeskServeConnectionsTest::keysThatDoNotMatch()
{
    QFETCH(QString, credentials);
    QFETCH(int, kind);
    QFETCH(QString, service);
    QFETCH(QString, code);
    QFETCH(int, status);
    AwsConnection aws(profile({}, credentials));
    const auto listed = AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind(kind), {}, reply));
    QVERIFY(!listed.ok);
    QCOMPARE(listed.error.service, service);
    QCOMPARE(listed.error.code, code);
    QCOMPARE(listed.error.httpStatus, status);
    QVERIFY2(!listed.error.message.isEmpty(), qPrintable(listed.error.text()));
    QVERIFY2(!listed.error.text().contains(kSecret), qPrintable(listed.error.text()));
    // Refused before anything ran: a create with those keys creates nothing.
    QVERIFY(!AWAIT(EntityRef, aws.createEntity(EntityKind(kind), QStringLiteral("never"), {}, {}, reply)).ok);
    AwsConnection good(profile({}, QStringLiteral("aws_access_key_id = %1\naws_secret_access_key = %2\n").arg(kKeyId, kSecret)));
    QVERIFY(!lists(AWAIT(std::vector<EntitySummary>, good.listEntities(EntityKind(kind), {}, reply)).value, QStringLiteral("never")));
}

void RelaydeskServeConnectionsTest::credentialProcess_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("code");   // empty: the listing works
    QTest::addColumn<QString>("says");
    QTest::newRow("prints the profile's keys")
        << QStringLiteral(R"(/bin/echo '{"Version": 1, "AccessKeyId": "%1", "SecretAccessKey": "%2"}')").arg(kKeyId, kSecret)
        << "" << "";
    QTest::newRow("prints keys the broker does not know")
        << QStringLiteral(R"(/bin/echo '{"Version": 1, "AccessKeyId": "AKIDOTHER", "SecretAccessKey": "x", "SessionToken": "t"}')")
        << "InvalidClientTokenId" << "";
    QTest::newRow("fails, saying why") << QStringLiteral(R"(/bin/sh -c 'echo "token expired, log in again" >&2; exit 3')")
                                       << "CredentialProcessFailed" << "token expired, log in again";
    QTest::newRow("prints no credentials") << QStringLiteral("/bin/echo {}") << "CredentialProcessOutput" << "Version";
    QTest::newRow("does not exist") << QStringLiteral("/nonexistent/credential-helper") << "CredentialProcessFailed"
                                    << "did not start";
}

void RelaydeskServeConnectionsTest::credentialProcess()
{
    QFETCH(QString, command);
    QFETCH(QString, code);
    QFETCH(QString, says);
    AwsConnection aws(profile(QStringLiteral("credential_process = %1\n").arg(command), {}));
    const auto listed = AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind::Queue, {}, reply));
    QCOMPARE(listed.ok, code.isEmpty());
    QVERIFY2(listed.error.code == code, qPrintable(listed.error.text()));
    QVERIFY2(listed.error.message.contains(says), qPrintable(listed.error.text()));
}

void RelaydeskServeConnectionsTest::credentialProcessRunsAgainNearItsExpiration_data()
{
    QTest::addColumn<qint64>("expiresInSeconds");   // 0: no Expiration
    QTest::addColumn<int>("runs");                  // for two listings
    QTest::newRow("no Expiration: once") << qint64(0) << 1;
    QTest::newRow("an hour ahead: once") << qint64(3600) << 1;
    QTest::newRow("within 5 minutes: every time") << qint64(120) << 2;
}

void RelaydeskServeConnectionsTest::credentialProcessRunsAgainNearItsExpiration()
{
    QFETCH(qint64, expiresInSeconds);
    QFETCH(int, runs);
    const QString counter = m_dir.filePath(QStringLiteral("runs-%1").arg(expiresInSeconds));
    QString output = QStringLiteral(R"({"Version": 1, "AccessKeyId": "%1", "SecretAccessKey": "%2")").arg(kKeyId, kSecret);
    if (expiresInSeconds > 0)
        output += QStringLiteral(R"(, "Expiration": "%1")")
                      .arg(QDateTime::currentDateTimeUtc().addSecs(expiresInSeconds).toString(Qt::ISODate));
    output += QLatin1Char('}');
    const QString script = m_dir.filePath(QStringLiteral("helper-%1.sh").arg(expiresInSeconds));
    QFile file(script);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral("#!/bin/sh\necho run >> '%1'\necho '%2'\n").arg(counter, output).toUtf8());
    file.close();
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    AwsConnection aws(profile(QStringLiteral("credential_process = %1\n").arg(script), {}));
    for (int i = 0; i < 2; ++i) {
        const auto listed = AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind::Queue, {}, reply));
        QVERIFY2(listed.ok, qPrintable(listed.error.text()));
    }
    QFile ran(counter);
    QVERIFY(ran.open(QIODevice::ReadOnly));
    QCOMPARE(ran.readAll().count("run"), runs);
}

void RelaydeskServeConnectionsTest::relaydeskWithToken()
{
    RelaydeskConnection relaydesk({QStringLiteral("shared"), QUrl(m_url), {kKeyId, kSecret, {}}, kToken});
    const auto queue = AWAIT(EntityRef, relaydesk.createEntity(EntityKind::Queue, QStringLiteral("peeked"), {}, {}, reply));
    QVERIFY2(queue.ok, qPrintable(queue.error.text()));
    for (const char *body : {"one", "two", "three"}) {
        OutgoingMessage message;
        message.body = QString::fromLatin1(body);
        QVERIFY(AWAIT(QString, relaydesk.send(queue.value, message, reply)).ok);
    }
    QVERIFY(relaydesk.capability(EntityKind::Queue, ConnectionFeature::Peek).offered);
    const auto first = AWAIT(MessagePage, relaydesk.peek(queue.value, {std::nullopt, 2}, reply));
    QVERIFY2(first.ok, qPrintable(first.error.text()));
    QCOMPARE(first.value.messages.size(), std::size_t(2));
    QCOMPARE(first.value.messages[0].body, QStringLiteral("one"));
    QCOMPARE(first.value.messages[0].state, QStringLiteral("available"));
    QVERIFY(first.value.messages[0].receiptHandle.isEmpty());   // peeked, not received
    QVERIFY(first.value.next);
    const auto second = AWAIT(MessagePage, relaydesk.peek(queue.value, {first.value.next, 2}, reply));
    QCOMPARE(second.value.messages.size(), std::size_t(1));
    QCOMPARE(second.value.messages[0].body, QStringLiteral("three"));
    QVERIFY(!second.value.next);
    // Peeking changed nothing: a poll still gets the first message, received once.
    const auto polled = AWAIT(std::vector<MessageLine>, relaydesk.poll(queue.value, {1, 30}, reply));
    QCOMPARE(polled.value.at(0).receiveCount, 1);

    const auto before = AWAIT(BrokerClock, relaydesk.clock(reply));
    QVERIFY2(before.ok, qPrintable(before.error.text()));
    QCOMPARE(before.value.mode, QStringLiteral("virtual"));
    QVERIFY(before.value.now.isValid());
    const auto after = AWAIT(BrokerClock, relaydesk.advanceClock(60, reply));
    QVERIFY2(after.ok, qPrintable(after.error.text()));
    QCOMPARE(before.value.now.msecsTo(after.value.now), 60000);
    // A connection without a clock says why, and sends nothing.
    AwsConnection aws(profile({}, QStringLiteral("aws_access_key_id = %1\naws_secret_access_key = %2\n").arg(kKeyId, kSecret)));
    const auto refused = AWAIT(BrokerClock, aws.advanceClock(60, reply));
    QCOMPARE(refused.error.code, QStringLiteral("Unsupported"));
    QCOMPARE(refused.error.message, aws.capability(EntityKind::Queue, ConnectionFeature::Clock).reason);
}

void RelaydeskServeConnectionsTest::relaydeskWithoutToken()
{
    RelaydeskConnection relaydesk({QStringLiteral("shared"), QUrl(m_url), {kKeyId, kSecret, {}}, {}});
    const auto queue = AWAIT(EntityRef, relaydesk.createEntity(EntityKind::Queue, QStringLiteral("tokenless"), {}, {}, reply));
    QVERIFY2(queue.ok, qPrintable(queue.error.text()));   // SQS needs the keys, not the token
    const auto peeked = AWAIT(MessagePage, relaydesk.peek(queue.value, {}, reply));
    QVERIFY(!peeked.ok);
    QCOMPARE(peeked.error.service, QStringLiteral("Relaydesk"));
    QCOMPARE(peeked.error.code, QStringLiteral("Unauthorized"));
    QCOMPARE(peeked.error.httpStatus, 401);
    QVERIFY2(!peeked.error.message.isEmpty(), qPrintable(peeked.error.text()));
    RelaydeskConnection wrong({QStringLiteral("shared"), QUrl(m_url), {kKeyId, kSecret, {}}, QStringLiteral("not-the-token")});
    const auto advanced = AWAIT(BrokerClock, wrong.advanceClock(60, reply));
    QCOMPARE(advanced.error.code, QStringLiteral("Unauthorized"));
}

void RelaydeskServeConnectionsTest::cancelledCallAnswersCancelledOnce()
{
    AwsConnection aws(profile({}, QStringLiteral("aws_access_key_id = %1\naws_secret_access_key = %2\n").arg(kKeyId, kSecret)));
    int answers = 0;
    ConnectionResult<std::vector<EntitySummary>> last;
    QPointer<ConnectionCall> call = aws.listEntities(EntityKind::Queue, {}, [&](ConnectionResult<std::vector<EntitySummary>> r) {
        ++answers;
        last = std::move(r);
    });
    QSignalSpy finished(call.data(), &ConnectionCall::finished);
    call->cancel();
    QCOMPARE(answers, 1);
    QCOMPARE(last.error.code, QStringLiteral("Cancelled"));
    QCOMPARE(finished.count(), 1);
    // The request's answer (it was on its way) is dropped; the call is gone.
    const auto later = AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind::Queue, {}, reply));
    QVERIFY(later.ok);
    QTRY_VERIFY(call.isNull());
    QCOMPARE(answers, 1);
}

// ListQueues answers 1000 a page: a listing follows NextToken to the end,
// reporting its progress after each page.
void RelaydeskServeConnectionsTest::listsEveryPageOfQueues()
{
    AwsConnection aws(profile({}, QStringLiteral("aws_access_key_id = %1\naws_secret_access_key = %2\n").arg(kKeyId, kSecret)));
    const std::size_t before = AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind::Queue, {}, reply)).value.size();
    for (std::size_t i = before; i < 1002; ++i)
        QVERIFY(AWAIT(EntityRef, aws.createEntity(EntityKind::Queue, QStringLiteral("page-%1").arg(i), {}, {}, reply)).ok);
    QList<qint64> progress;
    const auto listed = awaitCall<std::vector<EntitySummary>>([&](BrokerConnection::Reply<std::vector<EntitySummary>> reply) {
        ConnectionCall *call = aws.listEntities(EntityKind::Queue, {}, reply);
        QObject::connect(call, &ConnectionCall::progress, call, [&progress](qint64 done, qint64) { progress << done; });
        return call;
    });
    QVERIFY2(listed.ok, qPrintable(listed.error.text()));
    QCOMPARE(listed.value.size(), std::size_t(1002));
    QCOMPARE(progress, (QList<qint64>{1000, 1002}));
}

RELAYDESK_TEST_MAIN(RelaydeskServeConnectionsTest)
#include "relaydesk_serve_connections_test.moc"
