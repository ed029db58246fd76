// SPDX-License-Identifier: MIT
// The Service Bus management API (api/servicebus/management/management_api.h),
// row by row against one broker: each row is a request (method, path,
// If-Match, description) and what the service answers (status, key XML
// fields). The rows run in order — create, get, update, list with paging,
// delete, for queues, topics, subscriptions and rules — with the service's
// refusals between them (409, 404, 405, 400 naming the property). Then the
// runtime counts of a queue a message was sent to, and the port itself:
// the ready URL, a signature checked with --credentials (401 in the
// service's XML when absent or forged).
#include "api/servicebus/management/management_api.h"
#include "api/wire/shared_access_signature.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "host/broker_host.h"
#include "http/http_request.h"
#include "support/test_main.h"

#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QNetworkReply>
#include <QTemporaryDir>
#include <QtTest>

using namespace relaydesk;

namespace {

QByteArray entry(const QByteArray &description)
{
    return "<?xml version=\"1.0\" encoding=\"utf-8\"?><entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">"
           + description + "</content></entry>";
}

QByteArray described(const char *kind, const QByteArray &properties)
{
    return entry(QByteArray("<") + kind + " xmlns=\"http://schemas.microsoft.com/netservices/2010/10/servicebus/connect\" "
                 "xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\">" + properties + "</" + kind + ">");
}

QByteArray queue(const QByteArray &properties) { return described("QueueDescription", properties); }
QByteArray topic(const QByteArray &properties) { return described("TopicDescription", properties); }
QByteArray subscription(const QByteArray &properties) { return described("SubscriptionDescription", properties); }
QByteArray rule(const QByteArray &filter, const QByteArray &action = "<Action i:type=\"EmptyRuleAction\"/>")
{
    return described("RuleDescription", filter + action);
}

ServeOptions brokerOptions()
{
    ServeOptions options;
    options.databasePath = QStringLiteral(":memory:");
    options.port = 0;
    options.amqpPort.reset();
    options.amqpsPort.reset();
    options.managementPort = 0;   // tests run side by side
    options.clockMode = ClockMode::Virtual;
    return options;
}

} // namespace

class ServiceBusManagementTest final : public QObject {
    Q_OBJECT

private:
    std::unique_ptr<BrokerHost> m_host;

    HttpReply ask(const QByteArray &method, const QByteArray &target, const QByteArray &body, bool ifMatch)
    {
        HttpRequest::Headers headers{{"Host", "localhost:5300"}};
        if (ifMatch)
            headers.emplace_back("If-Match", "*");
        HttpRequest request(method, target, false, headers);
        request.setBody(body);
        QObject context;
        QEventLoop loop;
        HttpReply answer{0, {}, {}, {}};
        answerManagementRequest(m_host->service(), request, &context, [&](HttpReply reply) {
            answer = std::move(reply);
            loop.quit();
        });
        if (answer.status == 0)
            loop.exec();
        return answer;
    }

private slots:
    void initTestCase()
    {
        auto started = BrokerHost::start(brokerOptions());
        QVERIFY(std::holds_alternative<std::unique_ptr<BrokerHost>>(started));
        m_host = std::get<std::unique_ptr<BrokerHost>>(std::move(started));
    }

    void cleanupTestCase() { m_host.reset(); }

    void routes_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<bool>("ifMatch");
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArrayList>("fields");   // in the answer's body

        const QByteArray none;
        const auto row = [](const char *name) { return &QTest::newRow(name); };
        *row("namespace") << QByteArray("GET") << QByteArray("/$namespaceinfo?api-version=2021-05") << false << none << 200
                          << QByteArrayList{"<MessagingSKU>Standard</MessagingSKU>", "<Name>localhost</Name>"};
        // Queues.
        *row("create a queue") << QByteArray("PUT") << QByteArray("/orders?api-version=2021-05") << false
                               << queue("<LockDuration>PT30S</LockDuration><MaxDeliveryCount>5</MaxDeliveryCount>"
                                        "<RequiresSession>true</RequiresSession>")
                               << 201
                               << QByteArrayList{"<id>https://localhost:5300/orders</id>", "<LockDuration>PT30S</LockDuration>",
                                                 "<MaxDeliveryCount>5</MaxDeliveryCount>", "<RequiresSession>true</RequiresSession>",
                                                 "<d2p1:ActiveMessageCount>0</d2p1:ActiveMessageCount>",
                                                 "<MaxSizeInMegabytes>1024</MaxSizeInMegabytes>"};
        *row("create it again") << QByteArray("PUT") << QByteArray("/orders") << false << queue({}) << 409
                                << QByteArrayList{"<Code>409</Code>", "already exists"};
        *row("get the queue") << QByteArray("GET") << QByteArray("/orders?enrich=false") << false << none << 200
                              << QByteArrayList{"<QueueDescription", "<LockDuration>PT30S</LockDuration>"};
        *row("update it") << QByteArray("PUT") << QByteArray("/orders") << true
                          << queue("<LockDuration>PT1M</LockDuration><MaxDeliveryCount>7</MaxDeliveryCount>"
                                   "<RequiresSession>true</RequiresSession><MaxSizeInMegabytes>1024</MaxSizeInMegabytes>"
                                   "<Status>Active</Status><AuthorizationRules/><MessageCount>0</MessageCount>")
                          << 200 << QByteArrayList{"<LockDuration>PT1M</LockDuration>", "<MaxDeliveryCount>7</MaxDeliveryCount>"};
        *row("update what is not there") << QByteArray("PUT") << QByteArray("/nowhere") << true << queue({}) << 404
                                         << QByteArrayList{"<Code>404</Code>", "nowhere"};
        *row("sessions fixed at creation") << QByteArray("PUT") << QByteArray("/orders") << true
                                           << queue("<RequiresSession>false</RequiresSession>") << 400
                                           << QByteArrayList{"RequiresSession"};
        *row("lock out of range") << QByteArray("PUT") << QByteArray("/bad") << false
                                  << queue("<LockDuration>PT10M</LockDuration>") << 400 << QByteArrayList{"LockDuration"};
        *row("a size Relaydesk does not bound") << QByteArray("PUT") << QByteArray("/bad") << false
                                                << queue("<MaxSizeInMegabytes>2048</MaxSizeInMegabytes>") << 400
                                                << QByteArrayList{"<Code>400</Code>", "MaxSizeInMegabytes"};
        *row("a disabled entity") << QByteArray("PUT") << QByteArray("/bad") << false << queue("<Status>Disabled</Status>")
                                  << 400 << QByteArrayList{"Status"};
        *row("partitioning") << QByteArray("PUT") << QByteArray("/bad") << false
                             << queue("<EnablePartitioning>true</EnablePartitioning>") << 400
                             << QByteArrayList{"EnablePartitioning"};
        *row("an unknown property") << QByteArray("PUT") << QByteArray("/bad") << false << queue("<Colour>red</Colour>")
                                    << 400 << QByteArrayList{"Colour"};
        *row("malformed XML") << QByteArray("PUT") << QByteArray("/bad") << false << QByteArray("<entry><content>") << 400
                              << QByteArrayList{"not a valid ATOM entry"};
        *row("a DOCTYPE") << QByteArray("PUT") << QByteArray("/bad") << false
                          << QByteArray("<!DOCTYPE x [<!ENTITY a \"b\">]><entry/>") << 400 << QByteArrayList{"DOCTYPE"};
        *row("not a description") << QByteArray("PUT") << QByteArray("/bad") << false << entry("<Something/>") << 400
                                  << QByteArrayList{"QueueDescription"};
        *row("no such entity") << QByteArray("GET") << QByteArray("/bad") << false << none << 404 << QByteArrayList{"bad"};
        *row("a long name is cut in the error") << QByteArray("GET") << QByteArray("/" + QByteArray(200, 'a')) << false
                                                << none << 404 << QByteArrayList{QByteArray(64, 'a') + "...'"};
        *row("POST is no operation") << QByteArray("POST") << QByteArray("/orders") << false << none << 405
                                     << QByteArrayList{"<Code>405</Code>"};
        *row("second queue") << QByteArray("PUT") << QByteArray("/payments") << false << queue({}) << 201
                             << QByteArrayList{"<LockDuration>PT1M</LockDuration>"};
        *row("list queues") << QByteArray("GET") << QByteArray("/$Resources/Queues") << false << none << 200
                            << QByteArrayList{"<feed", "<title type=\"text\">orders</title>", "<title type=\"text\">payments</title>"};
        *row("a page of one") << QByteArray("GET") << QByteArray("/$Resources/queues?%24top=1") << false << none << 200
                              << QByteArrayList{"<title type=\"text\">orders</title>", "rel=\"next\"", "$skip=1&amp;$top=1"};
        *row("the last page, as the SDKs encode it") << QByteArray("GET") << QByteArray("/$Resources/Queues?%24skip=1&%24top=1") << false << none << 200
                              << QByteArrayList{"<title type=\"text\">payments</title>"};
        *row("a page too large") << QByteArray("GET") << QByteArray("/$Resources/Queues?$top=500") << false << none << 400
                                 << QByteArrayList{"$top"};
        // Topics, subscriptions, rules.
        *row("create a topic") << QByteArray("PUT") << QByteArray("/events") << false
                               << topic("<DefaultMessageTimeToLive>P1D</DefaultMessageTimeToLive>") << 201
                               << QByteArrayList{"<TopicDescription", "<DefaultMessageTimeToLive>P1D</DefaultMessageTimeToLive>",
                                                 "<SubscriptionCount>0</SubscriptionCount>"};
        *row("a topic named as a queue") << QByteArray("PUT") << QByteArray("/orders") << false << topic({}) << 409
                                         << QByteArrayList{"already exists"};
        *row("topic duplicate detection") << QByteArray("PUT") << QByteArray("/dup") << false
                                          << topic("<RequiresDuplicateDetection>true</RequiresDuplicateDetection>") << 400
                                          << QByteArrayList{"RequiresDuplicateDetection"};
        *row("a topic never idle, as Python spells it") << QByteArray("PUT") << QByteArray("/events.py") << false
                                                        << topic("<AutoDeleteOnIdle>P10675199DT2H48M5.477539S</AutoDeleteOnIdle>")
                                                        << 201 << QByteArrayList{"<TopicDescription"};
        *row("a topic deleted when idle") << QByteArray("PUT") << QByteArray("/idle") << false
                                          << topic("<AutoDeleteOnIdle>PT1H</AutoDeleteOnIdle>") << 400
                                          << QByteArrayList{"AutoDeleteOnIdle"};
        *row("list topics") << QByteArray("GET") << QByteArray("/$Resources/Topics") << false << none << 200
                            << QByteArrayList{"<title type=\"text\">events</title>", "<title type=\"text\">events.py</title>"};
        *row("create a subscription") << QByteArray("PUT") << QByteArray("/events/Subscriptions/all") << false
                                      << subscription("<LockDuration>PT45S</LockDuration>") << 201
                                      << QByteArrayList{"<id>https://localhost:5300/events/Subscriptions/all</id>",
                                                        "<LockDuration>PT45S</LockDuration>"};
        *row("create it again ") << QByteArray("PUT") << QByteArray("/events/Subscriptions/all") << false << subscription({})
                                 << 409 << QByteArrayList{"already exists"};
        *row("subscription of no topic") << QByteArray("PUT") << QByteArray("/nope/Subscriptions/all") << false
                                         << subscription({}) << 404 << QByteArrayList{"nope"};
        *row("subscription with a default rule")
            << QByteArray("PUT") << QByteArray("/events/Subscriptions/red") << false
            << subscription("<DefaultRuleDescription><Filter i:type=\"CorrelationFilter\"><Label>red</Label><Properties>"
                            "<KeyValueOfstringanyType><Key>size</Key><Value i:type=\"l28:double\" "
                            "xmlns:l28=\"http://www.w3.org/2001/XMLSchema\">3</Value></KeyValueOfstringanyType>"
                            "</Properties></Filter><Action i:type=\"EmptyRuleAction\"/><Name>reds</Name>"
                            "</DefaultRuleDescription>")
            << 201 << QByteArrayList{"<SubscriptionDescription"};
        *row("update a subscription") << QByteArray("PUT") << QByteArray("/events/Subscriptions/all") << true
                                      << subscription("<LockDuration>PT2M</LockDuration><MaxDeliveryCount>3</MaxDeliveryCount>")
                                      << 200 << QByteArrayList{"<LockDuration>PT2M</LockDuration>", "<MaxDeliveryCount>3</MaxDeliveryCount>"};
        *row("list subscriptions") << QByteArray("GET") << QByteArray("/events/Subscriptions/") << false << none << 200
                                   << QByteArrayList{"<title type=\"text\">all</title>", "<title type=\"text\">red</title>"};
        *row("a page of subscriptions") << QByteArray("GET") << QByteArray("/events/Subscriptions?$top=1") << false << none
                                        << 200 << QByteArrayList{"rel=\"next\""};
        *row("the default rule") << QByteArray("GET") << QByteArray("/events/Subscriptions/red/Rules/reds") << false << none
                                 << 200
                                 << QByteArrayList{"i:type=\"CorrelationFilter\"", "<Label>red</Label>", "<Key>size</Key>",
                                                   "d6p1:long\">3</Value>"};
        *row("a SQL rule with an action")
            << QByteArray("PUT") << QByteArray("/events/Subscriptions/all/Rules/big") << false
            << rule("<Filter i:type=\"SqlFilter\"><SqlExpression>size &gt; 10</SqlExpression></Filter>",
                    "<Action i:type=\"SqlRuleAction\"><SqlExpression>SET big = 'yes'</SqlExpression></Action>")
            << 201
            << QByteArrayList{"<id>https://localhost:5300/events/Subscriptions/all/Rules/big</id>",
                              "<SqlExpression>size &gt; 10</SqlExpression>", "i:type=\"SqlRuleAction\"", "SET big = 'yes'"};
        *row("the rule again") << QByteArray("PUT") << QByteArray("/events/Subscriptions/all/Rules/big") << false
                               << rule("<Filter i:type=\"TrueFilter\"/>") << 409 << QByteArrayList{"<Code>409</Code>"};
        *row("a false filter") << QByteArray("PUT") << QByteArray("/events/Subscriptions/all/Rules/never") << false
                               << rule("<Filter i:type=\"FalseFilter\"><SqlExpression>1=0</SqlExpression></Filter>") << 201
                               << QByteArrayList{"<SqlExpression>1=0</SqlExpression>"};
        *row("update a rule") << QByteArray("PUT") << QByteArray("/events/Subscriptions/all/Rules/never") << true
                              << rule("<Filter i:type=\"SqlFilter\"><SqlExpression>colour = 'blue'</SqlExpression></Filter>")
                              << 200 << QByteArrayList{"colour = 'blue'"};
        *row("a malformed SQL filter") << QByteArray("PUT") << QByteArray("/events/Subscriptions/all/Rules/broken") << false
                                       << rule("<Filter i:type=\"SqlFilter\"><SqlExpression>((</SqlExpression></Filter>")
                                       << 400 << QByteArrayList{"<Code>400</Code>"};
        *row("SQL parameters") << QByteArray("PUT") << QByteArray("/events/Subscriptions/all/Rules/p") << false
                               << rule("<Filter i:type=\"SqlFilter\"><SqlExpression>a = @x</SqlExpression><Parameters>"
                                       "<KeyValueOfstringanyType><Key>@x</Key><Value i:type=\"l28:string\" "
                                       "xmlns:l28=\"http://www.w3.org/2001/XMLSchema\">1</Value></KeyValueOfstringanyType>"
                                       "</Parameters></Filter>")
                               << 400 << QByteArrayList{"Parameters"};
        *row("list rules") << QByteArray("GET") << QByteArray("/events/Subscriptions/all/Rules") << false << none << 200
                           << QByteArrayList{"<title type=\"text\">$Default</title>", "<title type=\"text\">big</title>",
                                             "<title type=\"text\">never</title>"};
        *row("no such rule") << QByteArray("GET") << QByteArray("/events/Subscriptions/all/Rules/nope") << false << none
                             << 404 << QByteArrayList{"nope"};
        *row("delete a rule") << QByteArray("DELETE") << QByteArray("/events/Subscriptions/all/Rules/big") << false << none
                              << 200 << QByteArrayList{};
        *row("the rule is gone") << QByteArray("GET") << QByteArray("/events/Subscriptions/all/Rules/big") << false << none
                                 << 404 << QByteArrayList{"big"};
        *row("the topic counts them") << QByteArray("GET") << QByteArray("/events") << false << none << 200
                                      << QByteArrayList{"<SubscriptionCount>2</SubscriptionCount>"};
        *row("delete a subscription") << QByteArray("DELETE") << QByteArray("/events/Subscriptions/red") << false << none
                                      << 200 << QByteArrayList{};
        *row("the subscription is gone") << QByteArray("GET") << QByteArray("/events/Subscriptions/red") << false << none
                                         << 404 << QByteArrayList{"red"};
        *row("delete the topic") << QByteArray("DELETE") << QByteArray("/events") << false << none << 200 << QByteArrayList{};
        *row("its subscriptions went with it") << QByteArray("GET") << QByteArray("/events/Subscriptions") << false << none
                                               << 404 << QByteArrayList{"events"};
        *row("delete a queue") << QByteArray("DELETE") << QByteArray("/payments") << false << none << 200 << QByteArrayList{};
        *row("delete it again") << QByteArray("DELETE") << QByteArray("/payments") << false << none << 404
                                << QByteArrayList{"payments"};
    }

    void routes()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, path);
        QFETCH(bool, ifMatch);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QByteArrayList, fields);
        const HttpReply reply = ask(method, path, body, ifMatch);
        QVERIFY2(reply.status == status, qPrintable(QStringLiteral("%1: %2").arg(reply.status).arg(QString::fromUtf8(reply.body))));
        for (const QByteArray &field : fields)
            QVERIFY2(reply.body.contains(field), qPrintable(QStringLiteral("no %1 in %2").arg(QString::fromUtf8(field),
                                                                                          QString::fromUtf8(reply.body))));
    }

    // The counts of a queue a message was sent to, as the service writes them.
    void runtimeCounts()
    {
        QCOMPARE(ask("PUT", "/counted", queue({}), false).status, 201);
        QEventLoop loop;
        Status sent;
        SendRequest message;
        message.body = "hello";
        SendRequest later = message;
        later.scheduledEnqueueTime = m_host->engine().clock().now() + std::chrono::hours(1);
        m_host->service().sendServiceBusMessages("counted", {message, later}, this, [&](Status status) {
            sent = status;
            loop.quit();
        });
        loop.exec();
        QVERIFY(sent.ok());
        const HttpReply reply = ask("GET", "/counted", {}, false);
        QCOMPARE(reply.status, 200);
        QVERIFY(reply.body.contains("<d2p1:ActiveMessageCount>1</d2p1:ActiveMessageCount>"));
        QVERIFY(reply.body.contains("<d2p1:ScheduledMessageCount>1</d2p1:ScheduledMessageCount>"));
        QVERIFY(reply.body.contains("<MessageCount>2</MessageCount>"));
        QVERIFY(!reply.body.contains("<SizeInBytes>0</SizeInBytes>"));
    }

    // The port: the ready URL, and with --credentials a signature checked (401 in the service's XML).
    void port_checksSignatures()
    {
        QTemporaryDir dir;
        QFile file(dir.filePath(QStringLiteral("credentials.json")));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"sharedAccessKeys": {"RootManageSharedAccessKey": "SAS_KEY_VALUE"}})");
        file.close();
        ServeOptions options = brokerOptions();
        options.credentialsFile = file.fileName();
        auto started = BrokerHost::start(options);
        QVERIFY(std::holds_alternative<std::unique_ptr<BrokerHost>>(started));
        const auto &host = std::get<std::unique_ptr<BrokerHost>>(started);
        QVERIFY(host->managementUrl().startsWith(QStringLiteral("https://127.0.0.1:")));

        const QString url = host->managementUrl() + QStringLiteral("/$Resources/Queues?api-version=2021-05");
        const auto signature = [&](const std::string &key) {
            const std::string sr = QUrl::toPercentEncoding(url.toLower()).toStdString();
            const std::string expiry = std::to_string(QDateTime::currentSecsSinceEpoch() + 300);
            return QByteArray::fromStdString("SharedAccessSignature sr=" + sr + "&sig=" +
                                             QUrl::toPercentEncoding(QString::fromStdString(
                                                 SharedAccessSignatureCheck::sign(key, sr, expiry))).toStdString() +
                                             "&se=" + expiry + "&skn=RootManageSharedAccessKey");
        };
        QNetworkAccessManager network;
        const auto get = [&](const QByteArray &header, const QByteArray &value) {
            QNetworkRequest request{QUrl(url)};   // https: the port's TLS, trusting the local CA
            QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
            tls.setCaCertificates(QSslCertificate::fromPath(host->tlsAuthorityPath()));
            request.setSslConfiguration(tls);
            if (!header.isEmpty())
                request.setRawHeader(header, value);
            QNetworkReply *reply = network.get(request);
            QEventLoop loop;
            QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
            loop.exec();
            const std::pair<int, QByteArray> answer{reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(),
                                                    reply->readAll()};
            reply->deleteLater();
            return answer;
        };
        const auto absent = get({}, {});
        QCOMPARE(absent.first, 401);
        QVERIFY(absent.second.contains("<Code>401</Code>"));
        QCOMPARE(get("Authorization", signature("not-the-key")).first, 401);
        QCOMPARE(get("Authorization", signature("SAS_KEY_VALUE")).first, 200);
        QCOMPARE(get("ServiceBusAuthorization", signature("SAS_KEY_VALUE")).first, 200);
    }
};

RELAYDESK_TEST_MAIN(ServiceBusManagementTest)
#include "servicebus_management_test.moc"
