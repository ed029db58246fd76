// SPDX-License-Identifier: MIT
// AwsConnection against a service Relaydesk did not write: sqslite (npm,
// pinned by tests/bench/peer/package-lock.json, installed into this build
// folder by installer/dev.sh) in a process of its own, reached through an AWS
// profile whose endpoint_url points at it. sqslite speaks only the SQS query
// protocol (it refuses the JSON protocol's media type), answers ListQueues
// with names and knows its queues by their localhost URLs: the connection
// switches to the query protocol and finds URLs by GetQueueUrl.
#include "connections/aws_connection.h"
#include "connections/aws_profiles.h"
#include "support/test_main.h"
#include "connection_test_support.h"

#include <QFileInfo>
#include <QTest>

using namespace relaydesk;
using relaydesk::test::awaitCall;


class SqsliteConnectionTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void profileWithEndpointUrlAdministersQueues();
    void errorsInSqslitesWords();

private:
    AwsProfile profile() const;

    relaydesk::test::ServerProcess m_server;
    quint16 m_port = 0;
};

void SqsliteConnectionTest::initTestCase()
{
    const QString cli = QStringLiteral(RELAYDESK_SQSLITE_DIR "/node_modules/sqslite/bin/cli.js");
    QVERIFY2(QFileInfo::exists(cli), qPrintable(QStringLiteral("no sqslite at %1: installer/dev.sh test installs it "
                                                               "(or `npm ci` in %2)").arg(cli, RELAYDESK_SQSLITE_DIR)));
    m_port = relaydesk::test::freePort();
    const QString url = m_server.start(QStringLiteral("/usr/bin/node"),
                                       {cli, "--host", "127.0.0.1", "--port", QString::number(m_port)},
                                       QStringLiteral("server listening on "));
    QVERIFY2(!url.isEmpty(), qPrintable(m_server.errors()));
}

AwsProfile SqsliteConnectionTest::profile() const
{
    const AwsProfileList list = readAwsProfiles(
        QStringLiteral("[profile sqslite]\nregion = us-east-1\nendpoint_url = http://localhost:%1\n").arg(m_port),
        QStringLiteral("[sqslite]\naws_access_key_id = test\naws_secret_access_key = test\n"));
    return *list.find(QStringLiteral("sqslite"));
}

void SqsliteConnectionTest::profileWithEndpointUrlAdministersQueues()
{
    AwsConnection aws(profile());
    const auto queue = AWAIT(EntityRef, aws.createEntity(EntityKind::Queue, QStringLiteral("orders"), {},
                                                         {{QStringLiteral("VisibilityTimeout"), QStringLiteral("40")}}, reply));
    QVERIFY2(queue.ok, qPrintable(queue.error.text()));
    QVERIFY(aws.speaksSqsQuery());
    const auto listed = AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind::Queue, {}, reply));
    QVERIFY2(listed.ok, qPrintable(listed.error.text()));
    QCOMPARE(listed.value.size(), std::size_t(1));
    const EntityRef listedQueue = listed.value[0].ref;   // a name: found by GetQueueUrl below
    QCOMPARE(listedQueue.name, QStringLiteral("orders"));

    OutgoingMessage message;
    message.body = QStringLiteral("to a peer");
    message.attributes.insert(QStringLiteral("kind"), QStringLiteral("new"));
    const auto sent = AWAIT(QString, aws.send(listedQueue, message, reply));
    QVERIFY2(sent.ok, qPrintable(sent.error.text()));
    const auto polled = AWAIT(std::vector<MessageLine>, aws.poll(queue.value, {10, 30}, reply));
    QVERIFY2(polled.ok, qPrintable(polled.error.text()));
    QCOMPARE(polled.value.size(), std::size_t(1));
    QCOMPARE(polled.value[0].messageId, sent.value);
    QCOMPARE(polled.value[0].body, QStringLiteral("to a peer"));
    QCOMPARE(polled.value[0].receiveCount, 1);
    QVERIFY(polled.value[0].sent.isValid());
    const auto settled = AWAIT(Done, aws.settle(queue.value, polled.value[0], reply));
    QVERIFY2(settled.ok, qPrintable(settled.error.text()));

    QVERIFY(AWAIT(QString, aws.send(queue.value, message, reply)).ok);
    const auto purged = AWAIT(Done, aws.purge(queue.value, reply));
    QVERIFY2(purged.ok, qPrintable(purged.error.text()));
    const auto attributes = AWAIT(EntityAttributes, aws.attributes(listedQueue, reply));
    QVERIFY2(attributes.ok, qPrintable(attributes.error.text()));
    QCOMPARE(attributes.value.value(QStringLiteral("ApproximateNumberOfMessages")), QStringLiteral("0"));
    QCOMPARE(attributes.value.value(QStringLiteral("VisibilityTimeout")), QStringLiteral("40"));
    const auto deleted = AWAIT(Done, aws.deleteEntity(queue.value, reply));
    QVERIFY2(deleted.ok, qPrintable(deleted.error.text()));
    QVERIFY(AWAIT(std::vector<EntitySummary>, aws.listEntities(EntityKind::Queue, {}, reply)).value.empty());
}

void SqsliteConnectionTest::errorsInSqslitesWords()
{
    AwsConnection aws(profile());
    const EntityRef missing{EntityKind::Queue, QStringLiteral("missing"),
                            QStringLiteral("http://localhost:%1/queues/missing").arg(m_port), {}};
    const auto answer = AWAIT(EntityAttributes, aws.attributes(missing, reply));
    QVERIFY(!answer.ok);
    QCOMPARE(answer.error.service, QStringLiteral("SQS"));
    QCOMPARE(answer.error.code, QStringLiteral("AWS.SimpleQueueService.NonExistentQueue"));
    QCOMPARE(answer.error.message, QStringLiteral("AWS.SimpleQueueService.NonExistentQueue; see the SQS docs."));
}

RELAYDESK_TEST_MAIN(SqsliteConnectionTest)
#include "sqslite_connection_test.moc"
