// SPDX-License-Identifier: MIT
// Http1ResponseParser: every row is fed in one piece, byte by byte and in
// 7-byte pieces, and must give the same result each way: status, kept body
// (limit 8 bytes), body size, keep-alive, or an error saying what was wrong.
#include "http/http1_response_parser.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

namespace {

struct Parsed {
    Http1ResponseParser::State state = Http1ResponseParser::State::InProgress;
    int status = 0;
    std::string keptBody;
    std::uint64_t bodyBytes = 0;
    bool keepAlive = false;
    std::string error;
};

Parsed parse(const QByteArray &bytes, qsizetype piece, bool closeAtEnd)
{
    Http1ResponseParser parser({64 * 1024, 8});
    for (qsizetype at = 0; at < bytes.size() && parser.state() == Http1ResponseParser::State::InProgress; at += piece) {
        const std::string_view part(bytes.constData() + at, std::size_t(std::min(piece, bytes.size() - at)));
        const std::size_t used = parser.feed(part);
        if (parser.state() == Http1ResponseParser::State::InProgress && used != part.size())
            return Parsed{Http1ResponseParser::State::Error, 0, {}, 0, false, "bytes left unused while in progress"};
    }
    if (closeAtEnd)
        parser.finishAtClose();
    return Parsed{parser.state(), parser.status(), parser.keptBody(), parser.bodyBytes(), parser.keepAlive(), parser.error()};
}

QByteArray oversizedHeaders()
{
    return "HTTP/1.1 200 OK\r\nX-Big: " + QByteArray(70 * 1024, 'a') + "\r\nContent-Length: 0\r\n\r\n";
}

} // namespace

class Http1ResponseParserTest final : public QObject {
    Q_OBJECT

private slots:
    void response_sameResultHoweverCut_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<bool>("closeAtEnd");   // the peer closes after the bytes
        QTest::addColumn<int>("status");        // 0: an error is expected
        QTest::addColumn<QByteArray>("keptBody");
        QTest::addColumn<int>("bodyBytes");
        QTest::addColumn<bool>("keepAlive");
        QTest::addColumn<QString>("error");     // a part of the error text

        QTest::newRow("content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello") << false << 200
                                        << QByteArray("hello") << 5 << true << QString();
        QTest::newRow("content-length 0") << QByteArray("HTTP/1.1 202 Accepted\r\nContent-Length: 0\r\n\r\n") << false
                                          << 202 << QByteArray() << 0 << true << QString();
        QTest::newRow("header names any case") << QByteArray("HTTP/1.1 201 Created\r\ncOnTeNt-LeNgTh:   3 \r\n\r\nabc")
                                               << false << 201 << QByteArray("abc") << 3 << true << QString();
        QTest::newRow("no reason, bare LF") << QByteArray("HTTP/1.1 503\nContent-Length: 1\n\nx") << false << 503
                                            << QByteArray("x") << 1 << true << QString();
        QTest::newRow("body kept up to the limit")
            << QByteArray("HTTP/1.1 500 Oops\r\nContent-Length: 20\r\n\r\n0123456789abcdefghij") << false << 500
            << QByteArray("01234567") << 20 << true << QString();
        QTest::newRow("chunked, sizes 1, 16, 26, extension, trailers")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n10\r\n0123456789abcdef\r\n"
                          "1A;name=\"value\"\r\nabcdefghijklmnopqrstuvwxyz\r\n0\r\nX-Trailer: t\r\nX-Other: u\r\n\r\n")
            << false << 200 << QByteArray("a0123456") << 43 << true << QString();
        QTest::newRow("chunked, only the last chunk")
            << QByteArray("HTTP/1.1 200 OK\r\ntransfer-encoding: gzip, Chunked\r\n\r\n0\r\n\r\n") << false << 200
            << QByteArray() << 0 << true << QString();
        QTest::newRow("100 Continue, then the response")
            << QByteArray("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 102 Processing\r\nX: y\r\n\r\n"
                          "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            << false << 200 << QByteArray("ok") << 2 << true << QString();
        QTest::newRow("204 has no body") << QByteArray("HTTP/1.1 204 No Content\r\nContent-Length: 7\r\n\r\n") << false
                                         << 204 << QByteArray() << 0 << true << QString();
        QTest::newRow("304 has no body") << QByteArray("HTTP/1.1 304 Not Modified\r\n\r\n") << false << 304
                                         << QByteArray() << 0 << true << QString();
        QTest::newRow("body until close") << QByteArray("HTTP/1.1 200 OK\r\n\r\nuntil") << true << 200
                                          << QByteArray("until") << 5 << false << QString();
        QTest::newRow("Connection: close") << QByteArray("HTTP/1.1 200 OK\r\nConnection: Keep-Alive, CLOSE\r\nContent-Length: 2\r\n\r\nok")
                                           << false << 200 << QByteArray("ok") << 2 << false << QString();
        QTest::newRow("HTTP/1.0 closes by default") << QByteArray("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok") << false
                                                    << 200 << QByteArray("ok") << 2 << false << QString();
        QTest::newRow("HTTP/1.0 keep-alive") << QByteArray("HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 0\r\n\r\n")
                                             << false << 200 << QByteArray() << 0 << true << QString();
        QTest::newRow("status outside 200-599") << QByteArray("HTTP/1.1 999 Odd\r\nContent-Length: 0\r\n\r\n") << false
                                                << 999 << QByteArray() << 0 << true << QString();

        QTest::newRow("malformed status line") << QByteArray("HTTP/1.1 2x0 OK\r\n\r\n") << false << 0 << QByteArray() << 0
                                               << false << "malformed status line";
        QTest::newRow("not HTTP") << QByteArray("<html>hello</html>\r\n") << false << 0 << QByteArray() << 0 << false
                                  << "malformed status line";
        QTest::newRow("bad content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 12a\r\n\r\n") << false << 0
                                            << QByteArray() << 0 << false << "invalid Content-Length";
        QTest::newRow("negative content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n") << false
                                                 << 0 << QByteArray() << 0 << false << "invalid Content-Length";
        QTest::newRow("conflicting content-lengths")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\nok") << false << 0 << QByteArray()
            << 0 << false << "invalid Content-Length";
        QTest::newRow("header line without colon") << QByteArray("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n") << false << 0
                                                   << QByteArray() << 0 << false << "malformed header line";
        QTest::newRow("oversized headers") << oversizedHeaders() << false << 0 << QByteArray() << 0 << false
                                           << "header section larger than 65536 bytes";
        QTest::newRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n") << false
                                        << 0 << QByteArray() << 0 << false << "invalid chunk size";
        QTest::newRow("chunk without CRLF") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nokX\r\n")
                                            << false << 0 << QByteArray() << 0 << false << "not followed by CRLF";
        QTest::newRow("closed before the body ends") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc") << true
                                                     << 0 << QByteArray() << 0 << false << "before the response was complete";
        QTest::newRow("closed before any byte") << QByteArray() << true << 0 << QByteArray() << 0 << false
                                                << "before any response";
    }
    void response_sameResultHoweverCut()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(bool, closeAtEnd);
        QFETCH(int, status);
        QFETCH(QByteArray, keptBody);
        QFETCH(int, bodyBytes);
        QFETCH(bool, keepAlive);
        QFETCH(QString, error);
        for (const qsizetype piece : {qsizetype(bytes.size() + 1), qsizetype(1), qsizetype(7)}) {
            const Parsed parsed = parse(bytes, piece, closeAtEnd);
            if (status == 0) {
                QVERIFY2(parsed.state == Http1ResponseParser::State::Error, qPrintable(QString::number(piece)));
                QVERIFY2(QString::fromStdString(parsed.error).contains(error), parsed.error.c_str());
                continue;
            }
            QVERIFY2(parsed.state == Http1ResponseParser::State::Complete, parsed.error.c_str());
            QCOMPARE(parsed.status, status);
            QCOMPARE(QByteArray::fromStdString(parsed.keptBody), keptBody);
            QCOMPARE(parsed.bodyBytes, std::uint64_t(bodyBytes));
            QCOMPARE(parsed.keepAlive, keepAlive);
        }
    }

    void bytesAfterTheResponse_notConsumed()
    {
        Http1ResponseParser parser;
        const std::string bytes = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nokHTTP/1.1";
        QCOMPARE(parser.feed(bytes), bytes.size() - 8);
        QVERIFY(parser.state() == Http1ResponseParser::State::Complete);
    }

    void reset_readsTheNextResponse()
    {
        Http1ResponseParser parser;
        parser.feed("HTTP/1.1 500 No\r\nX-A: 1\r\nContent-Length: 0\r\n\r\n");
        QCOMPARE(parser.header("x-a"), std::string("1"));
        parser.reset();
        QVERIFY(!parser.started());
        parser.feed("HTTP/1.1 200 OK\r\nX-B: 2\r\nContent-Length: 0\r\n\r\n");
        QVERIFY(parser.state() == Http1ResponseParser::State::Complete);
        QCOMPARE(parser.status(), 200);
        QCOMPARE(parser.header("X-A"), std::string());
        QCOMPARE(parser.header("X-B"), std::string("2"));
    }

    void interimResponse_headersNotKept()
    {
        Http1ResponseParser parser;
        parser.feed("HTTP/1.1 100 Continue\r\nX-Interim: 1\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n");
        QCOMPARE(parser.status(), 200);
        QCOMPARE(parser.header("x-interim"), std::string());
    }
};

RELAYDESK_TEST_MAIN(Http1ResponseParserTest)
#include "http1_response_parser_test.moc"
