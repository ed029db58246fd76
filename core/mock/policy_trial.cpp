// SPDX-License-Identifier: MIT
#include "mock/policy_trial.h"

#include "broker/broker_identity.h"
#include "engine/broker_service.h"
#include "mock/mock_endpoints.h"
#include "json/bounded_json.h"

#include <QPointer>

#include <memory>

namespace relaydesk::policy_trial {

namespace {

// A policy in topic form has a protocol key; the subscription form has not.
bool isTopicForm(const std::string &policy)
{
    const nlohmann::json document = parseBoundedJson(policy);
    return document.is_object() && (document.contains("http") || document.contains("https"));
}

// The steps of one trial, chained through the service's replies.
struct Trial {
    BrokerService &service;
    PolicyTrialRequest request;
    PolicyTrial trial;
    bool topicForm = false;
    QPointer<QObject> context;
    bool hasContext = false;
    std::function<void(Result<PolicyTrial>)> reply;

    QObject *target() const { return hasContext ? context.data() : nullptr; }
};

void fail(const std::shared_ptr<Trial> &trial, BrokerError error) { trial->reply(std::move(error)); }

void publish(const std::shared_ptr<Trial> &trial)
{
    PublishRequest message;
    message.message = trial->request.message;
    trial->service.publish(kTopicName, message, trial->target(), [trial](Result<PublishReceipt> published) {
        if (!published)
            return fail(trial, published.error());
        trial->trial.messageId = published->messageId;
        trial->reply(trial->trial);
    });
}

void subscribe(const std::shared_ptr<Trial> &trial)
{
    AttributeMap attributes;
    if (!trial->topicForm)
        attributes["DeliveryPolicy"] = trial->request.deliveryPolicy;
    trial->service.subscribe(kTopicName, "http", trial->trial.mockUrl, attributes, true, trial->target(),
                             [trial](Result<SubscribeReceipt> subscribed) {
                                 if (!subscribed)
                                     return fail(trial, subscribed.error());
                                 trial->trial.subscriptionArn = subscribed->subscriptionArn;
                                 publish(trial);
                             });
}

void createTopic(const std::shared_ptr<Trial> &trial)
{
    AttributeMap attributes;
    if (trial->topicForm)
        attributes["DeliveryPolicy"] = trial->request.deliveryPolicy;
    trial->service.createTopic(kTopicName, attributes, {}, trial->target(), [trial](Result<std::string> created) {
        if (!created)
            return fail(trial, created.error());
        trial->trial.topicArn = *created;
        subscribe(trial);
    });
}

} // namespace

void start(BrokerService &service, MockEndpoints &mocks, const BrokerIdentity &identity, PolicyTrialRequest request,
           QObject *context, std::function<void(Result<PolicyTrial>)> reply)
{
    auto trial = std::make_shared<Trial>(Trial{service, std::move(request), {}, false, context, context != nullptr,
                                               std::move(reply)});
    trial->topicForm = isTopicForm(trial->request.deliveryPolicy);
    trial->trial.mockName = kMockName;
    trial->trial.mockUrl = identity.endpoint + MockEndpoints::pathOf(kMockName);
    service.deleteTopic(kTopicName, trial->target(), [trial, &mocks](Status deleted) {
        if (!deleted)
            return fail(trial, deleted.error());
        // After the old trial's subscription is gone, so none of its retries
        // takes a step of the new script.
        if (Status set = mocks.set(kMockName, trial->request.script); !set)
            return fail(trial, set.error());
        createTopic(trial);
    });
}

} // namespace relaydesk::policy_trial
