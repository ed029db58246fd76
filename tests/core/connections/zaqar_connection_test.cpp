// SPDX-License-Identifier: MIT
// ZaqarConnection end to end against Relaydesk's Zaqar v2 API (`relaydesk serve
// --credentials FILE` in a process of its own; the bearer token as X-Auth-Token):
// queues with metadata and stats, post, peek, claim and delete, purge, and
// Zaqar's errors in its own words.
#include "connections/zaqar_connection.h"
#include "support/test_main.h"
#include "connection_test_support.h"
#include "fake_keystone.h"

#include <QTemporaryDir>
#include <QTest>

using namespace relaydesk;
using relaydesk::test::awaitCall;


namespace {

const QString kToken = QStringLiteral("zaqar-connection-token");

// Keystone credentials of a user of the Default domain, scoped by the connection's project id.
KeystoneCredentials keystoneUser(const QString &url, const QString &password)
{
    return {QUrl(url), QStringLiteral("alice"), password, {}, {}, {}};
}

} // namespace

class ZaqarConnectionTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void administersQueues();
    void errorsInZaqarsWords_data();
    void errorsInZaqarsWords();
    void keystoneCredentials();

private:
    QTemporaryDir m_dir;
    relaydesk::test::ServerProcess m_server;
    QString m_url;
};

void ZaqarConnectionTest::initTestCase()
{
    QFile file(m_dir.filePath(QStringLiteral("credentials.json")));
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(QStringLiteral(R"({"bearerTokens": ["%1"]})").arg(kToken).toUtf8());
    file.close();
    m_url = relaydesk::test::startRelaydeskServe(m_server, file.fileName());
    QVERIFY2(!m_url.isEmpty(), qPrintable(m_server.errors()));
}

void ZaqarConnectionTest::administersQueues()
{
    ZaqarConnection zaqar({QStringLiteral("zaqar"), QUrl(m_url), QStringLiteral("project-1"), kToken, {}});
    const auto queue = AWAIT(EntityRef, zaqar.createEntity(EntityKind::ZaqarQueue, QStringLiteral("jobs"), {},
                                                           {{QStringLiteral("_default_message_ttl"), QStringLiteral("600")},
                                                            {QStringLiteral("team"), QStringLiteral("billing")}}, reply));
    QVERIFY2(queue.ok, qPrintable(queue.error.text()));
    const auto listed = AWAIT(std::vector<EntitySummary>, zaqar.listEntities(EntityKind::ZaqarQueue, {}, reply));
    QVERIFY2(listed.ok, qPrintable(listed.error.text()));
    QCOMPARE(listed.value.size(), std::size_t(1));
    QCOMPARE(listed.value[0].ref.name, QStringLiteral("jobs"));

    QVERIFY(AWAIT(Done, zaqar.setAttributes(queue.value, {{QStringLiteral("team"), QStringLiteral("payments")}}, reply)).ok);
    OutgoingMessage task;
    task.body = QStringLiteral(R"({"task": "invoice"})");
    const auto sent = AWAIT(QString, zaqar.send(queue.value, task, reply));
    QVERIFY2(sent.ok && !sent.value.isEmpty(), qPrintable(sent.error.text()));
    OutgoingMessage refund;
    refund.body = QStringLiteral("refund");
    QVERIFY(AWAIT(QString, zaqar.send(queue.value, refund, reply)).ok);
    const auto attributes = AWAIT(EntityAttributes, zaqar.attributes(queue.value, reply));
    QVERIFY2(attributes.ok, qPrintable(attributes.error.text()));
    QCOMPARE(attributes.value.value(QStringLiteral("team")), QStringLiteral("payments"));
    QCOMPARE(attributes.value.value(QStringLiteral("_default_message_ttl")), QStringLiteral("600"));
    QCOMPARE(attributes.value.value(QStringLiteral("messages.total")), QStringLiteral("2"));

    const auto first = AWAIT(MessagePage, zaqar.peek(queue.value, {std::nullopt, 1}, reply));
    QVERIFY2(first.ok, qPrintable(first.error.text()));
    QCOMPARE(first.value.messages.size(), std::size_t(1));
    QCOMPARE(first.value.messages[0].messageId, sent.value);
    QCOMPARE(first.value.messages[0].body, QStringLiteral(R"({"task":"invoice"})"));
    const auto second = AWAIT(MessagePage, zaqar.peek(queue.value, {first.value.next, 1}, reply));
    QCOMPARE(second.value.messages.at(0).body, QStringLiteral("refund"));

    const auto claimed = AWAIT(std::vector<MessageLine>, zaqar.poll(queue.value, {1, 30}, reply));
    QVERIFY2(claimed.ok, qPrintable(claimed.error.text()));
    QCOMPARE(claimed.value.size(), std::size_t(1));
    QVERIFY(claimed.value[0].receiptHandle.contains(QStringLiteral("claim_id=")));
    QVERIFY(AWAIT(Done, zaqar.settle(queue.value, claimed.value[0], reply)).ok);
    QCOMPARE(AWAIT(EntityAttributes, zaqar.attributes(queue.value, reply)).value.value(QStringLiteral("messages.total")),
             QStringLiteral("1"));
    QVERIFY(AWAIT(Done, zaqar.purge(queue.value, reply)).ok);
    QCOMPARE(AWAIT(EntityAttributes, zaqar.attributes(queue.value, reply)).value.value(QStringLiteral("messages.total")),
             QStringLiteral("0"));
    QVERIFY(AWAIT(Done, zaqar.deleteEntity(queue.value, reply)).ok);
    QVERIFY(AWAIT(std::vector<EntitySummary>, zaqar.listEntities(EntityKind::ZaqarQueue, {}, reply)).value.empty());
}

void ZaqarConnectionTest::errorsInZaqarsWords_data()
{
    QTest::addColumn<QString>("token");
    QTest::addColumn<int>("status");
    QTest::newRow("without the token") << "" << 401;
    QTest::newRow("with another token") << "not-the-token" << 401;
    QTest::newRow("a queue name Zaqar refuses") << kToken << 400;
}

void ZaqarConnectionTest::errorsInZaqarsWords()
{
    QFETCH(QString, token);
    QFETCH(int, status);
    ZaqarConnection zaqar({QStringLiteral("zaqar"), QUrl(m_url), {}, token, {}});
    // Zaqar's queue names are 1–64 of [a-zA-Z0-9_-]; the token is checked first.
    const auto answer = AWAIT(EntityRef, zaqar.createEntity(EntityKind::ZaqarQueue, QStringLiteral("no spaces allowed"), {}, {}, reply));
    QVERIFY(!answer.ok);
    QCOMPARE(answer.error.service, QStringLiteral("Zaqar"));
    QCOMPARE(answer.error.httpStatus, status);
    QVERIFY2(!answer.error.code.isEmpty() && !answer.error.message.isEmpty(), qPrintable(answer.error.text()));
}

// Keystone credentials instead of a token: the token Keystone gives is sent
// (asked once, and again after Zaqar's 401); a wrong password is Keystone's
// 401 in its words, and nothing reaches Zaqar.
void ZaqarConnectionTest::keystoneCredentials()
{
    relaydesk::test::FakeKeystone keystone(QStringLiteral("alice"), QStringLiteral("secret"), kToken);
    ZaqarConnection zaqar({QStringLiteral("zaqar"), QUrl(m_url), QStringLiteral("project-1"), {},
                           keystoneUser(keystone.url(), QStringLiteral("secret"))});
    const auto queue = AWAIT(EntityRef, zaqar.createEntity(EntityKind::ZaqarQueue, QStringLiteral("keyed"), {}, {}, reply));
    QVERIFY2(queue.ok, qPrintable(queue.error.text()));
    QVERIFY(AWAIT(std::vector<EntitySummary>, zaqar.listEntities(EntityKind::ZaqarQueue, {}, reply)).ok);
    QCOMPARE(keystone.answered(), 1);

    relaydesk::test::FakeKeystone stale(QStringLiteral("alice"), QStringLiteral("secret"), QStringLiteral("expired"));
    ZaqarConnection renewing({QStringLiteral("zaqar"), QUrl(m_url), QStringLiteral("project-1"), {},
                              keystoneUser(stale.url(), QStringLiteral("secret"))});
    const auto refused = AWAIT(std::vector<EntitySummary>, renewing.listEntities(EntityKind::ZaqarQueue, {}, reply));
    QCOMPARE(refused.error.httpStatus, 401);   // a fresh token Zaqar refuses is not asked again
    stale.setToken(kToken);
    const auto renewed = AWAIT(std::vector<EntitySummary>, renewing.listEntities(EntityKind::ZaqarQueue, {}, reply));
    QVERIFY2(renewed.ok, qPrintable(renewed.error.text()));   // 401 with the old token: asked again
    QCOMPARE(stale.answered(), 2);

    ZaqarConnection wrong({QStringLiteral("zaqar"), QUrl(m_url), QStringLiteral("project-1"), {},
                           keystoneUser(keystone.url(), QStringLiteral("guess"))});
    const auto denied = AWAIT(EntityRef, wrong.createEntity(EntityKind::ZaqarQueue, QStringLiteral("never"), {}, {}, reply));
    QVERIFY(!denied.ok);
    QCOMPARE(denied.error.service, QStringLiteral("Keystone"));
    QCOMPARE(denied.error.code, QStringLiteral("Unauthorized"));
    QCOMPARE(denied.error.httpStatus, 401);
    const auto listed = AWAIT(std::vector<EntitySummary>, zaqar.listEntities(EntityKind::ZaqarQueue, {}, reply));
    QCOMPARE(listed.value.size(), std::size_t(1));

    // Scoped by project name (in its domain) and no project id: X-Project-ID
    // is the project Keystone gives, so the queue of project-1 is seen.
    KeystoneCredentials byName{QUrl(keystone.url()), QStringLiteral("alice"), QStringLiteral("secret"),
                               QStringLiteral("Default"), QStringLiteral("project-1"), QStringLiteral("Default")};
    ZaqarConnection named({QStringLiteral("zaqar"), QUrl(m_url), {}, {}, byName});
    const auto seen = AWAIT(std::vector<EntitySummary>, named.listEntities(EntityKind::ZaqarQueue, {}, reply));
    QVERIFY2(seen.ok, qPrintable(seen.error.text()));
    QCOMPARE(seen.value.size(), std::size_t(1));
    QCOMPARE(seen.value[0].ref.name, QStringLiteral("keyed"));
    EntityRef absent = queue.value;
    absent.name = QStringLiteral("absent");
    const auto missing = AWAIT(Done, named.setAttributes(absent, {{QStringLiteral("team"), QStringLiteral("x")}}, reply));
    QVERIFY2(missing.error.message.endsWith(QStringLiteral("for project project-1")), qPrintable(missing.error.text()));
    QVERIFY(AWAIT(Done, zaqar.deleteEntity(queue.value, reply)).ok);
}

RELAYDESK_TEST_MAIN(ZaqarConnectionTest)
#include "zaqar_connection_test.moc"
