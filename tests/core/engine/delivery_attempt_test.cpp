// SPDX-License-Identifier: MIT
// Tests of the end of one HTTP/S attempt (engine/delivery_attempt.h,
// reportAttempt): the result is classified by the dialect of the job's
// effective policy, as the table of docs/behaviour.md §4.2 says, and the next
// step follows from it — a retryable outcome with retries left schedules the
// next attempt, a permanent one ends the delivery at once, a 2xx ends it
// delivered. Every row of the table, both dialects, statuses at the edges of
// each range (1xx, 3xx, 429, 599, 600, 999), timeouts and connection errors.
#include "engine/delivery_attempt.h"

#include "policy/jitter_sampler.h"
#include "policy/retry_schedule.h"
#include "support/test_main.h"

#include <QTest>

#include <optional>

using namespace relaydesk;

namespace {

const ClockTime kNow = fromEpochMilliseconds(1'800'000'000'000);

// A job at its first attempt, two immediate retries left, under `dialect`.
DeliveryJob jobUnder(Dialect dialect)
{
    RetryPolicy retry;
    retry.numRetries = 2;
    retry.numNoDelayRetries = 2;
    retry.minDelayTarget = 1;
    retry.maxDelayTarget = 1;
    DeliveryJob job;
    job.kind = "Notification";
    job.endpoint = "http://127.0.0.1:1/hook";
    job.effective.policy.dialect = dialect;
    job.effective.policy.retry = retry;
    job.schedule = planSchedule(retry, dialect);
    return job;
}

HttpDeliveryResult answered(int status)
{
    HttpDeliveryResult result;
    result.httpStatus = status;
    return result;
}

HttpDeliveryResult failed(HttpDeliveryResult::Failure failure)
{
    HttpDeliveryResult result;
    result.failure = failure;
    return result;
}

} // namespace

Q_DECLARE_METATYPE(relaydesk::Dialect)
Q_DECLARE_METATYPE(relaydesk::HttpDeliveryResult)

class DeliveryAttemptTest final : public QObject {
    Q_OBJECT

private slots:
    void classifiedByTheDialect_data()
    {
        QTest::addColumn<Dialect>("dialect");
        QTest::addColumn<HttpDeliveryResult>("result");
        QTest::addColumn<QString>("outcome"); // the attempt log's outcome
        QTest::addColumn<bool>("retried");    // another attempt follows (retries are left)
        using Failure = HttpDeliveryResult::Failure;
        struct Row {
            const char *result;
            HttpDeliveryResult value;
            const char *sns;
            const char *zaqar;
        };
        const Row rows[] = {
            {"200", answered(200), "delivered", "delivered"},
            {"204", answered(204), "delivered", "delivered"},
            {"299", answered(299), "delivered", "delivered"},
            {"301 (redirects are not followed)", answered(301), "permanent", "permanent"},
            {"399", answered(399), "permanent", "permanent"},
            {"400", answered(400), "permanent", "permanent"},
            {"404", answered(404), "permanent", "permanent"},
            {"429", answered(429), "retryable", "permanent"},
            {"499", answered(499), "permanent", "permanent"},
            {"500", answered(500), "retryable", "retryable"},
            {"503", answered(503), "retryable", "retryable"},
            {"599", answered(599), "retryable", "retryable"},
            {"100 (outside 200-599)", answered(100), "permanent", "retryable"},
            {"199 (outside 200-599)", answered(199), "permanent", "retryable"},
            {"600 (outside 200-599)", answered(600), "permanent", "retryable"},
            {"999 (outside 200-599)", answered(999), "permanent", "retryable"},
            {"timeout", failed(Failure::Timeout), "timeout", "timeout"},
            {"connection error", failed(Failure::ConnectionError), "connectionError", "connectionError"},
        };
        for (const Row &row : rows) {
            for (const auto &[dialect, outcome] : {std::pair{Dialect::Sns, row.sns}, std::pair{Dialect::Zaqar, row.zaqar}}) {
                const QString name = QStringLiteral("%1, %2").arg(QLatin1String(dialectName(dialect).data()),
                                                                 QLatin1String(row.result));
                const QString expected = QLatin1String(outcome);
                const bool retried = expected != QLatin1String("delivered") && expected != QLatin1String("permanent");
                QTest::newRow(qPrintable(name)) << dialect << row.value << expected << retried;
            }
        }
    }
    void classifiedByTheDialect()
    {
        QFETCH(Dialect, dialect);
        QFETCH(HttpDeliveryResult, result);
        QFETCH(QString, outcome);
        QFETCH(bool, retried);
        JitterSampler jitter(0.0, 1);
        const AttemptReport report = reportAttempt(jobUnder(dialect), "{}", kNow, result, jitter, kNow);
        QCOMPARE(QString::fromLatin1(attemptOutcomeName(report.outcome).data()), outcome);
        QCOMPARE(report.httpStatus, result.httpStatus);
        QCOMPARE(!report.next.ends, retried);
        QCOMPARE(report.next.delivered, outcome == QLatin1String("delivered"));
        if (retried) {
            QCOMPARE(report.next.nextAttempt, std::int64_t(1));
            QCOMPARE(report.nextDue, kNow); // an immediate retry
        }
    }

    // With no retries left, a retryable outcome ends the delivery too.
    void lastAttempt_retryableEnds()
    {
        DeliveryJob job = jobUnder(Dialect::Zaqar);
        job.attempt = job.schedule.retries();
        JitterSampler jitter(0.0, 1);
        const AttemptReport report = reportAttempt(job, "{}", kNow, answered(600), jitter, kNow);
        QCOMPARE(report.outcome, AttemptOutcome::Retryable);
        QVERIFY(report.next.ends);
        QVERIFY(!report.next.delivered);
    }

    // A Zaqar subscriber gets what Zaqar's webhook posts (docs/behaviour.md §8.5): the
    // notification JSON as the body, Content-Type application/json, no SNS
    // headers, nothing signed; an SNS subscriber of the same job its envelope.
    void zaqarSubscriber_postsTheNotificationAsJson()
    {
        DeliveryJob job = jobUnder(Dialect::Zaqar);
        job.message = R"({"Message_Type":"Notification","body":{"a":1},"queue_name":"jobs","ttl":60})";
        job.messageId = "m-1";
        job.zaqar = true;
        bool signedAnything = false;
        const auto sign = [&](std::string envelope) {
            signedAnything = true;
            return envelope;
        };
        std::string sent;
        const HttpDeliveryRequest http = buildDeliveryPost(job, BrokerIdentity{}, sign, sent);
        QCOMPARE(http.body, job.message);
        QVERIFY(!signedAnything);
        bool json = false;
        for (const auto &[name, value] : http.headers) {
            QVERIFY2(name.rfind("x-amz-", 0) != 0, name.c_str());
            json = json || (name == "Content-Type" && value == "application/json");
        }
        QVERIFY(json);

        job.zaqar = false;
        const HttpDeliveryRequest sns = buildDeliveryPost(job, BrokerIdentity{}, nullptr, sent);
        QVERIFY(sns.body.find("\"Type\":\"Notification\"") != std::string::npos);
    }
};

RELAYDESK_TEST_MAIN(DeliveryAttemptTest)
#include "delivery_attempt_test.moc"
