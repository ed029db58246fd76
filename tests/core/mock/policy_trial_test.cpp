// SPDX-License-Identifier: MIT
// "Try a policy" (policy_trial::start) on a real engine under the virtual
// clock: a subscription-form policy against a mock scripted "503 x 3, then
// 200" logs the four planned attempts on a fresh trial subscription; a
// second trial (topic form) starts afresh — a new subscription, the mock's
// script and record reset; an invalid policy is refused.
#include "mock/policy_trial.h"

#include "broker/broker_identity.h"
#include "mock/mock_endpoints.h"

#include "support/call_and_wait.h"
#include "support/delivery_service_bench.h"
#include "support/mock_host_server.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {

// initial, 1 immediate retry, 1 after 5 s, 1 after 20 s more.
constexpr const char *kSubscriptionPolicy =
    R"({"healthyRetryPolicy":{"numRetries":3,"numNoDelayRetries":1,"numMinDelayRetries":1,"numMaxDelayRetries":1,)"
    R"("minDelayTarget":5,"maxDelayTarget":20,"backoffFunction":"linear"}})";
constexpr const char *kTopicPolicy =
    R"({"http":{"defaultHealthyRetryPolicy":{"numRetries":1,"numNoDelayRetries":1,"minDelayTarget":1,)"
    R"("maxDelayTarget":1}}})";

} // namespace

class PolicyTrialTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    static Result<PolicyTrial> trial(DeliveryServiceBench &bench, MockEndpoints &mocks, const std::string &endpoint,
                                     const std::string &policy, const std::string &script)
    {
        BrokerIdentity identity;
        identity.endpoint = endpoint;
        PolicyTrialRequest request;
        request.deliveryPolicy = policy;
        request.script = script;
        return callAndWait<PolicyTrial>([&](auto reply) {
            policy_trial::start(bench.service(), mocks, identity, request, nullptr, reply);
        });
    }

    static std::vector<AttemptRecord> attempts(DeliveryServiceBench &bench, const std::string &subscriptionArn)
    {
        AttemptQuery query;
        query.subscriptionArn = subscriptionArn;
        Result<AttemptPage> page =
            callAndWait<AttemptPage>([&](auto reply) { bench.service().queryAttempts(query, nullptr, reply); });
        return page ? page->rows : std::vector<AttemptRecord>{};
    }

private slots:
    void trials_playThePolicyAgainstTheScript_eachAfresh()
    {
        QVERIFY(m_dir.isValid());
        DeliveryServiceBench bench(m_dir, "trial.db", true);
        MockEndpoints mocks(bench.engine().clock());
        // The mocks are served on a thread of their own, so the worker's
        // requests are answered while this thread waits for an advance.
        MockHostThread server(mocks);
        QVERIFY(server.port() != 0);
        const std::string endpoint = "http://127.0.0.1:" + std::to_string(server.port());

        const Result<PolicyTrial> first = trial(bench, mocks, endpoint, kSubscriptionPolicy, "503 x 3, then 200");
        QVERIFY2(first, first ? "" : first.error().message.c_str());
        QCOMPARE(first->mockUrl, endpoint + "/_mock/policy-trial");
        QVERIFY(bench.engine().advanceClockAndWait(0s));
        QVERIFY(bench.engine().advanceClockAndWait(60s));
        std::vector<AttemptRecord> rows = attempts(bench, first->subscriptionArn);
        QCOMPARE(rows.size(), std::size_t(4));
        QCOMPARE(rows.back().final, std::optional<std::string>("delivered"));
        QCOMPARE(rows.back().messageId, first->messageId);
        QCOMPARE(rows[2].phase, std::string("preBackoff"));
        QCOMPARE(mocks.received("policy-trial")->size(), std::size_t(4));

        const Result<PolicyTrial> second = trial(bench, mocks, endpoint, kTopicPolicy, "503, then 200");
        QVERIFY2(second, second ? "" : second.error().message.c_str());
        QVERIFY(second->subscriptionArn != first->subscriptionArn);
        QVERIFY(bench.engine().advanceClockAndWait(0s));
        rows = attempts(bench, second->subscriptionArn);
        QCOMPARE(rows.size(), std::size_t(2));
        QCOMPARE(rows[1].phase, std::string("immediate"));
        QCOMPARE(rows[1].final, std::optional<std::string>("delivered"));
        QCOMPARE(mocks.received("policy-trial")->size(), std::size_t(2));

        const Result<PolicyTrial> refused =
            trial(bench, mocks, endpoint, R"({"healthyRetryPolicy":{"numRetries":-1}})", "200");
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, BrokerErrorCode::SnsInvalidParameter);
    }
};

RELAYDESK_TEST_MAIN(PolicyTrialTest)
#include "policy_trial_test.moc"
