// SPDX-License-Identifier: MIT
// The delivery worker executes the schedule (docs/behaviour.md §3, 4.2, 4.4) over real HTTP
// on loopback with the virtual clock: attempts at exactly the planned times
// (jitter 0) for each backoff function and both dialects, stopping at the
// first success; jitter inside its band and reproducible with a seed; the
// sns-example preset against an always-503 endpoint ends in the dead-letter
// queue after 51 attempts; the classification table per dialect.
#include "support/delivery_fixture.h"

#include "support/script_endpoint.h"
#include "broker/queues/dead_letter_queue.h"
#include "broker/topics/delivery_policy_attribute.h"
#include "policy/policy_presets.h"
#include "support/test_main.h"

#include <QTest>

#include <nlohmann/json.hpp>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

std::string snsPolicy(const std::string &function)
{
    return R"({"healthyRetryPolicy":{"numRetries":10,"numNoDelayRetries":1,"numMinDelayRetries":1,)"
           R"("numMaxDelayRetries":2,"minDelayTarget":2,"maxDelayTarget":40,"backoffFunction":")"
        + function + R"("}})";
}

std::string zaqarPolicy(const std::string &function)
{
    return R"({"_retry_policy":{"retries_with_no_delay":1,"minimum_delay_retries":1,"minimum_delay":5,)"
           R"("maximum_delay":30,"maximum_delay_retries":2,"retry_backoff_function":")"
        + function + R"("}})";
}

RetrySchedule scheduleOf(const std::string &policyText)
{
    PolicyCheckContext context;
    context.protocol = EndpointProtocol::Http;
    Result<DeliveryPolicyAttribute> parsed =
        parseDeliveryPolicyAttribute(policyText, DeliveryPolicyLevel::Subscription, context);
    if (!parsed) {
        qWarning("%s", parsed.error().message.c_str());
        return {};
    }
    return planSchedule(parsed->policy.retryOrDefault(), parsed->policy.dialect);
}

std::vector<ScriptStep> failThenSucceed(int failures, int failStatus = 503)
{
    std::vector<ScriptStep> steps(static_cast<std::size_t>(failures), respond(failStatus));
    steps.push_back(respond(200));
    return steps;
}

} // namespace

class DeliveryScheduleTest : public QObject {
    Q_OBJECT

private slots:
    void failingEndpoint_attemptsAtPlannedTimes_data()
    {
        QTest::addColumn<QString>("dialect");
        QTest::addColumn<QString>("function");
        QTest::addColumn<int>("failures");
        for (const char *dialect : {"sns", "zaqar"}) {
            for (const char *function : {"linear", "arithmetic", "geometric", "exponential"}) {
                for (int failures : {0, 3, 7}) {
                    QTest::addRow("%s-%s-fail%d", dialect, function, failures)
                        << QString(dialect) << QString(function) << failures;
                }
            }
        }
        QTest::addRow("sns-linear-never-succeeds") << QString("sns") << QString("linear") << 20;
    }
    void failingEndpoint_attemptsAtPlannedTimes()
    {
        QFETCH(QString, dialect);
        QFETCH(QString, function);
        QFETCH(int, failures);
        const std::string policy =
            dialect == "sns" ? snsPolicy(function.toStdString()) : zaqarPolicy(function.toStdString());
        const RetrySchedule schedule = scheduleOf(policy);
        QVERIFY(schedule.retries() > 0);

        DeliveryBench bench;
        QVERIFY(bench.open());
        ScriptEndpoint endpoint(&bench.engine().clock());
        endpoint.setScript(failThenSucceed(failures));
        QVERIFY(bench.createTopic("orders"));
        Result<SubscribeReceipt> subscription = bench.subscribe("orders", endpoint.url(), {{"DeliveryPolicy", policy}});
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());
        Result<std::vector<std::string>> published = bench.publish("orders", "hello");
        QVERIFY(published);
        QVERIFY(bench.advance(std::chrono::seconds(schedule.totalDelaySeconds() + 60)));

        const std::int64_t expectedAttempts = std::min<std::int64_t>(failures + 1, schedule.attempts());
        const auto received = endpoint.received();
        QCOMPARE(static_cast<std::int64_t>(received.size()), expectedAttempts);
        for (std::int64_t attempt = 0; attempt < expectedAttempts; ++attempt) {
            QCOMPARE(received[size_t(attempt)].at, atSeconds(schedule.secondsUntilAttempt(attempt)));
            QCOMPARE(received[size_t(attempt)].headers.at("x-amz-sns-message-id"), published->front());
        }
        const std::vector<AttemptRecord> log = bench.attempts(subscription->subscriptionArn);
        QCOMPARE(static_cast<std::int64_t>(log.size()), expectedAttempts);
        for (std::int64_t attempt = 0; attempt < expectedAttempts; ++attempt) {
            const AttemptRecord &record = log[size_t(attempt)];
            QCOMPARE(record.attempt, attempt);
            QCOMPARE(record.phase, attempt == 0 ? std::string("initial")
                                                : std::string(retryPhaseName(schedule.phaseOfRetry(attempt))));
            QCOMPARE(record.plannedAt, atSeconds(schedule.secondsUntilAttempt(attempt)));
            const bool last = attempt + 1 == expectedAttempts;
            QCOMPARE(record.final.has_value(), last);
        }
        const bool delivered = failures < schedule.attempts();
        QCOMPARE(*log.back().final, std::string(delivered ? "delivered" : "discarded"));
        QCOMPARE(bench.pendingCount(), std::int64_t(0));
    }

    void jitter_delaysInBandAndSeedReproducible()
    {
        const std::string policy = snsPolicy("linear");
        const RetrySchedule schedule = scheduleOf(policy);
        std::vector<ClockTime> runs[2];
        for (auto &times : runs) {
            DeliveryBench bench;
            bench.options().jitterFraction = 0.2;
            bench.options().jitterSeed = 42;
            QVERIFY(bench.open());
            ScriptEndpoint endpoint(&bench.engine().clock());
            endpoint.setScript({respond(503)});
            QVERIFY(bench.createTopic("orders"));
            QVERIFY(bench.subscribe("orders", endpoint.url(), {{"DeliveryPolicy", policy}}));
            QVERIFY(bench.publish("orders", "hello"));
            QVERIFY(bench.advance(std::chrono::seconds(schedule.totalDelaySeconds() * 2)));
            const auto received = endpoint.received();
            QCOMPARE(static_cast<std::int64_t>(received.size()), schedule.attempts());
            for (std::size_t i = 0; i < received.size(); ++i) {
                times.push_back(received[i].at);
                if (i == 0)
                    continue;
                const int planned = schedule.delayBeforeRetry(static_cast<std::int64_t>(i));
                const auto [low, high] = JitterSampler::band(planned, 0.2);
                const auto actual = received[i].at - received[i - 1].at;
                QVERIFY2(actual >= low && actual <= high, qPrintable(QString("retry %1: %2 ms not in [%3, %4]")
                                                                         .arg(i).arg(actual.count()).arg(low.count())
                                                                         .arg(high.count())));
            }
        }
        QCOMPARE(runs[0], runs[1]);
    }

    void snsExampleAlways503_fiftyOneAttemptsThenDeadLetter()
    {
        DeliveryBench bench;
        QVERIFY(bench.open());
        ScriptEndpoint endpoint(&bench.engine().clock());
        endpoint.setScript({respond(503)});
        const std::string policy =
            R"({"healthyRetryPolicy":{"numRetries":50,"numNoDelayRetries":3,"numMinDelayRetries":2,"numMaxDelayRetries":35,)"
            R"("minDelayTarget":1,"maxDelayTarget":60,"backoffFunction":"exponential"}})";
        QVERIFY(bench.createTopic("orders"));
        Result<std::string> dlq = bench.createQueue("orders-dlq");
        QVERIFY(dlq);
        const std::string dlqArn = bench.identity().queueArn("orders-dlq");
        Result<SubscribeReceipt> subscription = bench.subscribe(
            "orders", endpoint.url(),
            {{"DeliveryPolicy", policy}, {"RedrivePolicy", R"({"deadLetterTargetArn":")" + dlqArn + R"("})"}});
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());
        Result<std::vector<std::string>> published = bench.publish("orders", "hello");
        QVERIFY(published);
        QVERIFY(bench.advance(3000s));

        const auto received = endpoint.received();
        QCOMPARE(received.size(), std::size_t(51));
        QCOMPARE(received.back().at, atSeconds(2205));
        const std::vector<AttemptRecord> log = bench.attempts(subscription->subscriptionArn);
        QCOMPARE(log.size(), std::size_t(51));
        QCOMPARE(log.back().attempt, std::int64_t(50));
        QCOMPARE(log.back().phase, std::string("postBackoff"));
        QCOMPARE(log.back().httpStatus.value_or(0), 503);
        QCOMPARE(log.back().outcome, std::string("retryable"));
        QCOMPARE(log.back().final.value_or(""), std::string("deadLettered"));
        const std::vector<std::string> bodies = bench.queueBodies("orders-dlq");
        QCOMPARE(bodies.size(), std::size_t(1));
        QCOMPARE(bench.deadLetterReasons("orders-dlq"), std::vector<std::string>{std::string(kDeliveryRetriesExhausted)});
        const nlohmann::json envelope = nlohmann::json::parse(bodies[0]);
        QCOMPARE(envelope.at("Type").get<std::string>(), std::string("Notification"));
        QCOMPARE(envelope.at("MessageId").get<std::string>(), published->front());
        QCOMPARE(envelope.at("Message").get<std::string>(), std::string("hello"));
        QCOMPARE(bench.pendingCount(), std::int64_t(0));

        // The API shape of the log (docs/behaviour.md §4.4).
        const nlohmann::json json = nlohmann::json::parse(attempt_log::writeAttemptsJson(log));
        const nlohmann::json &first = json.at("attempts").at(0);
        for (const char *key : {"messageId", "subscriptionArn", "attempt", "phase", "plannedAt", "startedAt",
                                "durationMs", "httpStatus", "outcome", "final"})
            QVERIFY2(first.contains(key), key);
        QCOMPARE(first.at("phase").get<std::string>(), std::string("initial"));
        QCOMPARE(first.at("plannedAt").get<std::string>(), formatIso8601(kDeliveryStart));
        QVERIFY(first.at("final").is_null());
        QCOMPARE(json.at("attempts").at(50).at("final").get<std::string>(), std::string("deadLettered"));
    }

    void status_classifiedPerDialect_data()
    {
        QTest::addColumn<QString>("dialect");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("outcome");
        QTest::newRow("sns-404-permanent") << "sns" << 404 << "permanent";
        QTest::newRow("sns-400-permanent") << "sns" << 400 << "permanent";
        QTest::newRow("sns-302-permanent") << "sns" << 302 << "permanent";
        QTest::newRow("sns-429-retryable") << "sns" << 429 << "retryable";
        QTest::newRow("sns-500-retryable") << "sns" << 500 << "retryable";
        QTest::newRow("sns-503-retryable") << "sns" << 503 << "retryable";
        QTest::newRow("sns-204-delivered") << "sns" << 204 << "delivered";
        QTest::newRow("zaqar-404-permanent") << "zaqar" << 404 << "permanent";
        QTest::newRow("zaqar-429-permanent") << "zaqar" << 429 << "permanent";
        QTest::newRow("zaqar-302-permanent") << "zaqar" << 302 << "permanent";
        QTest::newRow("zaqar-503-retryable") << "zaqar" << 503 << "retryable";
        QTest::newRow("zaqar-200-delivered") << "zaqar" << 200 << "delivered";
    }
    void status_classifiedPerDialect()
    {
        QFETCH(QString, dialect);
        QFETCH(int, status);
        QFETCH(QString, outcome);
        const std::string policy = dialect == "sns"
            ? R"({"healthyRetryPolicy":{"numRetries":2,"numNoDelayRetries":2,"minDelayTarget":1,"maxDelayTarget":1}})"
            : R"({"_retry_policy":{"retries_with_no_delay":2,"minimum_delay_retries":0,"minimum_delay":5,"maximum_delay":5,"maximum_delay_retries":0}})";
        const RetrySchedule schedule = scheduleOf(policy);
        DeliveryBench bench;
        QVERIFY(bench.open());
        ScriptEndpoint endpoint(&bench.engine().clock());
        endpoint.setScript({respond(status)});
        const std::string dlqArn = bench.identity().queueArn("dlq");
        QVERIFY(bench.createQueue("dlq"));
        QVERIFY(bench.createTopic("orders"));
        Result<SubscribeReceipt> subscription = bench.subscribe(
            "orders", endpoint.url(),
            {{"DeliveryPolicy", policy}, {"RedrivePolicy", R"({"deadLetterTargetArn":")" + dlqArn + R"("})"}});
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());
        QVERIFY(bench.publish("orders", "hello"));
        QVERIFY(bench.advance(60s));
        const std::vector<AttemptRecord> log = bench.attempts(subscription->subscriptionArn);
        const std::size_t expected = outcome == "retryable" ? std::size_t(schedule.attempts()) : 1;
        QCOMPARE(log.size(), expected);
        QCOMPARE(endpoint.count(), expected);
        QCOMPARE(QString::fromStdString(log.front().outcome), outcome);
        QCOMPARE(log.front().httpStatus.value_or(0), status);
        const std::string final = outcome == "delivered" ? "delivered" : "deadLettered";
        QCOMPARE(log.back().final.value_or(""), final);
        QCOMPARE(bench.queueBodies("dlq").size(), std::size_t(outcome == "delivered" ? 0 : 1));
        // A dead letter says why: the policy's retries ran out, or a permanent failure was never retried.
        const std::vector<std::string> reasons = bench.deadLetterReasons("dlq");
        if (outcome == "retryable")
            QCOMPARE(reasons, std::vector<std::string>{std::string(kDeliveryRetriesExhausted)});
        else if (outcome == "permanent")
            QCOMPARE(reasons, std::vector<std::string>{std::string(kDeliveryRefused)});
    }
};

RELAYDESK_TEST_MAIN(DeliveryScheduleTest)
#include "delivery_schedule_test.moc"
