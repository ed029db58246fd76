// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <functional>
#include <string>

class QObject;

namespace relaydesk {

class BrokerService;
class MockEndpoints;
struct BrokerIdentity;

// What "Try a policy" asks for: a delivery policy as the policy
// editor has it — subscription form {"healthyRetryPolicy": …} or topic form
// {"http": {"defaultHealthyRetryPolicy": …}} — played against a mock
// endpoint scripted `script`.
struct PolicyTrialRequest {
    std::string deliveryPolicy;
    std::string script = "503 x 7, then 200";
    std::string message = "Relaydesk policy trial";
};

// What a trial set up: the trial topic, the subscription whose Deliveries
// page shows it, the message published, and the mock (name and URL).
struct PolicyTrial {
    std::string topicArn;
    std::string subscriptionArn;
    std::string messageId;
    std::string mockName;
    std::string mockUrl;
};

// "Try a policy": plays a delivery policy against a scripted mock endpoint
// in seconds, on a topic of its own so no user topic or subscriber sees the
// test message. Each trial starts afresh: deletes the topic kTopicName (its
// earlier trial subscription and pending retries go with it), sets the mock
// kMockName to `script` (created or replaced, nothing recorded), creates the
// topic again (with the policy when it is in topic form), subscribes the
// mock's URL over http, confirmed at once (with the policy when it is in
// subscription form), and publishes `message`. The first attempt is due at
// once; the delivery worker does the rest. Errors: the first failing step's
// (an invalid policy is SnsInvalidParameter from the subscribe or the
// topic; a bad script InvalidParameterValue), the steps before it stay done.
//
// Borrows the service and the mocks (both must outlive the reply); the
// reply is posted to `context`'s thread (null: the broker thread). Any thread.
namespace policy_trial {

inline constexpr const char *kTopicName = "relaydesk-policy-trial";
inline constexpr const char *kMockName = "policy-trial";

void start(BrokerService &service, MockEndpoints &mocks, const BrokerIdentity &identity, PolicyTrialRequest request,
           QObject *context, std::function<void(Result<PolicyTrial>)> reply);

} // namespace policy_trial

} // namespace relaydesk
