// SPDX-License-Identifier: MIT
// Every broker error code in each protocol's error shape (docs/behaviour.md §10).
#include "api/wire/wire_error.h"
#include "support/test_main.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>
#include <QXmlStreamReader>

#include <nlohmann/json.hpp>

using namespace relaydesk;

namespace {

QByteArray header(const HttpReply &reply, const QByteArray &name)
{
    for (const auto &[key, value] : reply.headers) {
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    }
    return {};
}

QString xmlText(const QByteArray &xml, const QString &element)
{
    QXmlStreamReader reader(xml);
    while (reader.readNextStartElement() || !reader.atEnd()) {
        if (reader.isStartElement() && reader.name() == element)
            return reader.readElementText();
        if (reader.hasError())
            break;
    }
    return {};
}

} // namespace

class WireErrorTest final : public QObject {
    Q_OBJECT

private slots:
    // Request ids are version-4 UUIDs, lower-case, and do not repeat.
    void requestIds_uniqueVersion4Uuids()
    {
        const QRegularExpression shape(QStringLiteral("^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$"));
        QSet<QByteArray> seen;
        for (int i = 0; i < 10000; ++i) {
            const QByteArray id = newRequestId();
            QVERIFY2(shape.match(QString::fromLatin1(id)).hasMatch(), id.constData());
            seen.insert(id);
        }
        QCOMPARE(seen.size(), 10000);
    }

    void everyCode_inEveryShape_data()
    {
        QTest::addColumn<int>("code");
        for (int code = 0; code <= static_cast<int>(BrokerErrorCode::InternalError); ++code)
            QTest::newRow(std::string(brokerErrorInfo(static_cast<BrokerErrorCode>(code)).name).c_str()) << code;
    }

    void everyCode_inEveryShape()
    {
        QFETCH(int, code);
        const BrokerError error(static_cast<BrokerErrorCode>(code), "why <it> failed");
        const BrokerErrorInfo &info = error.info();
        const WireError wire = WireError::fromBroker(error);

        const HttpReply json = sqsJsonErrorReply(wire, "rid");
        QCOMPARE(json.status, info.httpStatus);
        const auto body = nlohmann::json::parse(json.body.toStdString());
        QCOMPARE(QString::fromStdString(body["__type"]), QStringLiteral("com.amazonaws.sqs#") + QString::fromUtf8(info.jsonCode.data(), info.jsonCode.size()));
        QCOMPARE(QString::fromStdString(body["message"]), QStringLiteral("why <it> failed"));
        QCOMPARE(header(json, "x-amzn-query-error"),
                 QByteArray(info.queryCode.data(), info.queryCode.size()) + (info.senderFault ? ";Sender" : ";Receiver"));

        for (const HttpReply &xml : {sqsQueryErrorReply(wire, "rid"), snsQueryErrorReply(wire, "rid")}) {
            QCOMPARE(xml.status, info.httpStatus);
            QCOMPARE(xmlText(xml.body, "Code"), QString::fromUtf8(info.queryCode.data(), info.queryCode.size()));
            QCOMPARE(xmlText(xml.body, "Message"), QStringLiteral("why <it> failed"));
            QCOMPARE(xmlText(xml.body, "Type"), info.senderFault ? QStringLiteral("Sender") : QStringLiteral("Receiver"));
            QCOMPARE(xmlText(xml.body, "RequestId"), QStringLiteral("rid"));
        }

        const HttpReply native = nativeErrorReply(wire);
        QCOMPARE(native.status, info.httpStatus);
        QCOMPARE(QString::fromStdString(nlohmann::json::parse(native.body.toStdString())["message"]), QStringLiteral("why <it> failed"));
    }

    void protocolErrors_haveTheirOwnCodes_data()
    {
        QTest::addColumn<int>("which");
        QTest::addColumn<QString>("jsonCode");
        QTest::addColumn<int>("status");
        QTest::newRow("malformed") << 0 << "SerializationException" << 400;
        QTest::newRow("unknown operation") << 1 << "UnknownOperationException" << 400;
        QTest::newRow("too large") << 2 << "RequestEntityTooLarge" << 413;
    }

    void protocolErrors_haveTheirOwnCodes()
    {
        QFETCH(int, which);
        QFETCH(QString, jsonCode);
        QFETCH(int, status);
        const WireError error = which == 0 ? WireError::malformedRequest("m")
                                : which == 1 ? WireError::unknownOperation("m")
                                             : WireError::bodyTooLarge("m");
        QCOMPARE(QString::fromStdString(error.jsonCode), jsonCode);
        QCOMPARE(sqsJsonErrorReply(error, "r").status, status);
    }

    void invalidUtf8InAMessage_stillValidJson()
    {
        const WireError error = WireError::fromBroker(BrokerError(BrokerErrorCode::InvalidParameterValue, "bad \xff byte"));
        QVERIFY(!nlohmann::json::parse(sqsJsonErrorReply(error, "r").body.toStdString(), nullptr, false).is_discarded());
        QVERIFY(!nlohmann::json::parse(nativeErrorReply(error).body.toStdString(), nullptr, false).is_discarded());
    }
};

RELAYDESK_TEST_MAIN(WireErrorTest)
#include "wire_error_test.moc"
