// SPDX-License-Identifier: MIT
// Errors that explain themselves: the service's error codes stay,
// the message says what to do and names the queue, topic or ARN that does
// not exist, and an ARN of another region or account names this broker's.
// One row per error; a real database file.
#include "topic_test_support.h"
#include "support/test_main.h"

#include <QTest>

#include <functional>
#include <optional>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

using Outcome = std::optional<BrokerError>;   // nothing: it succeeded

template <class T>
Outcome outcomeOf(const Result<T> &result)
{
    return result ? Outcome() : Outcome(result.error());
}

struct ErrorCase {
    std::function<Outcome(TopicTestBroker &)> run;
    BrokerErrorCode code;
    std::vector<std::string> says;   // each must be in the message
};

// The broker has topic "events" and queue "orders" (us-east-1, 000000000000).
const std::map<QString, ErrorCase> &cases()
{
    static const std::map<QString, ErrorCase> table = {
        {"fifo name without FifoQueue",
         {[](TopicTestBroker &b) { return outcomeOf(b.createQueue("jobs.fifo")); },
          BrokerErrorCode::InvalidParameterValue,
          {"Can only include alphanumeric characters", "set the attribute FifoQueue=true",
           "--queue-name jobs.fifo --attributes FifoQueue=true"}}},
        {"FifoQueue without the suffix",
         {[](TopicTestBroker &b) { return outcomeOf(b.createQueue("jobs", {{"FifoQueue", "true"}})); },
          BrokerErrorCode::InvalidParameterValue,
          {"must end with .fifo suffix", "Name it jobs.fifo"}}},
        {"queue URL as sqs endpoint",
         {[](TopicTestBroker &b) { return outcomeOf(b.subscribe("events", "sqs", "http://localhost:9911/000000000000/orders")); },
          BrokerErrorCode::SnsInvalidParameter,
          {"Invalid parameter: SQS endpoint ARN", "not its URL: use arn:aws:sqs:us-east-1:000000000000:orders"}}},
        {"queue name as sqs endpoint",
         {[](TopicTestBroker &b) { return outcomeOf(b.subscribe("events", "sqs", "orders")); },
          BrokerErrorCode::SnsInvalidParameter,
          {"Invalid parameter: SQS endpoint ARN", "like arn:aws:sqs:us-east-1:000000000000:orders"}}},
        {"unsupported protocol",
         {[](TopicTestBroker &b) { return outcomeOf(b.subscribe("events", "smtp", "a@example.com")); },
          BrokerErrorCode::SnsInvalidParameter,
          {"does not support this protocol string: smtp", "http, https and sqs"}}},
        {"sqs endpoint of a missing queue",
         {[](TopicTestBroker &b) {
              return outcomeOf(b.subscribe("events", "sqs", b.identity().queueArn("ghost")));
          },
          BrokerErrorCode::SnsInvalidParameter,
          {"queue does not exist: ghost"}}},
        {"sqs endpoint in another region",
         {[](TopicTestBroker &b) {
              return outcomeOf(b.subscribe("events", "sqs", "arn:aws:sqs:eu-west-1:000000000000:orders"));
          },
          BrokerErrorCode::SnsInvalidParameter,
          {"not a queue of this broker", "arn:aws:sqs:us-east-1:000000000000:NAME"}}},
        {"unknown topic",
         {[](TopicTestBroker &b) { return outcomeOf(b.subscribe("missing", "sqs", b.identity().queueArn("orders"))); },
          BrokerErrorCode::SnsNotFound,
          {"Topic does not exist: missing"}}},
        {"unknown queue",
         {[](TopicTestBroker &b) {
              return outcomeOf(b.unit([&] { return QueueCatalog(b.db(), b.identity()).queueUrl("absent"); }));
          },
          BrokerErrorCode::QueueDoesNotExist,
          {"does not exist: absent"}}},
        {"topic ARN of another region",
         {[](TopicTestBroker &b) { return outcomeOf(b.identity().topicNameFromArn("arn:aws:sns:eu-west-1:000000000000:events")); },
          BrokerErrorCode::SnsNotFound,
          {"arn:aws:sns:eu-west-1:000000000000:events", "(region eu-west-1)", "this broker is region us-east-1",
           "--region"}}},
        {"queue ARN of another account",
         {[](TopicTestBroker &b) { return outcomeOf(b.identity().queueNameFromArn("arn:aws:sqs:us-east-1:123456789012:orders")); },
          BrokerErrorCode::QueueDoesNotExist,
          {"(account 123456789012)", "account 000000000000"}}},
        {"queue URL of another account",
         {[](TopicTestBroker &b) { return outcomeOf(b.identity().queueNameFromUrl("http://localhost:9911/123456789012/orders")); },
          BrokerErrorCode::QueueDoesNotExist,
          {"names account 123456789012", "this broker is account 000000000000"}}},
        {"subscription ARN of another region",
         {[](TopicTestBroker &b) {
              return outcomeOf(b.identity().subscriptionFromArn(
                  "arn:aws:sns:eu-west-1:000000000000:events:6f1b2c3d-0000-4000-8000-000000000000"));
          },
          BrokerErrorCode::SnsNotFound,
          {"Subscription does not exist", "this broker is region us-east-1"}}},
    };
    return table;
}

} // namespace

class ErrorMessagesTest final : public QObject {
    Q_OBJECT

private slots:
    void error_keepsCodeAndSaysWhatToDo_data()
    {
        QTest::addColumn<QString>("name");
        for (const auto &[name, errorCase] : cases())
            QTest::newRow(qPrintable(name)) << name;
    }
    void error_keepsCodeAndSaysWhatToDo()
    {
        QFETCH(QString, name);
        const ErrorCase &errorCase = cases().at(name);
        TopicTestBroker broker;
        QVERIFY(broker.createTopic("events"));
        QVERIFY(broker.createQueue("orders"));
        const std::string before = broker.snapshot();
        const Outcome outcome = errorCase.run(broker);
        QVERIFY2(outcome.has_value(), "it succeeded");
        QCOMPARE(int(outcome->code), int(errorCase.code));
        for (const std::string &text : errorCase.says)
            QVERIFY2(outcome->message.find(text) != std::string::npos, (outcome->message + " lacks: " + text).c_str());
        QCOMPARE(broker.snapshot(), before);   // and changes nothing
    }
};

RELAYDESK_TEST_MAIN(ErrorMessagesTest)
#include "error_messages_test.moc"
