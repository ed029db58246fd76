// SPDX-License-Identifier: MIT
// Unit tests of the SQS digests (docs/behaviour.md §5.1) and the content-based
// deduplication id (docs/behaviour.md §5.2).
//
// Where the vectors come from:
//  - MD5 of bodies: the RFC 1321 test suite ("", "abc", "message digest").
//  - SHA-256: FIPS 180-2 examples ("", "abc").
//  - MD5OfMessageAttributes: computed once while writing this test with
//    Python's hashlib over the layout AWS documents (names sorted; per
//    attribute: 4-byte big-endian length + name, length + data type, one
//    transport byte 1 = String/Number or 2 = Binary, length + value), e.g.
//      md5(pack('>I',1)+b'a' + pack('>I',6)+b'String' + b'\x01' + pack('>I',1)+b'b')
//    and hard-coded here. layout_matchesDocumentedEncoding builds that byte
//    layout by hand as an independent check.

#include "broker/queues/message_digest.h"
#include "support/test_main.h"

#include <QString>
#include <QtTest>

using namespace relaydesk;

Q_DECLARE_METATYPE(relaydesk::MessageAttributes)

namespace {

QString q(const std::string &text) { return QString::fromStdString(text); }

MessageAttributeValue text(const char *type, const std::string &value) { return {type, value, ""}; }
MessageAttributeValue binary(const char *type, const std::string &bytes) { return {type, "", bytes}; }

std::string lengthPrefixed(const std::string &bytes)
{
    const auto n = static_cast<uint32_t>(bytes.size());
    std::string out;
    out += char((n >> 24) & 0xff);
    out += char((n >> 16) & 0xff);
    out += char((n >> 8) & 0xff);
    out += char(n & 0xff);
    return out + bytes;
}

} // namespace

class MessageDigestTest final : public QObject {
    Q_OBJECT

private slots:
    void md5OfMessageBody_rfc1321_data();
    void md5OfMessageBody_rfc1321();
    void contentDeduplicationId_fips180_data();
    void contentDeduplicationId_fips180();
    void md5OfMessageAttributes_knownVectors_data();
    void md5OfMessageAttributes_knownVectors();
    void md5OfMessageAttributes_none_isEmpty();
    void md5OfMessageAttributes_layout_matchesDocumentedEncoding();
    void md5OfMessageAttributes_changesWithEveryField();
};

void MessageDigestTest::md5OfMessageBody_rfc1321_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("md5");
    QTest::newRow("empty") << QByteArray("") << "d41d8cd98f00b204e9800998ecf8427e";
    QTest::newRow("abc") << QByteArray("abc") << "900150983cd24fb0d6963f7d28e17f72";
    QTest::newRow("message digest") << QByteArray("message digest") << "f96b697d7cb7938d525a2f31aaf161d0";
    // UTF-8 bytes of "café ☕" (hashlib).
    QTest::newRow("UTF-8") << QStringLiteral("caf\u00e9 \u2615").toUtf8() << "9543ec81d7c6c8256d750bfb6e7015ae";
}

void MessageDigestTest::md5OfMessageBody_rfc1321()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, md5);
    QCOMPARE(q(md5OfMessageBody(std::string_view(body.constData(), size_t(body.size())))), md5);
}

void MessageDigestTest::contentDeduplicationId_fips180_data()
{
    QTest::addColumn<QByteArray>("body");
    QTest::addColumn<QString>("sha256");
    QTest::newRow("empty") << QByteArray("") << "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    QTest::newRow("abc") << QByteArray("abc") << "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad";
    QTest::newRow("JSON body (hashlib)") << QByteArray("{\"order\": 1}")
                                         << "aa44d616dd15aaab14bc9f1df96586e90bb56ae992e3615de9510994891cd0ba";
}

void MessageDigestTest::contentDeduplicationId_fips180()
{
    QFETCH(QByteArray, body);
    QFETCH(QString, sha256);
    QCOMPARE(q(contentDeduplicationId(std::string_view(body.constData(), size_t(body.size())))), sha256);
}

void MessageDigestTest::md5OfMessageAttributes_knownVectors_data()
{
    QTest::addColumn<MessageAttributes>("attributes");
    QTest::addColumn<QString>("md5");

    QTest::newRow("one String") << MessageAttributes{{"a", text("String", "b")}} << "bef8bf215374a0a228d67533b1a488be";
    QTest::newRow("String, Number, Binary (sorted by name)")
        << MessageAttributes{{"City", text("String", "Any City")},
                             {"Population", text("Number", "1250800")},
                             {"Greeting", binary("Binary", "Hello, World!")}}
        << "28eb0e573cf8e8a77e349a2f968eac4a";
    QTest::newRow("custom type labels, binary with 0x00 and 0xff")
        << MessageAttributes{{"price", text("Number.float", "9.99")},
                             {"image", binary("Binary.gif", std::string("\x00\x01\x02\xff", 4))}}
        << "1eb4a45f18384decec569e4209e74ded";
    QTest::newRow("UTF-8 value") << MessageAttributes{{"name", text("String", "caf\xc3\xa9 \xe2\x98\x95")}}
                                 << "f987666f7a9a0c15ce032988018f63b7";
    QTest::newRow("empty string value") << MessageAttributes{{"e", text("String", "")}}
                                        << "6bc73efe9a52418a9ef9300a04f7287d";
}

void MessageDigestTest::md5OfMessageAttributes_knownVectors()
{
    QFETCH(MessageAttributes, attributes);
    QFETCH(QString, md5);
    QCOMPARE(q(md5OfMessageAttributes(attributes)), md5);
}

void MessageDigestTest::md5OfMessageAttributes_none_isEmpty()
{
    QCOMPARE(q(md5OfMessageAttributes({})), QString());
}

void MessageDigestTest::md5OfMessageAttributes_layout_matchesDocumentedEncoding()
{
    const MessageAttributes attributes{{"b-number", text("Number", "42")},
                                       {"a-binary", binary("Binary", std::string("\x00\x10", 2))},
                                       {"c-string", text("String.custom", "hello")}};
    // Sorted: a-binary, b-number, c-string.
    std::string layout;
    layout += lengthPrefixed("a-binary") + lengthPrefixed("Binary") + '\x02' + lengthPrefixed(std::string("\x00\x10", 2));
    layout += lengthPrefixed("b-number") + lengthPrefixed("Number") + '\x01' + lengthPrefixed("42");
    layout += lengthPrefixed("c-string") + lengthPrefixed("String.custom") + '\x01' + lengthPrefixed("hello");
    QCOMPARE(q(md5OfMessageAttributes(attributes)), q(md5OfMessageBody(layout)));
}

void MessageDigestTest::md5OfMessageAttributes_changesWithEveryField()
{
    const MessageAttributes base{{"k", text("String", "v")}};
    const std::string digest = md5OfMessageAttributes(base);
    QVERIFY(md5OfMessageAttributes({{"K", text("String", "v")}}) != digest);
    QVERIFY(md5OfMessageAttributes({{"k", text("Number", "v")}}) != digest);
    QVERIFY(md5OfMessageAttributes({{"k", text("String", "w")}}) != digest);
    QVERIFY(md5OfMessageAttributes({{"k", text("String", "v")}, {"l", text("String", "")}}) != digest);
}

RELAYDESK_TEST_MAIN(MessageDigestTest)
#include "message_digest_test.moc"
