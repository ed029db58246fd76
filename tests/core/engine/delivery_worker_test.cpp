// SPDX-License-Identifier: MIT
// The delivery worker's transport cases and lifecycle (docs/behaviour.md §4.1–4.5) over
// real HTTP on loopback with the virtual clock: a hang times out (short wall
// timeout) and is retried; a refused connection is retried; the topic policy
// wins when it disables overrides; the throttle spreads a backlog without
// dropping; a restart resumes at the stored attempt and due time; a hanging
// endpoint does not hold another subscription's delivery; confirmations and
// raw dead-lettering.
#include "support/delivery_fixture.h"

#include "support/script_endpoint.h"
#include "support/test_main.h"

#include <QCoreApplication>
#include <QEventLoop>
#include <QTcpServer>
#include <QTest>

#include <nlohmann/json.hpp>

#include <atomic>
#include <map>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

const std::string kTwoImmediate =
    R"({"healthyRetryPolicy":{"numRetries":2,"numNoDelayRetries":2,"minDelayTarget":1,"maxDelayTarget":1}})";

std::vector<std::string> outcomes(const std::vector<AttemptRecord> &log)
{
    std::vector<std::string> list;
    for (const AttemptRecord &record : log)
        list.push_back(record.outcome);
    return list;
}

// The set-up most tests share: opens `bench` with `endpoint` stamping on its
// clock, gives the endpoint `script` and creates the topic "orders" (with the
// delivery policy `topicPolicy`). False when a step failed.
bool openWithOrdersTopic(DeliveryBench &bench, ScriptEndpoint &endpoint, std::vector<ScriptStep> script,
                         const std::optional<std::string> &topicPolicy = std::nullopt)
{
    if (!bench.open(kDeliveryStart, [&](BrokerEngine &engine) { endpoint.setClock(&engine.clock()); }))
        return false;
    endpoint.setScript(std::move(script));
    return bench.createTopic("orders", topicPolicy).ok();
}

// A stand-in signer: the envelope with "signed" as its Signature.
std::string fakeSignature(std::string envelope)
{
    nlohmann::ordered_json json = nlohmann::ordered_json::parse(envelope);
    json["Signature"] = "signed";
    return json.dump();
}

} // namespace

class DeliveryWorkerTest : public QObject {
    Q_OBJECT

private slots:
    // Every attempt hangs: each ends in a timeout, is retried, and the last
    // one discards the delivery. The short wall-time limit is only ever met
    // by a hang (no answer has to beat it: a slow machine makes the timeouts
    // later, never different).
    void hangingEndpoint_timesOutAndRetries()
    {
        DeliveryBench bench;
        bench.options().requestTimeout = 300ms; // wall time; short on purpose
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(openWithOrdersTopic(bench, endpoint, {hang()}));
        Result<SubscribeReceipt> subscription =
            bench.subscribe("orders", endpoint.url(), {{"DeliveryPolicy", kTwoImmediate}});
        QVERIFY(subscription);
        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(10s));
        const std::vector<AttemptRecord> log = bench.attempts(subscription->subscriptionArn);
        QCOMPARE(outcomes(log), (std::vector<std::string>{"timeout", "timeout", "timeout"}));
        for (const AttemptRecord &attempt : log) {
            QVERIFY(!attempt.httpStatus);
            QCOMPARE(attempt.errorKind.value_or(""), std::string("timeout"));
        }
        QCOMPARE(log.back().final.value_or(""), std::string("discarded"));
        QCOMPARE(bench.pendingCount(), std::int64_t(0));
    }

    void refusedConnection_retriedThenDiscarded()
    {
        QTcpServer probe;
        QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
        const std::string url = "http://127.0.0.1:" + std::to_string(probe.serverPort()) + "/hook";
        probe.close();
        DeliveryBench bench;
        QVERIFY(bench.open());
        QVERIFY(bench.createTopic("orders"));
        Result<SubscribeReceipt> subscription = bench.subscribe("orders", url, {{"DeliveryPolicy", kTwoImmediate}});
        QVERIFY(subscription);
        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(10s));
        const std::vector<AttemptRecord> log = bench.attempts(subscription->subscriptionArn);
        QCOMPARE(outcomes(log), (std::vector<std::string>{"connectionError", "connectionError", "connectionError"}));
        QCOMPARE(log.back().final.value_or(""), std::string("discarded"));
        QCOMPARE(bench.pendingCount(), std::int64_t(0));
    }

    void topicDisablesOverrides_topicPolicyWins()
    {
        DeliveryBench bench;
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(openWithOrdersTopic(
            bench, endpoint, {respond(503)},
            R"({"http":{"defaultHealthyRetryPolicy":{"numRetries":1,"numNoDelayRetries":1,"minDelayTarget":1,)"
            R"("maxDelayTarget":1},"disableSubscriptionOverrides":true}})"));
        Result<SubscribeReceipt> subscription = bench.subscribe(
            "orders", endpoint.url(),
            {{"DeliveryPolicy", R"({"healthyRetryPolicy":{"numRetries":5,"numNoDelayRetries":5,"minDelayTarget":1,"maxDelayTarget":1}})"}});
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());
        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(60s));
        QCOMPARE(endpoint.count(), std::size_t(2));
    }

    void subscriptionPolicy_overridesTopicPolicy()
    {
        DeliveryBench bench;
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(openWithOrdersTopic(
            bench, endpoint, {respond(503)},
            R"({"http":{"defaultHealthyRetryPolicy":{"numRetries":1,"numNoDelayRetries":1,"minDelayTarget":1,)"
            R"("maxDelayTarget":1}}})"));
        Result<SubscribeReceipt> subscription = bench.subscribe(
            "orders", endpoint.url(),
            {{"DeliveryPolicy", R"({"healthyRetryPolicy":{"numRetries":5,"numNoDelayRetries":5,"minDelayTarget":1,"maxDelayTarget":1}})"}});
        QVERIFY(subscription);
        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(60s));
        QCOMPARE(endpoint.count(), std::size_t(6));
    }

    void throttle_thousandMessagesAtFiftyPerSecondTakeTwentySeconds()
    {
        DeliveryBench bench;
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(openWithOrdersTopic(bench, endpoint, {respond(200)}));
        Result<SubscribeReceipt> subscription = bench.subscribe(
            "orders", endpoint.url(),
            {{"DeliveryPolicy", R"({"healthyRetryPolicy":{"numRetries":3},"throttlePolicy":{"maxReceivesPerSecond":50}})"}});
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());
        QVERIFY(bench.publish("orders", "burst", 1000));
        QVERIFY(bench.advance(60s));
        const auto received = endpoint.received();
        QCOMPARE(received.size(), std::size_t(1000));
        const auto span = received.back().at - kDeliveryStart;
        QVERIFY2(span >= 19s && span <= 21s, qPrintable(QString("took %1 ms").arg(span.count())));
        // The average is held in every second-long window after the first burst.
        std::size_t inFirstSecond = 0;
        for (const ReceivedRequest &request : received)
            inFirstSecond += request.at < kDeliveryStart + 1s ? 1 : 0;
        QVERIFY(inFirstSecond <= 100);
        QCOMPARE(bench.pendingCount(), std::int64_t(0));

        // The log: one delivered row per message; the 950 beyond the first
        // second's burst of 50 each have a "throttled-wait" row first, stamped
        // at their planned time, and are attempted later than planned.
        std::map<std::string, std::vector<AttemptRecord>> rowsOf;
        for (const AttemptRecord &record : bench.attempts(subscription->subscriptionArn))
            rowsOf[record.messageId].push_back(record);
        QCOMPARE(rowsOf.size(), std::size_t(1000));
        std::size_t waited = 0;
        for (const auto &[messageId, rows] : rowsOf) {
            QCOMPARE(rows.back().outcome, std::string("delivered"));
            QCOMPARE(rows.back().final.value_or(""), std::string("delivered"));
            if (rows.size() == 1) {
                QCOMPARE(rows[0].startedAt, rows[0].plannedAt);
                continue;
            }
            QCOMPARE(rows.size(), std::size_t(2));
            ++waited;
            QCOMPARE(rows[0].outcome, std::string("throttled-wait"));
            QCOMPARE(rows[0].attempt, rows[1].attempt);
            QCOMPARE(rows[0].phase, std::string("initial"));
            QCOMPARE(rows[0].startedAt, rows[0].plannedAt);
            QVERIFY(!rows[0].httpStatus);
            QVERIFY(!rows[0].final);
            QVERIFY(rows[1].startedAt > rows[1].plannedAt);
        }
        QCOMPARE(waited, std::size_t(950));
    }

    void restartMidSchedule_nextAttemptAtPlannedTime()
    {
        const std::string policy =
            R"({"healthyRetryPolicy":{"numRetries":12,"numNoDelayRetries":1,"numMinDelayRetries":2,"numMaxDelayRetries":3,)"
            R"("minDelayTarget":5,"maxDelayTarget":60,"backoffFunction":"geometric"}})";
        DeliveryBench bench;
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(openWithOrdersTopic(bench, endpoint, {respond(503)}));
        Result<SubscribeReceipt> subscription = bench.subscribe("orders", endpoint.url(), {{"DeliveryPolicy", policy}});
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());
        QVERIFY(bench.publish("orders", "hello"));
        // Run up to attempt 7, then stop everything.
        std::vector<ReceivedRequest> received;
        while (endpoint.count() < 8) {
            QVERIFY(bench.advance(1s));
            QVERIFY(bench.engine().clock().now() < atSeconds(3600));
        }
        received = endpoint.received();
        const ClockTime seventh = received[7].at;
        QCOMPARE(bench.attempts(subscription->subscriptionArn).size(), std::size_t(8));
        endpoint.setClock(nullptr);   // the old engine's clock goes with it
        bench.close();

        // Reopen the same file later than the 7th attempt but before the 8th is due.
        QVERIFY(bench.open(seventh + 1s, [&](BrokerEngine &engine) { endpoint.setClock(&engine.clock()); }));
        QVERIFY(bench.advance(3600s));
        received = endpoint.received();
        const std::vector<AttemptRecord> log = bench.attempts(subscription->subscriptionArn);
        QCOMPARE(log.size(), std::size_t(13));
        for (std::size_t i = 0; i < log.size(); ++i) {
            QCOMPARE(log[i].attempt, std::int64_t(i));
            QCOMPARE(log[i].startedAt, log[i].plannedAt);
            QCOMPARE(received[i].at, log[i].plannedAt);
        }
        QVERIFY(log[8].plannedAt > seventh + 1s);
        QCOMPARE(log.back().final.value_or(""), std::string("discarded"));
    }

    void restartAfterDueTime_oneCatchUpAttempt()
    {
        DeliveryBench bench;
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(openWithOrdersTopic(bench, endpoint, {respond(503), respond(200)}));
        Result<SubscribeReceipt> subscription = bench.subscribe(
            "orders", endpoint.url(),
            {{"DeliveryPolicy", R"({"healthyRetryPolicy":{"numRetries":3,"minDelayTarget":20,"maxDelayTarget":20}})"}});
        QVERIFY(subscription);
        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(0s));
        QCOMPARE(endpoint.count(), std::size_t(1));
        endpoint.setClock(nullptr);   // the old engine's clock goes with it
        bench.close();
        // Down for an hour: the retries at 20, 40 and 60 s all fell due meanwhile.
        QVERIFY(bench.open(atSeconds(3600), [&](BrokerEngine &engine) { endpoint.setClock(&engine.clock()); }));
        QVERIFY(bench.advance(0s));
        const auto received = endpoint.received();
        QCOMPARE(received.size(), std::size_t(2));
        QCOMPARE(received[1].at, atSeconds(3600));
        const std::vector<AttemptRecord> log = bench.attempts(subscription->subscriptionArn);
        QCOMPARE(log.size(), std::size_t(2));
        QCOMPARE(log[1].attempt, std::int64_t(1));
        QCOMPARE(log[1].plannedAt, atSeconds(20));
        QCOMPARE(log[1].final.value_or(""), std::string("delivered"));
    }

    void hangingEndpoint_doesNotDelayOtherSubscription()
    {
        DeliveryBench bench;
        bench.options().requestTimeout = 60000ms; // wall time: the hang outlasts the test
        QVERIFY(bench.open());
        ScriptEndpoint slow(&bench.engine().clock());
        slow.setScript({hang(), respond(200)});
        ScriptEndpoint fast(&bench.engine().clock());
        fast.setScript({respond(200)});
        QVERIFY(bench.createTopic("orders"));
        Result<SubscribeReceipt> hanging = bench.subscribe("orders", slow.url(), {{"DeliveryPolicy", kTwoImmediate}});
        Result<SubscribeReceipt> healthy = bench.subscribe("orders", fast.url(), {{"DeliveryPolicy", kTwoImmediate}});
        QVERIFY(hanging && healthy);
        QVERIFY(bench.publish("orders", "hello"));

        std::atomic<bool> advanced{false};
        bench.engine().advanceClock(0ms, nullptr, [&](Result<ClockTime>) { advanced = true; });
        // The healthy delivery is recorded while the other request still hangs.
        QTRY_VERIFY_WITH_TIMEOUT(bench.attempts(healthy->subscriptionArn).size() == 1, 30000);
        QVERIFY(!advanced.load());
        QCOMPARE(bench.attempts(hanging->subscriptionArn).size(), std::size_t(0));
        QTRY_COMPARE_WITH_TIMEOUT(slow.count(), std::size_t(1), 30000);
        QCOMPARE(bench.attempts(healthy->subscriptionArn).front().final.value_or(""), std::string("delivered"));
        // Stopping the worker aborts the hanging request (not recorded: it stays pending) and frees the advance.
        bench.worker().stop();
        QTRY_VERIFY_WITH_TIMEOUT(advanced.load(), 30000);
        QCOMPARE(bench.pendingCount(), std::int64_t(1));
    }

    void pendingSubscription_getsConfirmationRequest()
    {
        DeliveryBench bench;
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(openWithOrdersTopic(bench, endpoint, {respond(500), respond(200)}));
        Result<SubscribeReceipt> subscription = bench.subscribe("orders", endpoint.url(), {}, false);
        QVERIFY(subscription);
        QVERIFY(subscription->pendingConfirmation);
        QVERIFY(bench.queueConfirmation(subscription->subscriptionArn, "SubscriptionConfirmation"));
        QVERIFY(bench.advance(60s)); // sns-default: the retry comes 20 s later
        const auto received = endpoint.received();
        QCOMPARE(received.size(), std::size_t(2));
        QCOMPARE(received[1].at, atSeconds(20));
        const ReceivedRequest &request = received[1];
        QCOMPARE(request.headers.at("x-amz-sns-message-type"), std::string("SubscriptionConfirmation"));
        QVERIFY(request.headers.count("x-amz-sns-subscription-arn") == 0);
        QCOMPARE(request.headers.at("x-amz-sns-message-id"), received[0].headers.at("x-amz-sns-message-id"));
        const nlohmann::json envelope = nlohmann::json::parse(request.body);
        const std::string topicArn = bench.identity().topicArn("orders");
        QCOMPARE(envelope.at("Type").get<std::string>(), std::string("SubscriptionConfirmation"));
        QCOMPARE(envelope.at("Token").get<std::string>(), subscription->confirmationToken);
        QCOMPARE(envelope.at("TopicArn").get<std::string>(), topicArn);
        QCOMPARE(envelope.at("Message").get<std::string>(),
                 "You have chosen to subscribe to the topic " + topicArn
                     + ".\nTo confirm the subscription, visit the SubscribeURL included in this message.");
        QCOMPARE(envelope.at("SubscribeURL").get<std::string>(),
                 bench.identity().endpoint + "/?Action=ConfirmSubscription&TopicArn=" + topicArn
                     + "&Token=" + subscription->confirmationToken);
        for (const char *key : {"MessageId", "Timestamp", "SignatureVersion", "Signature", "SigningCertURL"})
            QVERIFY2(envelope.contains(key), key);
    }

    void rawDelivery_headersAndRawDeadLetter()
    {
        DeliveryBench bench;
        bench.options().signEnvelope = fakeSignature;
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(openWithOrdersTopic(bench, endpoint, {respond(410)}));
        QVERIFY(bench.createQueue("dlq"));
        Result<SubscribeReceipt> subscription = bench.subscribe(
            "orders", endpoint.url(),
            {{"RawMessageDelivery", "true"},
             {"RedrivePolicy", R"({"deadLetterTargetArn":")" + bench.identity().queueArn("dlq") + R"("})"}});
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());
        MessageAttributes attributes;
        attributes["colour"] = MessageAttributeValue{"String", "blue", {}};
        QVERIFY(bench.publish("orders", "bare body", 1, attributes));
        QVERIFY(bench.advance(10s));
        const auto received = endpoint.received();
        QCOMPARE(received.size(), std::size_t(1));
        QCOMPARE(received[0].body, std::string("bare body"));
        QCOMPARE(received[0].headers.at("x-amz-sns-rawdelivery"), std::string("true"));
        QCOMPARE(received[0].headers.at("x-amz-sns-subscription-arn"), subscription->subscriptionArn);
        QCOMPARE(received[0].headers.at("content-type"), std::string("text/plain; charset=UTF-8"));
        QCOMPARE(bench.queueBodies("dlq"), (std::vector<std::string>{"bare body"}));
    }

    void signedEnvelope_sentAndDeadLettered()
    {
        DeliveryBench bench;
        bench.options().signEnvelope = fakeSignature;
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(openWithOrdersTopic(bench, endpoint, {respond(404)}));
        QVERIFY(bench.createQueue("dlq"));
        QVERIFY(bench.subscribe(
            "orders", endpoint.url(),
            {{"RedrivePolicy", R"({"deadLetterTargetArn":")" + bench.identity().queueArn("dlq") + R"("})"}}));
        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(10s));
        QCOMPARE(endpoint.count(), std::size_t(1)); // 404: permanent, no retries
        const nlohmann::json sent = nlohmann::json::parse(endpoint.received()[0].body);
        QCOMPARE(sent.at("Signature").get<std::string>(), std::string("signed"));
        const std::vector<std::string> bodies = bench.queueBodies("dlq");
        QCOMPARE(bodies.size(), std::size_t(1));
        QCOMPARE(bodies[0], endpoint.received()[0].body);
    }
};

RELAYDESK_TEST_MAIN(DeliveryWorkerTest)
#include "delivery_worker_test.moc"
