// SPDX-License-Identifier: MIT
#include "views/policy_trial.h"

#include "engine/broker_service.h"
#include "net/broker_host.h"
#include "net/mock_endpoints.h"
#include "policy/policy_json.h"

#include <nlohmann/json.hpp>

namespace relaydesk {

namespace {

QString text(const std::string &value) { return QString::fromStdString(value); }

} // namespace

PolicyTrial::PolicyTrial(BrokerHost &host, QObject *parent)
    : QObject(parent), m_host(host)
{
}

QString PolicyTrial::subscriptionPolicy(const QString &policyJson, QString *error)
{
    const nlohmann::json document = nlohmann::json::parse(policyJson.toStdString(), nullptr, false);
    const PolicyReadResult read = document.is_discarded() ? PolicyReadResult{} : readPolicy(document);
    if (document.is_discarded() || !read.policy || !read.errors.empty()) {
        *error = tr("The policy does not read as a delivery policy; fix it in the editor first.");
        return {};
    }
    if (read.policy->form == PolicyForm::SnsSubscription)
        return text(writePolicy(*read.policy).dump());
    const PolicyConversion converted = convertPolicy(*read.policy, PolicyForm::SnsSubscription);
    if (!converted.policy) {
        *error = tr("The policy cannot be a subscription's: %1").arg(text(converted.refusal));
        return {};
    }
    return text(writePolicy(*converted.policy).dump());
}

void PolicyTrial::start(const PolicyTrialPlan &plan)
{
    QString error;
    const QString policy = subscriptionPolicy(plan.policyJson, &error);
    if (policy.isEmpty())
        return emit failed(error);
    if (Status set = m_host.mocks().set(plan.mockName.toStdString(), plan.script.toStdString()); !set)
        return emit failed(text(set.error().message));
    m_host.service().createTopic(plan.topicName.toStdString(), {}, {}, this,
                                 [this, plan, policy = policy.toStdString()](Result<std::string> topic) {
                                     if (!topic)
                                         return emit failed(text(topic.error().message));
                                     subscribe(plan, policy);
                                 });
}

void PolicyTrial::subscribe(const PolicyTrialPlan &plan, const std::string &policy)
{
    const std::string url = m_host.endpointUrl().toStdString() + MockEndpoints::pathOf(plan.mockName.toStdString());
    m_host.service().subscribe(
        plan.topicName.toStdString(), "http", url, {}, true, this,
        [this, plan, policy](Result<SubscribeReceipt> receipt) {
            if (!receipt)
                return emit failed(text(receipt.error().message));
            const QString arn = text(receipt->subscriptionArn);
            // Set after subscribing, so a subscription kept from an earlier trial takes the new policy too.
            m_host.service().setSubscriptionAttribute(receipt->subscriptionArn, "DeliveryPolicy", policy, this,
                                                      [this, plan, arn](Result<void> set) {
                                                          if (!set)
                                                              return emit failed(text(set.error().message));
                                                          publish(plan, arn);
                                                      });
        });
}

void PolicyTrial::publish(const PolicyTrialPlan &plan, const QString &subscriptionArn)
{
    PublishRequest request;
    request.message = plan.message.toStdString();
    m_host.service().publish(plan.topicName.toStdString(), request, this,
                             [this, subscriptionArn](Result<PublishReceipt> published) {
                                 if (!published)
                                     return emit failed(text(published.error().message));
                                 emit finished(subscriptionArn);
                             });
}

} // namespace relaydesk
