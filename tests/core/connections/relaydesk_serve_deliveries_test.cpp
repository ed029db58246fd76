// SPDX-License-Identifier: MIT
// The boundary's deliveries, attempts, mocks and message moves end to end
// against `relaydesk serve --credentials FILE --clock virtual` in a process
// of its own: another Relaydesk's attempt log of a subscription to one of its
// mock endpoints (retries run by advancing its virtual clock) and its mocks
// through the native API with the bearer token, and without it the broker's
// own refusal; an SQS dead-letter queue moved back to its source through an
// AWS profile (StartMessageMoveTask, ListMessageMoveTasks), and what the
// broker refuses in its words; the other connections' reasons.
#include "connections/aws_connection.h"
#include "connections/relaydesk_connection.h"
#include "support/test_main.h"
#include "connection_test_support.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <optional>

using namespace relaydesk;
using relaydesk::test::awaitCall;

namespace {

const QString kKeyId = QStringLiteral("AKIDDELIVERIES01");
const QString kSecret = QStringLiteral("deliveries-test-secret");
const QString kToken = QStringLiteral("deliveries-test-token");

} // namespace

class RelaydeskServeDeliveriesTest : public QObject {
    Q_OBJECT
private slots:
    void initTestCase();
    void attemptLogOfASubscription();
    void attemptLogWithoutTheToken();
    void mockEndpointsAndTheirRequests();
    void mocksMadeChangedAndRemoved();
    void deadLettersMovedBackToTheirSource();
    void movesTheBrokerRefuses_data();
    void movesTheBrokerRefuses();
    void otherConnectionsSayWhyNot();

private:
    // A native API request with the token (what the test sets up that the boundary does not do).
    QJsonObject native(const QByteArray &method, const QString &path, const QJsonObject &body);
    RelaydeskConnection *relaydesk(const QString &token);

    QTemporaryDir m_dir;
    relaydesk::test::ServerProcess m_server;
    QString m_url;
    QNetworkAccessManager m_network;
    EntityRef m_subscription;
};

void RelaydeskServeDeliveriesTest::initTestCase()
{
    m_url = relaydesk::test::startRelaydeskServeWith(m_server, m_dir.path(), kKeyId, kSecret, kToken);
    QVERIFY2(!m_url.isEmpty(), qPrintable(m_server.errors()));

    // A topic whose subscription (confirmed at once) posts to a mock that fails twice.
    native("PUT", QStringLiteral("mocks/flaky"), {{QStringLiteral("script"), QStringLiteral("503 x 2, then 200")}});
    native("POST", QStringLiteral("topics"), {{QStringLiteral("name"), QStringLiteral("events")}});
    const QJsonObject subscribed = native("POST", QStringLiteral("topics/events/subscriptions"),
                                          {{QStringLiteral("protocol"), QStringLiteral("http")},
                                           {QStringLiteral("endpoint"), m_url + QStringLiteral("/_mock/flaky")},
                                           {QStringLiteral("autoConfirm"), true}});
    const QString arn = subscribed.value(QStringLiteral("subscriptionArn")).toString();
    QVERIFY2(!arn.isEmpty(), qPrintable(QJsonDocument(subscribed).toJson()));
    m_subscription = {EntityKind::Subscription, arn.section(QLatin1Char(':'), -1), arn,
                      arn.section(QLatin1Char(':'), 0, -2)};
}

QJsonObject RelaydeskServeDeliveriesTest::native(const QByteArray &method, const QString &path, const QJsonObject &body)
{
    QNetworkRequest request(QUrl(m_url + QStringLiteral("/api/v1/") + path));
    request.setRawHeader("Authorization", "Bearer " + kToken.toUtf8());
    request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = m_network.sendCustomRequest(request, method, QJsonDocument(body).toJson());
    QSignalSpy done(reply, &QNetworkReply::finished);
    if (!reply->isFinished())
        done.wait(30000);
    const QJsonObject answer = QJsonDocument::fromJson(reply->readAll()).object();
    reply->deleteLater();
    return answer;
}

RelaydeskConnection *RelaydeskServeDeliveriesTest::relaydesk(const QString &token)
{
    return new RelaydeskConnection({QStringLiteral("shared"), QUrl(m_url), {kKeyId, kSecret, {}}, token});
}

void RelaydeskServeDeliveriesTest::attemptLogOfASubscription()
{
    std::unique_ptr<RelaydeskConnection> connection(relaydesk(kToken));
    QVERIFY(connection->capability(EntityKind::Subscription, ConnectionFeature::AttemptLog).offered);
    OutgoingMessage message;
    message.body = QStringLiteral("retried");
    const EntityRef topic{EntityKind::Topic, QStringLiteral("events"), m_subscription.parent, {}};
    const auto published = AWAIT(QString, connection->send(topic, message, reply));
    QVERIFY2(published.ok, qPrintable(published.error.text()));
    // The policy's retries are due on the remote clock: advancing it runs them.
    QVERIFY(AWAIT(BrokerClock, connection->advanceClock(120, reply)).ok);

    const auto deliveries = AWAIT(std::vector<DeliverySummary>, connection->deliveries(m_subscription, reply));
    QVERIFY2(deliveries.ok, qPrintable(deliveries.error.text()));
    QCOMPARE(deliveries.value.size(), std::size_t(1));
    QCOMPARE(deliveries.value[0].messageId, published.value);
    QCOMPARE(deliveries.value[0].attempts, qint64(3));
    QCOMPARE(deliveries.value[0].end, QStringLiteral("delivered"));
    QCOMPARE(deliveries.value[0].lastOutcome, QStringLiteral("delivered"));

    const auto attempts = AWAIT(std::vector<AttemptRecord>, connection->attempts(m_subscription, published.value, reply));
    QVERIFY2(attempts.ok, qPrintable(attempts.error.text()));
    QCOMPARE(attempts.value.size(), std::size_t(3));
    QCOMPARE(attempts.value[0].phase, std::string("initial"));   // oldest first, as the chart draws them
    QCOMPARE(attempts.value[0].httpStatus, std::optional<int>(503));
    QCOMPARE(attempts.value[0].outcome, std::string("retryable"));
    QCOMPARE(attempts.value[2].httpStatus, std::optional<int>(200));
    QCOMPARE(attempts.value[2].final, std::optional<std::string>("delivered"));
    QVERIFY(attempts.value[1].startedAt > attempts.value[0].startedAt);
    QCOMPARE(attempts.value[2].subscriptionArn, m_subscription.address.toStdString());

    // A subscription this broker never had: its words.
    EntityRef unknown = m_subscription;
    unknown.address = m_subscription.parent + QStringLiteral(":00000000-0000-0000-0000-000000000000");
    const auto missing = AWAIT(std::vector<DeliverySummary>, connection->deliveries(unknown, reply));
    QVERIFY(!missing.ok);
    QCOMPARE(missing.error.service, QStringLiteral("Relaydesk"));
    QCOMPARE(missing.error.code, QStringLiteral("NotFound"));
    QCOMPARE(missing.error.httpStatus, 404);
}

void RelaydeskServeDeliveriesTest::attemptLogWithoutTheToken()
{
    std::unique_ptr<RelaydeskConnection> connection(relaydesk(QStringLiteral("not-the-token")));
    const auto deliveries = AWAIT(std::vector<DeliverySummary>, connection->deliveries(m_subscription, reply));
    QCOMPARE(deliveries.error.code, QStringLiteral("Unauthorized"));
    const auto attempts = AWAIT(std::vector<AttemptRecord>, connection->attempts(m_subscription, QStringLiteral("x"), reply));
    QCOMPARE(attempts.error.code, QStringLiteral("Unauthorized"));
    const auto mocks = AWAIT(std::vector<MockEndpointLine>, connection->mockEndpoints(reply));
    QCOMPARE(mocks.error.code, QStringLiteral("Unauthorized"));
    // A queue has no attempt log: refused before anything is sent.
    const auto queue = AWAIT(std::vector<DeliverySummary>,
                             connection->deliveries({EntityKind::Queue, QStringLiteral("q"), QStringLiteral("q"), {}}, reply));
    QCOMPARE(queue.error.code, QStringLiteral("Unsupported"));
    QCOMPARE(queue.error.message, connection->capability(EntityKind::Queue, ConnectionFeature::AttemptLog).reason);
}

void RelaydeskServeDeliveriesTest::mockEndpointsAndTheirRequests()
{
    std::unique_ptr<RelaydeskConnection> connection(relaydesk(kToken));
    native("PUT", QStringLiteral("mocks/quiet"), {{QStringLiteral("script"), QStringLiteral("204")}});
    QNetworkReply *posted = m_network.post(QNetworkRequest(QUrl(m_url + QStringLiteral("/_mock/quiet"))), QByteArrayLiteral("hello"));
    QSignalSpy done(posted, &QNetworkReply::finished);
    QVERIFY(posted->isFinished() || done.wait(30000));
    posted->deleteLater();

    const auto mocks = AWAIT(std::vector<MockEndpointLine>, connection->mockEndpoints(reply));
    QVERIFY2(mocks.ok, qPrintable(mocks.error.text()));
    const auto quiet = std::find_if(mocks.value.begin(), mocks.value.end(), [](const MockEndpointLine &m) { return m.name == QLatin1String("quiet"); });
    QVERIFY(quiet != mocks.value.end());
    QCOMPARE(quiet->script, QStringLiteral("204"));
    QCOMPARE(quiet->requestCount, qint64(1));
    QVERIFY2(quiet->url.endsWith(QStringLiteral("/_mock/quiet")), qPrintable(quiet->url));

    const auto requests = AWAIT(std::vector<MockRequestLine>, connection->mockRequests(QStringLiteral("quiet"), reply));
    QVERIFY2(requests.ok, qPrintable(requests.error.text()));
    QCOMPARE(requests.value.size(), std::size_t(1));
    QCOMPARE(requests.value[0].method, QStringLiteral("POST"));
    QCOMPARE(requests.value[0].body, QStringLiteral("hello"));
    QCOMPARE(requests.value[0].answer, QStringLiteral("204"));
    QVERIFY(requests.value[0].received.isValid());

    const auto none = AWAIT(std::vector<MockRequestLine>, connection->mockRequests(QStringLiteral("no-such-mock"), reply));
    QVERIFY(!none.ok);
    QCOMPARE(none.error.service, QStringLiteral("Relaydesk"));
    QCOMPARE(none.error.httpStatus, 404);
}

void RelaydeskServeDeliveriesTest::deadLettersMovedBackToTheirSource()
{
    std::unique_ptr<RelaydeskConnection> connection(relaydesk(kToken));
    AwsConnection &aws = *connection;   // SQS as an AWS profile at the broker's URL
    QVERIFY(aws.moves(EntityKind::Queue).offered);
    const auto dlq = AWAIT(EntityRef, aws.createEntity(EntityKind::Queue, QStringLiteral("work-dlq"), {}, {}, reply));
    QVERIFY2(dlq.ok, qPrintable(dlq.error.text()));
    const QString dlqArn = AWAIT(EntityAttributes, aws.attributes(dlq.value, reply)).value.value(QStringLiteral("QueueArn"));
    const auto work = AWAIT(EntityRef, aws.createEntity(EntityKind::Queue, QStringLiteral("work"), {},
                                                        {{QStringLiteral("RedrivePolicy"),
                                                          QStringLiteral(R"({"deadLetterTargetArn":"%1","maxReceiveCount":"1"})").arg(dlqArn)}},
                                                        reply));
    QVERIFY2(work.ok, qPrintable(work.error.text()));
    OutgoingMessage message;
    message.body = QStringLiteral("failed once");
    QVERIFY(AWAIT(QString, aws.send(work.value, message, reply)).ok);
    QCOMPARE(AWAIT(std::vector<MessageLine>, aws.poll(work.value, {1, 5}, reply)).value.size(), std::size_t(1));
    QVERIFY(AWAIT(BrokerClock, connection->advanceClock(6, reply)).ok);   // visible again: the next receive dead-letters it
    QCOMPARE(AWAIT(std::vector<MessageLine>, aws.poll(work.value, {1, 5}, reply)).value.size(), std::size_t(0));

    const auto started = AWAIT(QString, aws.moveMessages(dlq.value, {}, reply));
    QVERIFY2(started.ok, qPrintable(started.error.text()));
    QVERIFY(!started.value.isEmpty());
    // Without a rate the broker moves 1 000 at a time back to back: the task ends without the clock.
    ConnectionResult<std::vector<MessageMoveLine>> tasks;
    for (int asked = 0; asked < 100; ++asked) {
        tasks = AWAIT(std::vector<MessageMoveLine>, aws.messageMoves(dlq.value, reply));
        QVERIFY2(tasks.ok, qPrintable(tasks.error.text()));
        QCOMPARE(tasks.value.size(), std::size_t(1));
        if (tasks.value[0].status != QLatin1String("RUNNING"))
            break;
    }
    QCOMPARE(tasks.value[0].status, QStringLiteral("COMPLETED"));
    QCOMPARE(tasks.value[0].sourceArn, dlqArn);
    QCOMPARE(tasks.value[0].moved, qint64(1));
    const auto back = AWAIT(std::vector<MessageLine>, aws.poll(work.value, {1, 5}, reply));
    QCOMPARE(back.value.size(), std::size_t(1));
    QCOMPARE(back.value[0].body, QStringLiteral("failed once"));
}

void RelaydeskServeDeliveriesTest::movesTheBrokerRefuses_data()
{
    QTest::addColumn<QString>("source");
    QTest::addColumn<QString>("code");
    // A queue no other queue dead-letters to; a queue that is not there.
    QTest::newRow("not a dead-letter queue") << QStringLiteral("plain") << QStringLiteral("InvalidParameterValue");
    QTest::newRow("no such queue") << QStringLiteral("absent") << QStringLiteral("QueueDoesNotExist");
}

void RelaydeskServeDeliveriesTest::movesTheBrokerRefuses()
{
    QFETCH(QString, source);
    QFETCH(QString, code);
    std::unique_ptr<RelaydeskConnection> connection(relaydesk(kToken));
    const auto plain = AWAIT(EntityRef, connection->createEntity(EntityKind::Queue, QStringLiteral("plain"), {}, {}, reply));
    QVERIFY(plain.ok);
    EntityRef queue = plain.value;
    queue.name = source;
    queue.address = plain.value.address.section(QLatin1Char('/'), 0, -2) + QLatin1Char('/') + source;
    const auto refused = AWAIT(QString, connection->moveMessages(queue, {}, reply));
    QVERIFY(!refused.ok);
    QVERIFY2(refused.error.code.contains(code), qPrintable(refused.error.text()));
    QVERIFY2(!refused.error.message.isEmpty(), qPrintable(refused.error.text()));
    const auto tasks = AWAIT(std::vector<MessageMoveLine>, connection->messageMoves(plain.value, reply));
    QVERIFY2(tasks.ok && tasks.value.empty(), qPrintable(tasks.error.text()));   // nothing was started
}

// Through the boundary alone: make a mock, a bad script refused in the
// broker's words (the old one kept), its requests forgotten, the mock gone.
void RelaydeskServeDeliveriesTest::mocksMadeChangedAndRemoved()
{
    std::unique_ptr<RelaydeskConnection> connection(relaydesk(kToken));
    const auto made = AWAIT(Done, connection->setMock(QStringLiteral("made-here"), QStringLiteral("503 x 1, then 200"), reply));
    QVERIFY2(made.ok, qPrintable(made.error.text()));
    const auto bad = AWAIT(Done, connection->setMock(QStringLiteral("made-here"), QStringLiteral("503 x , then 200"), reply));
    QVERIFY(!bad.ok);
    QCOMPARE(bad.error.service, QStringLiteral("Relaydesk"));
    QCOMPARE(bad.error.httpStatus, 400);
    QVERIFY2(bad.error.message.contains(QStringLiteral("repeat count")), qPrintable(bad.error.text()));

    QNetworkReply *posted = m_network.post(QNetworkRequest(QUrl(m_url + QStringLiteral("/_mock/made-here"))), QByteArrayLiteral("x"));
    QSignalSpy done(posted, &QNetworkReply::finished);
    QVERIFY(posted->isFinished() || done.wait(30000));
    QCOMPARE(posted->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 503);   // the script kept
    posted->deleteLater();

    auto mockNamed = [&](const QString &name) -> std::optional<MockEndpointLine> {
        const auto mocks = AWAIT(std::vector<MockEndpointLine>, connection->mockEndpoints(reply));
        for (const MockEndpointLine &mock : mocks.value)
            if (mock.name == name)
                return mock;
        return std::nullopt;
    };
    QCOMPARE(mockNamed(QStringLiteral("made-here"))->script, QStringLiteral("503 x 1, then 200"));
    QCOMPARE(mockNamed(QStringLiteral("made-here"))->requestCount, qint64(1));

    const auto cleared = AWAIT(Done, connection->clearMockRequests(QStringLiteral("made-here"), reply));
    QVERIFY2(cleared.ok, qPrintable(cleared.error.text()));
    const auto requests = AWAIT(std::vector<MockRequestLine>, connection->mockRequests(QStringLiteral("made-here"), reply));
    QVERIFY2(requests.ok && requests.value.empty(), qPrintable(requests.error.text()));

    const auto removed = AWAIT(Done, connection->deleteMock(QStringLiteral("made-here"), reply));
    QVERIFY2(removed.ok, qPrintable(removed.error.text()));
    QVERIFY(!mockNamed(QStringLiteral("made-here")));
    const auto again = AWAIT(Done, connection->deleteMock(QStringLiteral("made-here"), reply));
    QCOMPARE(again.error.httpStatus, 404);

    std::unique_ptr<RelaydeskConnection> stranger(relaydesk(QStringLiteral("not-the-token")));
    const auto refused = AWAIT(Done, stranger->setMock(QStringLiteral("intruder"), QStringLiteral("200"), reply));
    QCOMPARE(refused.error.code, QStringLiteral("Unauthorized"));
    QVERIFY(!mockNamed(QStringLiteral("intruder")));
}

void RelaydeskServeDeliveriesTest::otherConnectionsSayWhyNot()
{
    AwsProfile profile;
    profile.name = QStringLiteral("aws");
    profile.endpointUrl = m_url;
    AwsConnection aws(profile);
    const auto attempts = AWAIT(std::vector<AttemptRecord>, aws.attempts(m_subscription, QStringLiteral("x"), reply));
    QCOMPARE(attempts.error.code, QStringLiteral("Unsupported"));
    QCOMPARE(attempts.error.message, aws.capability(EntityKind::Subscription, ConnectionFeature::AttemptLog).reason);
    const auto mocks = AWAIT(std::vector<MockEndpointLine>, aws.mockEndpoints(reply));
    QCOMPARE(mocks.error.code, QStringLiteral("Unsupported"));
    QCOMPARE(mocks.error.message, aws.capability(EntityKind::Queue, ConnectionFeature::Mocks).reason);
    const auto setMock = AWAIT(Done, aws.setMock(QStringLiteral("m"), QStringLiteral("200"), reply));
    QCOMPARE(setMock.error.code, QStringLiteral("Unsupported"));
    const auto topicMove = AWAIT(QString, aws.moveMessages(m_subscription, {}, reply));
    QCOMPARE(topicMove.error.code, QStringLiteral("Unsupported"));
    QCOMPARE(topicMove.error.message, aws.moves(EntityKind::Subscription).reason);
}

RELAYDESK_TEST_MAIN(RelaydeskServeDeliveriesTest)
#include "relaydesk_serve_deliveries_test.moc"
