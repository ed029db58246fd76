// SPDX-License-Identifier: MIT
// BrokerService with a DeliveryWorker attached (setDeliveryWorker): a new
// pending http subscription gets its SubscriptionConfirmation, confirming and
// publishing wake the worker so the notification goes out on the next
// advance, unsubscribing sends an UnsubscribeConfirmation, and a service
// without a worker queues no confirmation. Virtual clock, real database file, a real
// HTTP endpoint on loopback.
#include "engine/broker_service.h"

#include "broker/id_source.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/delivery_worker.h"
#include "support/delivery_service_bench.h"
#include "support/engine_test_support.h"

#include "support/script_endpoint.h"
#include "support/test_main.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <chrono>
#include <future>
#include <memory>

using namespace relaydesk;
using namespace relaydesk::testing;
using namespace std::chrono_literals;

namespace {
std::vector<std::string> typesOf(const std::vector<ReceivedRequest> &received)
{
    std::vector<std::string> types;
    for (const ReceivedRequest &request : received) {
        const auto found = request.headers.find("x-amz-sns-message-type");
        types.push_back(found == request.headers.end() ? std::string() : found->second);
    }
    return types;
}
} // namespace

class BrokerServiceDeliveryTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    int m_files = 0;

    std::string nextFile() { return "delivery" + std::to_string(++m_files) + ".db"; }

    static Result<SubscribeReceipt> subscribe(DeliveryServiceBench &bench, const std::string &endpoint)
    {
        return callAndWait<SubscribeReceipt>([&](auto reply) {
            bench.service().subscribe("orders", "http", endpoint, {}, false, nullptr, reply);
        });
    }

    static bool setUpTopic(DeliveryServiceBench &bench)
    {
        return callAndWait<std::string>([&](auto reply) { bench.service().createTopic("orders", {}, {}, nullptr, reply); })
            .ok();
    }

    static bool publish(DeliveryServiceBench &bench, const std::string &message)
    {
        PublishRequest request;
        request.message = message;
        return callAndWait<PublishReceipt>([&](auto reply) { bench.service().publish("orders", request, nullptr, reply); })
            .ok();
    }

private slots:
    void pendingHttpSubscription_confirmationSent_confirmThenPublishDelivers()
    {
        QVERIFY(m_dir.isValid());
        DeliveryServiceBench bench(m_dir, nextFile(), true);
        ScriptEndpoint &endpoint = bench.endpoint();
        QVERIFY(setUpTopic(bench));
        const Result<SubscribeReceipt> receipt = subscribe(bench, endpoint.url());
        QVERIFY(receipt);
        QVERIFY(receipt->pendingConfirmation);
        QVERIFY(bench.engine().advanceClockAndWait(0s));
        QCOMPARE(typesOf(endpoint.received()), std::vector<std::string>{"SubscriptionConfirmation"});
        const auto confirmation = nlohmann::json::parse(endpoint.received()[0].body);
        QCOMPARE(confirmation.value("Token", ""), receipt->confirmationToken);

        QVERIFY(publish(bench, "before confirmation"));   // no notification to a pending subscription
        QVERIFY(bench.engine().advanceClockAndWait(0s));
        QCOMPARE(endpoint.count(), std::size_t(1));

        const Result<std::string> confirmed = callAndWait<std::string>([&](auto reply) {
            bench.service().confirmSubscription("orders", receipt->confirmationToken, nullptr, reply);
        });
        QVERIFY(confirmed);
        QVERIFY(publish(bench, "after confirmation"));
        QVERIFY(bench.engine().advanceClockAndWait(0s));
        QCOMPARE(typesOf(endpoint.received()), (std::vector<std::string>{"SubscriptionConfirmation", "Notification"}));
        QCOMPARE(nlohmann::json::parse(endpoint.received()[1].body).value("Message", ""),
                 std::string("after confirmation"));
    }

    void unsubscribeHttp_sendsUnsubscribeConfirmation()
    {
        DeliveryServiceBench bench(m_dir, nextFile(), true);
        ScriptEndpoint &endpoint = bench.endpoint();
        QVERIFY(setUpTopic(bench));
        const Result<SubscribeReceipt> receipt = callAndWait<SubscribeReceipt>([&](auto reply) {
            bench.service().subscribe("orders", "http", endpoint.url(), {}, true, nullptr, reply);
        });
        QVERIFY(receipt);
        QVERIFY(!receipt->pendingConfirmation);
        QVERIFY(bench.engine().advanceClockAndWait(0s));
        QCOMPARE(endpoint.count(), std::size_t(0)); // auto-confirmed: no confirmation request
        QVERIFY(callAndWaitStatus([&](auto reply) { bench.service().unsubscribe(receipt->subscriptionArn, nullptr, reply); }));
        QTRY_COMPARE_WITH_TIMEOUT(endpoint.count(), std::size_t(1), kWaitMs);
        QCOMPARE(typesOf(endpoint.received()), std::vector<std::string>{"UnsubscribeConfirmation"});
        const auto body = nlohmann::json::parse(endpoint.received()[0].body);
        QCOMPARE(body.value("TopicArn", ""), BrokerIdentity{}.topicArn("orders"));
    }

    void withoutWorker_subscribeSendsNoConfirmation()
    {
        DeliveryServiceBench bench(m_dir, nextFile(), false);
        ScriptEndpoint &endpoint = bench.endpoint();
        QVERIFY(setUpTopic(bench));
        const Result<SubscribeReceipt> receipt = subscribe(bench, endpoint.url());
        QVERIFY(receipt);
        QVERIFY(receipt->pendingConfirmation);
        QVERIFY(bench.engine().advanceClockAndWait(60s));
        QCOMPARE(endpoint.count(), std::size_t(0));
    }
};

RELAYDESK_TEST_MAIN(BrokerServiceDeliveryTest)
#include "broker_service_delivery_test.moc"
