// SPDX-License-Identifier: MIT
// The pace of retries without a throttle (docs/behaviour.md §4.3,
// engine/delivery_throttle_gate.h): a policy of 100 immediate retries against
// an endpoint that always fails, five messages at once, on the virtual clock.
// First attempts pass at once; retries come at most kRetryPace per second
// after one second's burst, and none is dropped.
#include "support/delivery_fixture.h"

#include "engine/delivery_throttle_gate.h"
#include "support/script_endpoint.h"
#include "support/test_main.h"

#include <QTest>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

class DeliveryRetryPaceTest : public QObject {
    Q_OBJECT

private slots:
    void immediateRetries_pacedPerSubscription()
    {
        DeliveryBench bench;
        ScriptEndpoint endpoint(nullptr);
        QVERIFY(bench.open(kDeliveryStart, [&](BrokerEngine &engine) { endpoint.setClock(&engine.clock()); }));
        endpoint.setScript({respond(503)});
        QVERIFY(bench.createTopic("orders").ok());
        const Result<SubscribeReceipt> subscription = bench.subscribe(
            "orders", endpoint.url(),
            {{"DeliveryPolicy",
              R"({"healthyRetryPolicy":{"numRetries":100,"numNoDelayRetries":100,"minDelayTarget":1,"maxDelayTarget":1}})"}});
        QVERIFY2(subscription, subscription ? "" : subscription.error().message.c_str());
        QVERIFY(bench.publish("orders", "failing", 5));
        QVERIFY(bench.advance(60s));

        const auto received = endpoint.received();
        QCOMPARE(received.size(), std::size_t(5 * 101));   // every attempt made: none dropped
        constexpr std::size_t pace = DeliveryThrottleGate::kRetryPace;
        std::map<std::int64_t, std::size_t> perSecond;     // whole seconds since the publish
        std::size_t atPublish = 0;
        for (const ReceivedRequest &request : received) {
            atPublish += request.at == kDeliveryStart ? 1 : 0;
            ++perSecond[std::chrono::duration_cast<std::chrono::seconds>(request.at - kDeliveryStart).count()];
        }
        // At the publish: the five first attempts and one second's burst of retries.
        QCOMPARE(atPublish, 5 + pace);
        for (const auto &[second, count] : perSecond)
            QVERIFY2(count <= (second == 0 ? 5 + 2 * pace : pace),
                     qPrintable(QString("%1 attempts in second %2").arg(count).arg(second)));
        QCOMPARE(bench.pendingCount(), std::int64_t(0));
    }
};

RELAYDESK_TEST_MAIN(DeliveryRetryPaceTest)
#include "delivery_retry_pace_test.moc"
