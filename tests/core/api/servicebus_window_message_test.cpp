// SPDX-License-Identifier: MIT
// The window's Service Bus messages (servicebus_window_message.h): what the
// Send dialog writes is what the Messages page reads back, field by field;
// application properties go typed as a person means them (data-driven), so
// subscription rules compare them as the SDKs' typed properties.

#include "api/servicebus/servicebus_window_message.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

class ServiceBusWindowMessageTest final : public QObject {
    Q_OBJECT

private slots:
    void sentFields_readBack()
    {
        ServiceBusMessageText sent;
        sent.body = "{\"order\": 1}\nsecond line";
        sent.contentType = "application/json";
        sent.subject = "invoice";
        sent.sessionId = "alice";
        sent.messageId = "order-1";
        sent.correlationId = "c-9";
        sent.applicationProperties = {{"amount", "500"}, {"region", "eu"}};
        sent.scheduledEnqueueTime = fromEpochMilliseconds(1'800'000'000'000);
        const Result<ServiceBusSend> send = serviceBusSend(sent);
        QVERIFY(send.ok());
        QCOMPARE(send->request.groupId.value_or(""), std::string("alice"));
        QCOMPARE(send->request.serviceBusMessageId.value_or(""), std::string("order-1"));
        QVERIFY(send->request.scheduledEnqueueTime == sent.scheduledEnqueueTime);
        const Result<ServiceBusMessageText> read = readServiceBusMessage(send->request.body);
        QVERIFY(read.ok());
        QCOMPARE(read->body, sent.body);
        QCOMPARE(read->contentType, sent.contentType);
        QCOMPARE(read->subject, sent.subject);
        QCOMPARE(read->sessionId, sent.sessionId);
        QCOMPARE(read->messageId, sent.messageId);
        QCOMPARE(read->correlationId, sent.correlationId);
        QVERIFY(read->applicationProperties == sent.applicationProperties);
    }

    void applicationProperties_typed_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("index");   // FilterValue: 1 bool, 2 whole, 3 decimal, 4 text
        QTest::addColumn<QString>("readBack");
        QTest::newRow("whole") << "500" << 2 << "500";
        QTest::newRow("negative whole") << "-3" << 2 << "-3";
        QTest::newRow("decimal") << "2.5" << 3 << "2.5";
        QTest::newRow("true") << "true" << 1 << "true";
        QTest::newRow("false") << "false" << 1 << "false";
        QTest::newRow("quoted number") << "'500'" << 4 << "500";
        QTest::newRow("text") << "eu-west" << 4 << "eu-west";
        QTest::newRow("empty") << "" << 4 << "";
        QTest::newRow("number then text") << "12abc" << 4 << "12abc";
    }

    void applicationProperties_typed()
    {
        QFETCH(QString, text);
        QFETCH(int, index);
        QFETCH(QString, readBack);
        ServiceBusMessageText sent;
        sent.body = "x";
        sent.applicationProperties = {{"p", text.toStdString()}};
        const Result<ServiceBusSend> send = serviceBusSend(sent);
        QVERIFY(send.ok());
        QCOMPARE(int(send->facts.application.at("p").index()), index);
        const Result<ServiceBusMessageText> read = readServiceBusMessage(send->request.body);
        QVERIFY(read.ok());
        QCOMPARE(QString::fromStdString(read->applicationProperties.at("p")), readBack);
    }

    void bodyNotAmqp_isRefused()
    {
        QVERIFY(!readServiceBusMessage("plain text, not base64 AMQP").ok());
    }
};

RELAYDESK_TEST_MAIN(ServiceBusWindowMessageTest)
#include "servicebus_window_message_test.moc"
