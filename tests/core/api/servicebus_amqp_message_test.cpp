// SPDX-License-Identifier: MIT
// Unit tests of the Service Bus message codec (docs/behaviour.md §8.6): a batch transfer
// gives its messages, any other transfer is one message; what a send stores
// (TTL, scheduled time) and what a receiver gets (delivery count written even
// at 0, the broker's annotations, a dead letter's reason).

#include "api/servicebus/amqp_message.h"
#include "api/servicebus/amqp_message_facts.h"
#include "broker/queues/message_receiver.h"
#include "support/test_main.h"

#include <proton/annotation_key.hpp>
#include <proton/binary.hpp>
#include <proton/message.hpp>
#include <proton/message_id.hpp>
#include <proton/scalar.hpp>
#include <proton/symbol.hpp>
#include <proton/timestamp.hpp>

using namespace relaydesk;

namespace {

using Bytes = amqp_message::Bytes;

Bytes encoded(const proton::message &message)
{
    Bytes bytes;
    message.encode(bytes);
    return bytes;
}

proton::message textMessage(const std::string &text)
{
    proton::message message;
    message.body(proton::binary(text));
    message.properties().put("kind", text);
    return message;
}

// A batch as the SDKs send it: a body of one data section per encoded message.
Bytes batchOf(const std::vector<Bytes> &messages)
{
    Bytes batch = encoded(proton::message());   // the envelope's header and properties
    for (const Bytes &message : messages) {
        batch.insert(batch.end(), {'\x00', '\x53', '\x75', '\xb0'});
        const auto size = static_cast<std::uint32_t>(message.size());
        for (int shift = 24; shift >= 0; shift -= 8)
            batch.push_back(static_cast<char>((size >> shift) & 0xff));
        batch.insert(batch.end(), message.begin(), message.end());
    }
    return batch;
}

proton::message decoded(const Bytes &bytes)
{
    proton::message message;
    message.decode(bytes);
    return message;
}

} // namespace

class ServiceBusAmqpMessageTest final : public QObject {
    Q_OBJECT

private slots:
    void batch_givesEachMessage()
    {
        const Bytes first = encoded(textMessage("one"));
        const Bytes second = encoded(textMessage("two"));
        const auto split = amqp_message::splitTransfer(batchOf({first, second}));
        QVERIFY(split.ok());
        QCOMPARE(split->size(), std::size_t(2));
        QVERIFY((*split)[0] == first);
        QVERIFY((*split)[1] == second);
    }

    void plainMessage_isItself_evenWithABinaryBody()
    {
        const Bytes plain = encoded(textMessage("{\"json\": true}"));
        const auto split = amqp_message::splitTransfer(plain);
        QCOMPARE(split->size(), std::size_t(1));
        QVERIFY(split->front() == plain);
    }

    void notAmqp_refused()
    {
        const auto split = amqp_message::splitTransfer(Bytes{'h', 'e', 'l', 'l', 'o'});
        QCOMPARE(split.error().code, BrokerErrorCode::InvalidParameterValue);
    }

    // Sections of a type AMQP does not allow there decode, but Proton throws
    // when they are read; found by the amqp_message fuzz target (an uncaught
    // exception ended the broker). Now the transfer is refused.
    void sectionOfTheWrongType_refused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        const QByteArray data("\x00\x53\x75\xa0\x01\x78", 6);   // a data section: "x"
        QTest::newRow("message annotations a list") << QByteArray("\x00\x53\x72\x45", 4) + data;
        QTest::newRow("application properties a list") << QByteArray("\x00\x53\x74\x45", 4) + data;
        QTest::newRow("application property value a list")
            << QByteArray("\x00\x53\x74\xc1\x05\x02\xa1\x01\x6b\x45", 10) + data;
    }
    void sectionOfTheWrongType_refused()
    {
        QFETCH(QByteArray, bytes);
        const Bytes message(bytes.begin(), bytes.end());
        const auto send = amqp_message::sendRequest(message);
        const auto facts = amqp_message::filterFacts(message);
        QVERIFY(!send.ok());
        QCOMPARE(send.error().code, BrokerErrorCode::InvalidParameterValue);
        QVERIFY(!facts.ok());
        QCOMPARE(facts.error().code, BrokerErrorCode::InvalidParameterValue);
        QVERIFY(!amqp_message::decodeMessage(message).ok());
    }

    // A cancel-scheduled-message whose sequence-numbers is a described array:
    // Proton's decoder threw std::length_error, which nothing caught (found by
    // the amqp_message fuzz target). Now the body has no sequence numbers.
    void cancelScheduled_describedArray_refused()
    {
        const QByteArray bytes = QByteArray::fromHex(
            "0053704500537345005374d10000003700000002a1096f7065726174696f4ea126636f6d2e6d6963726f736f66743a63616e63656c"
            "2d7363686564756c65642d6d657373616765005377d10000003000000002a11073657175656e63652d6e756d62657273f000000015"
            "000000020000000000000000010000000000000007");
        const auto request = amqp_message::decodeMessage(Bytes(bytes.begin(), bytes.end()));
        QVERIFY(request.ok());
        QVERIFY(!amqp_message::scheduledSequenceNumbers(*request));
    }

    void send_ttlRoundedUp_scheduledTimeRead()
    {
        proton::message message = textMessage("later");
        message.ttl(proton::duration(1500));
        message.message_annotations().put(proton::symbol("x-opt-scheduled-enqueue-time"),
                                          proton::timestamp(1'767'225'600'000LL));
        const auto request = amqp_message::sendRequest(encoded(message));
        QVERIFY(request.ok());
        QCOMPARE(request->timeToLiveSeconds, std::optional<std::int64_t>(2));
        QCOMPARE(request->scheduledEnqueueTime, std::optional<ClockTime>(fromEpochMilliseconds(1'767'225'600'000LL)));
        QVERIFY(amqp_message::storedSections(request->body).value() == encoded(message));
    }

    void send_sessionIdAndMessageIdRead()
    {
        proton::message message = textMessage("in a session");
        message.group_id("session-7");
        message.id(proton::message_id(std::string("order-1")));
        const auto request = amqp_message::sendRequest(encoded(message));
        QCOMPARE(request->groupId, std::optional<std::string>("session-7"));
        QCOMPARE(request->serviceBusMessageId, std::optional<std::string>("order-1"));
        message.id(proton::message_id(std::uint64_t(42)));
        QCOMPARE(amqp_message::sendRequest(encoded(message))->serviceBusMessageId, std::optional<std::string>("42"));
        const auto plain = amqp_message::sendRequest(encoded(textMessage("plain")));
        QCOMPARE(plain->groupId, std::optional<std::string>());
        QCOMPARE(plain->serviceBusMessageId, std::optional<std::string>());
    }

    void delivery_carriesTheBrokerProperties()
    {
        ReceivedMessage stored;
        stored.body = amqp_message::sendRequest(encoded(textMessage("m"))).value().body;
        stored.messageId = "broker-id";
        stored.approximateReceiveCount = 1;
        stored.storageId = 42;
        stored.enqueuedAt = fromEpochMilliseconds(1000);
        stored.lockedUntil = fromEpochMilliseconds(61000);
        const Bytes bytes = amqp_message::deliveryBytes(stored, true).value();
        const std::string text(bytes.begin(), bytes.end());
        // the header list's last field, delivery-count 0, written out (uint 0x70 00000000)
        QCOMPARE(text.substr(0, 6), std::string("\x00\x53\x70\xc0\x0b\x05", 6));
        QCOMPARE(text.substr(11, 5), std::string("\x70\x00\x00\x00\x00", 5));
        const proton::message message = decoded(bytes);
        QCOMPARE(message.delivery_count(), 0u);
        QCOMPARE(proton::get<std::string>(message.id()), std::string("broker-id"));
        const auto &annotations = message.message_annotations();
        QCOMPARE(proton::get<std::int64_t>(annotations.get(proton::symbol("x-opt-sequence-number"))), std::int64_t(42));
        QCOMPARE(proton::get<proton::timestamp>(annotations.get(proton::symbol("x-opt-locked-until"))).milliseconds(),
                 std::int64_t(61000));
        QCOMPARE(proton::get<std::string>(message.properties().get("kind")), std::string("m"));

        stored.approximateReceiveCount = 3;
        stored.deadLetterReason = "MaxReceiveCountExceeded";
        const proton::message dead = decoded(amqp_message::deliveryBytes(stored, false).value());
        QCOMPARE(dead.delivery_count(), 2u);
        QCOMPARE(proton::get<std::string>(dead.properties().get("DeadLetterReason")), std::string("MaxDeliveryCountExceeded"));
        QVERIFY(dead.message_annotations().get(proton::symbol("x-opt-locked-until")).empty());
    }
};

RELAYDESK_TEST_MAIN(ServiceBusAmqpMessageTest)
#include "servicebus_amqp_message_test.moc"
