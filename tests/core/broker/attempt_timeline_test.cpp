// SPDX-License-Identifier: MIT
// Pure parts of the Deliveries page's engine side: a delivery's rows placed
// against the policy's plan (planned time, jitter, throttle waits, end, a
// schedule cut at kMaxPlannedAttempts, a gone subscription) and the CSV
// writer's RFC 4180 quoting.
#include "broker/deliveries/attempt_export.h"
#include "broker/deliveries/message_timeline.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;

namespace {

const ClockTime kStart = fromEpochMilliseconds(1'800'000'000'000);

ClockTime at(std::int64_t ms) { return kStart + std::chrono::milliseconds(ms); }

AttemptRecord row(std::int64_t attempt, std::int64_t startedMs, const char *outcome,
                  std::optional<std::string> final = std::nullopt)
{
    AttemptRecord record;
    record.messageId = "m";
    record.subscriptionArn = "arn:aws:sns:us-east-1:000000000000:t:s";
    record.attempt = attempt;
    record.phase = attempt == 0 ? "initial" : "immediate";
    record.plannedAt = at(startedMs);
    record.startedAt = at(startedMs);
    record.outcome = outcome;
    record.final = std::move(final);
    return record;
}

// 3 retries: 1 without delay, 1 at the minimum 10 s, 1 at the maximum 30 s.
RetrySchedule schedule()
{
    RetryPolicy policy;
    policy.numRetries = 3;
    policy.numNoDelayRetries = 1;
    policy.numMinDelayRetries = 1;
    policy.numMaxDelayRetries = 1;
    policy.minDelayTarget = 10;
    policy.maxDelayTarget = 30;
    return planSchedule(policy, Dialect::Sns);
}

} // namespace

class AttemptTimelineTest final : public QObject {
    Q_OBJECT

private slots:
    void placeAttempts_jitterThrottleWaitsAndEnd()
    {
        // Attempt 2 waited for its throttle from 10.0 s to 10.4 s; attempt 3 ran 250 ms late.
        const DeliveryTimeline delivery = message_timeline::placeAttempts(
            {row(0, 0, "retryable"), row(1, 0, "retryable"), row(2, 10000, "throttled-wait"),
             row(2, 10400, "retryable"), row(3, 40250, "delivered", "delivered")},
            schedule());
        QCOMPARE(delivery.end, std::string("delivered"));
        QCOMPARE(delivery.attempts.size(), std::size_t(5));
        const std::optional<ClockTime> planned[] = {at(0), at(0), std::nullopt, at(10000), at(40000)};
        const std::int64_t jitter[] = {0, 0, 0, 400, 250};
        const std::int64_t waits[] = {0, 0, 0, 400, 0};
        for (std::size_t i = 0; i < 5; ++i) {
            QCOMPARE(delivery.attempts[i].scheduledAt, planned[i]);
            QCOMPARE(delivery.attempts[i].jitterMs, jitter[i]);
            QCOMPARE(delivery.attempts[i].throttleWaitMs, waits[i]);
        }
        QCOMPARE(delivery.schedule.size(), std::size_t(4));
        const char *phases[] = {"initial", "immediate", "preBackoff", "postBackoff"};
        for (std::size_t i = 0; i < 4; ++i) {
            QCOMPARE(delivery.schedule[i].attempt, std::int64_t(i));
            QCOMPARE(delivery.schedule[i].phase, std::string(phases[i]));
        }
        QCOMPARE(delivery.schedule[3].at, at(40000));
        QVERIFY(!delivery.scheduleTruncated);
    }

    void placeAttempts_pendingWithoutSchedule()
    {
        const DeliveryTimeline delivery =
            message_timeline::placeAttempts({row(0, 0, "timeout"), row(1, 0, "retryable")}, std::nullopt);
        QCOMPARE(delivery.end, std::string("pending"));
        QVERIFY(delivery.schedule.empty());
        QCOMPARE(delivery.attempts[1].scheduledAt, std::optional<ClockTime>());
    }

    void placeAttempts_longScheduleIsCut()
    {
        RetryPolicy policy;
        policy.numRetries = 5000;
        policy.numNoDelayRetries = 0;
        policy.numMinDelayRetries = 5000;
        policy.minDelayTarget = 1;
        policy.maxDelayTarget = 1;
        const DeliveryTimeline delivery =
            message_timeline::placeAttempts({row(0, 0, "retryable")}, planSchedule(policy, Dialect::Sns));
        QCOMPARE(delivery.schedule.size(), std::size_t(message_timeline::kMaxPlannedAttempts));
        QVERIFY(delivery.scheduleTruncated);
        QCOMPARE(delivery.schedule.back().at, at((message_timeline::kMaxPlannedAttempts - 1) * 1000));
    }

    void writeCsv_quotesWhatNeedsIt()
    {
        AttemptRecord record = row(0, 0, "connectionError", "discarded");
        record.messageId = "a,b";
        record.subscriptionArn = "say \"hi\"";
        record.phase = "line\nbreak";
        record.errorKind = "connectionError";
        record.redelivery = 3;
        record.error = "mock endpoint a,b does not exist";
        const std::string csv = attempt_export::writeCsv({record});
        const std::string header = "messageId,subscriptionArn,attempt,phase,plannedAt,startedAt,durationMs,httpStatus,"
                                   "outcome,final,kind,errorKind,redelivery,error\r\n";
        QCOMPARE(csv.substr(0, header.size()), header);
        QCOMPARE(csv.substr(header.size()),
                 std::string("\"a,b\",\"say \"\"hi\"\"\",0,\"line\nbreak\",2027-01-15T08:00:00.000Z,"
                             "2027-01-15T08:00:00.000Z,0,,connectionError,discarded,notification,connectionError,3,"
                             "\"mock endpoint a,b does not exist\"\r\n"));
        QCOMPARE(attempt_export::writeCsv({}), header);
    }
};

RELAYDESK_TEST_MAIN(AttemptTimelineTest)
#include "attempt_timeline_test.moc"
