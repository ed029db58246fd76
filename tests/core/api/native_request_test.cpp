// SPDX-License-Identifier: MIT
// The native API reads JSON only (docs/behaviour.md §8.2.1): a request with a body or a
// Content-Type must declare application/json, so what an HTML form or a
// no-CORS fetch sends (text/plain, form-encoded, multipart) is refused 415
// before a route sees it; a body that is not a JSON object stays a
// SerializationException.
#include "api/native/native_api.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

class NativeRequestTest final : public QObject {
    Q_OBJECT

private slots:
    void body_readOnlyAsDeclaredJson_data()
    {
        QTest::addColumn<QByteArray>("method");
        QTest::addColumn<QByteArray>("contentType");   // empty: no header
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");               // 0: read
        QTest::newRow("JSON") << QByteArray("POST") << QByteArray("application/json") << QByteArray(R"({"a":1})") << 0;
        QTest::newRow("JSON with charset") << QByteArray("POST") << QByteArray("application/json; charset=utf-8")
                                           << QByteArray(R"({"a":1})") << 0;
        QTest::newRow("JSON in capitals") << QByteArray("PUT") << QByteArray("Application/JSON") << QByteArray("{}") << 0;
        QTest::newRow("no body, no type (curl -X POST)") << QByteArray("POST") << QByteArray() << QByteArray() << 0;
        QTest::newRow("GET") << QByteArray("GET") << QByteArray() << QByteArray() << 0;
        QTest::newRow("JSON, empty body") << QByteArray("DELETE") << QByteArray("application/json") << QByteArray() << 0;
        QTest::newRow("text/plain (form, fetch)") << QByteArray("POST") << QByteArray("text/plain")
                                                  << QByteArray(R"({"a":1})") << 415;
        QTest::newRow("text/plain, charset") << QByteArray("POST") << QByteArray("text/plain;charset=UTF-8")
                                             << QByteArray(R"({"a":1})") << 415;
        QTest::newRow("form-encoded (curl -d)") << QByteArray("POST") << QByteArray("application/x-www-form-urlencoded")
                                                << QByteArray(R"({"a":1})") << 415;
        QTest::newRow("multipart") << QByteArray("POST") << QByteArray("multipart/form-data; boundary=x")
                                   << QByteArray("--x--") << 415;
        QTest::newRow("text/plain, no body (empty form)") << QByteArray("POST") << QByteArray("text/plain") << QByteArray()
                                                          << 415;
        QTest::newRow("body without a type") << QByteArray("POST") << QByteArray() << QByteArray(R"({"a":1})") << 415;
        QTest::newRow("JSON-like type") << QByteArray("POST") << QByteArray("application/json-patch+json")
                                        << QByteArray("{}") << 415;
        QTest::newRow("type in a parameter") << QByteArray("POST") << QByteArray("text/plain; x=application/json")
                                             << QByteArray("{}") << 415;
        QTest::newRow("JSON but not an object") << QByteArray("POST") << QByteArray("application/json") << QByteArray("[1]")
                                                << 400;
    }
    void body_readOnlyAsDeclaredJson()
    {
        QFETCH(QByteArray, method);
        QFETCH(QByteArray, contentType);
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        const auto read = readNativeRequest(method, QUrl(QStringLiteral("/api/v1/queues")), contentType, body);
        if (status == 0) {
            QVERIFY(std::holds_alternative<NativeRequest>(read));
            return;
        }
        QVERIFY(std::holds_alternative<WireError>(read));
        const WireError &error = std::get<WireError>(read);
        QCOMPARE(error.httpStatus, status);
        if (status == 415) {
            QCOMPARE(QByteArray::fromStdString(error.jsonCode), QByteArray("UnsupportedMediaType"));
            QVERIFY2(error.message.find("Content-Type: application/json") != std::string::npos, error.message.c_str());
        }
    }
};

RELAYDESK_TEST_MAIN(NativeRequestTest)
#include "native_request_test.moc"
