// SPDX-License-Identifier: MIT
#include "effective_policy.h"

#include "policy_presets.h"
#include "policy_sections.h"

namespace relaydesk {

std::string_view policySourceName(PolicySource source)
{
    switch (source) {
    case PolicySource::Subscription: return "subscription";
    case PolicySource::Topic: return "topic";
    case PolicySource::Default: return "default";
    case PolicySource::Fixed: return "fixed";
    }
    return "";
}

EffectivePolicy resolveEffectivePolicy(EndpointProtocol protocol, const std::optional<DeliveryPolicy> &subscription,
                                       const std::optional<DeliveryPolicy> &topic)
{
    EffectivePolicy effective;
    effective.policy.form = PolicyForm::SnsSubscription;
    if (protocol == EndpointProtocol::Sqs) {
        effective.policy = findPolicyPreset("sns-aws-managed")->policy;
        effective.retrySource = effective.throttleSource = effective.requestSource = PolicySource::Fixed;
        return effective;
    }

    effective.overridesDisabled = topic && topic->disableSubscriptionOverrides;
    // Sections are taken in this order of preference.
    const DeliveryPolicy *first = effective.overridesDisabled ? &*topic : (subscription ? &*subscription : nullptr);
    const DeliveryPolicy *second = effective.overridesDisabled ? nullptr : (topic ? &*topic : nullptr);
    const PolicySource firstSource = effective.overridesDisabled ? PolicySource::Topic : PolicySource::Subscription;

    const auto pick = [&](auto has) -> std::pair<const DeliveryPolicy *, PolicySource> {
        if (first && has(*first))
            return {first, firstSource};
        if (second && has(*second))
            return {second, PolicySource::Topic};
        return {nullptr, PolicySource::Default};
    };

    const auto [retryFrom, retrySource] = pick([](const DeliveryPolicy &p) { return p.retry.has_value(); });
    effective.retrySource = retrySource;
    if (retryFrom) {
        effective.policy.retry = retryFrom->retry;
        effective.policy.dialect = retryFrom->dialect;
        effective.policy.managed = retryFrom->managed;
    } else {
        effective.policy.retry = RetryPolicy{};
    }

    const auto [throttleFrom, throttleSource] = pick(hasThrottlePolicy);
    effective.throttleSource = throttleSource;
    effective.policy.hasThrottleSection = true;
    if (throttleFrom)
        effective.policy.maxReceivesPerSecond = throttleFrom->maxReceivesPerSecond;

    const auto [requestFrom, requestSource] = pick(hasRequestPolicy);
    effective.requestSource = requestSource;
    effective.policy.hasRequestSection = true;
    effective.policy.headerContentType =
        requestFrom ? requestFrom->headerContentTypeOrDefault() : std::string(kDefaultHeaderContentType);
    return effective;
}

} // namespace relaydesk
