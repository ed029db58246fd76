// SPDX-License-Identifier: MIT
// Unit tests of the copy a subscription rule's action makes of a stored
// Service Bus message (docs/behaviour.md §8.6): its application properties
// set or removed as the action says, everything else as sent.

#include "api/servicebus/amqp_message.h"
#include "api/servicebus/amqp_rule_copy.h"
#include "support/test_main.h"

#include <proton/message.hpp>
#include <proton/message_id.hpp>
#include <proton/scalar.hpp>

using namespace relaydesk;

namespace {

proton::message sent()
{
    proton::message message;
    message.body(std::string("the body"));
    message.subject("invoice");
    message.group_id("session-1");
    message.id("m-1");
    message.content_type("text/plain");
    message.properties().put("kind", "goal");
    message.properties().put("score", std::int64_t(2));
    message.properties().put("secret", "x");
    return message;
}

proton::message copyOf(const SendRequest &request)
{
    const Result<amqp_message::Bytes> bytes = amqp_message::storedSections(request.body);
    proton::message message;
    message.decode(*bytes);
    return message;
}

} // namespace

class ServiceBusRuleCopyTest final : public QObject {
    Q_OBJECT

private slots:
    void changesOnlyWhatTheActionSays()
    {
        amqp_message::Bytes bytes;
        sent().encode(bytes);
        Result<SendRequest> request = amqp_message::sendRequest(bytes);
        QVERIFY(request.ok());
        request->timeToLiveSeconds = 30;
        ServiceBusPropertyChanges changes;
        changes.application = {
            {"score", FilterValue(std::int64_t(3))}, {"checked", FilterValue(true)}, {"ratio", FilterValue(0.5)},
            {"nothing", FilterValue()}, {"secret", std::nullopt}, {"RuleName", FilterValue(std::string("counted"))}};
        changes.system = {{"Label", FilterValue(std::string("goal!"))},
                          {"To", FilterValue(std::int64_t(7))},
                          {"SessionId", FilterValue(std::string("session-2"))},
                          {"MessageId", std::nullopt}};
        const Result<SendRequest> copy = amqp_message::withPropertyChanges(*request, changes);
        QVERIFY2(copy.ok(), copy ? "" : copy.error().message.c_str());
        QCOMPARE(copy->timeToLiveSeconds, std::optional<std::int64_t>(30));
        QCOMPARE(copy->groupId, std::optional<std::string>("session-2"));
        QCOMPARE(copy->serviceBusMessageId, std::optional<std::string>());
        const proton::message message = copyOf(*copy);
        QCOMPARE(proton::get<std::string>(message.body()), std::string("the body"));
        QCOMPARE(message.subject(), std::string("goal!"));
        QCOMPARE(message.to(), std::string("7"));
        QCOMPARE(message.group_id(), std::string("session-2"));
        QVERIFY(message.id().empty());
        QCOMPARE(message.content_type(), std::string("text/plain"));   // not named: as sent
        auto property = [&message](const std::string &name) { return message.properties().get(name); };
        QCOMPARE(proton::get<std::string>(property("kind")), std::string("goal"));
        QCOMPARE(proton::get<std::int64_t>(property("score")), std::int64_t(3));
        QCOMPARE(proton::get<bool>(property("checked")), true);
        QCOMPARE(proton::get<double>(property("ratio")), 0.5);
        QCOMPARE(property("nothing").type(), proton::NULL_TYPE);
        QCOMPARE(std::string(proton::get<std::string>(property("RuleName"))), std::string("counted"));
        QVERIFY(!message.properties().exists("secret"));
        QCOMPARE(copyOf(*request).properties().size(), std::size_t(3));   // the original is untouched
    }
};

RELAYDESK_TEST_MAIN(ServiceBusRuleCopyTest)
#include "servicebus_rule_copy_test.moc"
