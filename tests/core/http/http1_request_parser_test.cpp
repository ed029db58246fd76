// SPDX-License-Identifier: MIT
// Http1RequestParser: every row is fed in one
// piece, byte by byte and in 7-byte pieces, and must give the same result
// each way: the first request (method, target, body, keep-alive, body over
// the limit) or the refusal's status. Limits: head 256 bytes, body 16.
#include "http/http1_request_parser.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

namespace {

struct Parsed {
    QByteArray outcome;   // "request", "more" (incomplete) or "failed NNN"
    QByteArray summary;   // "METHOD TARGET body=… keepAlive=… tooLarge=…"
    qsizetype bufferedAfter = 0;
};

Parsed parse(const QByteArray &bytes, qsizetype piece)
{
    Http1RequestParser parser({256, 16});
    QByteArray input;
    for (qsizetype at = 0; at < bytes.size(); at += piece) {
        input += bytes.mid(at, piece);
        const auto step = parser.parse(input);
        if (step == Http1RequestParser::Step::Failed)
            return {"failed " + QByteArray::number(parser.failure().status), {}, 0};
        if (step == Http1RequestParser::Step::Request) {
            const HttpRequest request = parser.takeRequest();
            return {"request",
                    request.method() + ' ' + request.target() + " body=" + request.body() +
                        " keepAlive=" + (request.keepAlive() ? "1" : "0") + " tooLarge=" + (request.bodyTooLarge() ? "1" : "0"),
                    input.size()};
        }
    }
    return {"more", {}, input.size()};
}

} // namespace

class Http1RequestParserTest final : public QObject {
    Q_OBJECT

private slots:
    void parsesOrRefuses_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QByteArray>("outcome");
        QTest::addColumn<QByteArray>("summary");

        const QByteArray ok = "request";
        QTest::newRow("GET") << QByteArray("GET /a?b=1 HTTP/1.1\r\nHost: x\r\n\r\n") << ok
                             << QByteArray("GET /a?b=1 body= keepAlive=1 tooLarge=0");
        QTest::newRow("POST content-length") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 5\r\n\r\nhello") << ok
                                             << QByteArray("POST / body=hello keepAlive=1 tooLarge=0");
        QTest::newRow("bare LF lines") << QByteArray("POST / HTTP/1.1\nContent-Length: 2\n\nhi") << ok
                                       << QByteArray("POST / body=hi keepAlive=1 tooLarge=0");
        QTest::newRow("empty lines before") << QByteArray("\r\n\r\nGET / HTTP/1.1\r\n\r\n") << ok
                                            << QByteArray("GET / body= keepAlive=1 tooLarge=0");
        QTest::newRow("same length twice") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nhi")
                                           << ok << QByteArray("POST / body=hi keepAlive=1 tooLarge=0");
        QTest::newRow("chunked") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                               "3;ext=1\r\nabc\r\n2\r\nde\r\n0\r\nTrailer: t\r\n\r\n")
                                 << ok << QByteArray("POST / body=abcde keepAlive=1 tooLarge=0");
        QTest::newRow("connection close") << QByteArray("GET / HTTP/1.1\r\nConnection: close\r\n\r\n") << ok
                                          << QByteArray("GET / body= keepAlive=0 tooLarge=0");
        QTest::newRow("HTTP/1.0") << QByteArray("GET / HTTP/1.0\r\n\r\n") << ok << QByteArray("GET / body= keepAlive=0 tooLarge=0");
        QTest::newRow("HTTP/1.0 keep-alive") << QByteArray("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n") << ok
                                             << QByteArray("GET / body= keepAlive=1 tooLarge=0");
        // Item 2: over the limit without reading the body.
        QTest::newRow("declared 4 GB") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 4000000000\r\n\r\n") << ok
                                       << QByteArray("POST / body= keepAlive=1 tooLarge=1");
        QTest::newRow("declared 17") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 17\r\n\r\n") << ok
                                     << QByteArray("POST / body= keepAlive=1 tooLarge=1");
        QTest::newRow("chunked past the limit") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                                                              "a\r\n0123456789\r\na\r\n0123456789\r\n")
                                                << ok << QByteArray("POST / body= keepAlive=1 tooLarge=1");
        QTest::newRow("incomplete body") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc") << QByteArray("more")
                                         << QByteArray();
        // Item 14: framing that could be read two ways.
        QTest::newRow("length 2^64") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n\r\n")
                                     << QByteArray("failed 400") << QByteArray();
        QTest::newRow("length -1") << QByteArray("POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n") << QByteArray("failed 400")
                                   << QByteArray();
        QTest::newRow("length abc") << QByteArray("POST / HTTP/1.1\r\nContent-Length: abc\r\n\r\n") << QByteArray("failed 400")
                                    << QByteArray();
        QTest::newRow("two lengths") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab")
                                     << QByteArray("failed 400") << QByteArray();
        QTest::newRow("length list differing") << QByteArray("POST / HTTP/1.1\r\nContent-Length: 1, 2\r\n\r\nab")
                                               << QByteArray("failed 400") << QByteArray();
        QTest::newRow("length and chunked")
            << QByteArray("POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n")
            << QByteArray("failed 400") << QByteArray();
        QTest::newRow("header without colon") << QByteArray("GET / HTTP/1.1\r\nNoColonHere\r\n\r\n") << QByteArray("failed 400")
                                              << QByteArray();
        QTest::newRow("space before colon") << QByteArray("GET / HTTP/1.1\r\nHost : x\r\n\r\n") << QByteArray("failed 400")
                                            << QByteArray();
        QTest::newRow("folded line") << QByteArray("GET / HTTP/1.1\r\nX-A: 1\r\n 2\r\n\r\n") << QByteArray("failed 400")
                                     << QByteArray();
        QTest::newRow("garbage request line") << QByteArray("\x01\x02 not http at all\r\n\r\n") << QByteArray("failed 400")
                                              << QByteArray();
        QTest::newRow("two-word request line") << QByteArray("GET /\r\n\r\n") << QByteArray("failed 400") << QByteArray();
        QTest::newRow("HTTP/2.0") << QByteArray("GET / HTTP/2.0\r\n\r\n") << QByteArray("failed 505") << QByteArray();
        QTest::newRow("gzip coding") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n")
                                     << QByteArray("failed 501") << QByteArray();
        QTest::newRow("bad chunk size") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                        << QByteArray("failed 400") << QByteArray();
        QTest::newRow("chunk without CRLF") << QByteArray("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n1\r\naXY")
                                            << QByteArray("failed 400") << QByteArray();
        QTest::newRow("head over 256 bytes") << QByteArray("GET / HTTP/1.1\r\nX-Big: " + QByteArray(300, 'a'))
                                             << QByteArray("failed 431") << QByteArray();
    }

    void parsesOrRefuses()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QByteArray, outcome);
        QFETCH(QByteArray, summary);
        for (const qsizetype piece : {bytes.size(), qsizetype(1), qsizetype(7)}) {
            const Parsed parsed = parse(bytes, piece);
            QCOMPARE(parsed.outcome, outcome);
            QCOMPARE(parsed.summary, summary);
        }
    }

    // Item 6's reading side: pipelined requests come out one by one, in order.
    void pipelinedRequestsInOrder()
    {
        Http1RequestParser parser({256, 16});
        QByteArray input = "POST /1 HTTP/1.1\r\nContent-Length: 1\r\n\r\naGET /2 HTTP/1.1\r\n\r\nGET /3 HTTP/1.1\r\n\r\n";
        QStringList targets;
        while (parser.parse(input) == Http1RequestParser::Step::Request)
            targets << QString::fromLatin1(parser.takeRequest().target());
        QCOMPARE(targets, QStringList({"/1", "/2", "/3"}));
        QVERIFY(input.isEmpty());
    }

    // Item 2: a chunked body past the limit stops the parser; nothing more is kept.
    void stopsAfterBodyOverLimit()
    {
        Http1RequestParser parser({256, 16});
        QByteArray input = "POST / HTTP/1.1\r\nContent-Length: 1000000\r\n\r\n" + QByteArray(1000, 'x');
        QCOMPARE(parser.parse(input), Http1RequestParser::Step::Request);
        QVERIFY(parser.takeRequest().bodyTooLarge());
        QVERIFY(parser.stopped());
        QCOMPARE(parser.parse(input), Http1RequestParser::Step::NeedMore);
    }
};

RELAYDESK_TEST_MAIN(Http1RequestParserTest)
#include "http1_request_parser_test.moc"
