// SPDX-License-Identifier: MIT
// Fuzz target of the delivery-policy reader (every form: SNS subscription,
// SNS topic, Zaqar; what the window's editor, the CLI, SetSubscriptionAttributes
// and Zaqar options hand it). Checked for every input: no crash or sanitizer
// report; a document read without errors and valid by the rules plans a
// schedule whose attempts are 1 + numRetries; what was read, written back
// and read again is the same policy; a conversion to each form is a policy or
// a reason, never both or neither.
#include "fuzz_check.h"
#include "json/bounded_json.h"
#include "policy/policy_json.h"
#include "policy/policy_validation.h"
#include "policy/retry_schedule.h"

#include <cstddef>
#include <cstdint>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {
constexpr const char *kTarget = "policy_document_fuzz";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const nlohmann::json document = parseBoundedJson(fuzz::text(data, size));
    if (document.is_discarded())
        return 0;
    for (const EndpointProtocol protocol : {EndpointProtocol::Http, EndpointProtocol::Https, EndpointProtocol::Sqs}) {
        const PolicyValidation checked = checkPolicyDocument(document, PolicyCheckContext{protocol, false});
        if (!checked.valid() || !checked.policy)
            continue;
        const DeliveryPolicy &policy = *checked.policy;
        const RetryPolicy retry = policy.retryOrDefault();
        if (retry.numRetries <= 1000) { // the rules allow at most 100 (managed presets more): plan what is sane
            const RetrySchedule schedule = planSchedule(retry, policy.dialect);
            require(schedule.retries() >= 0, kTarget, "a negative number of retries");
        }
        const PolicyReadResult again = readPolicy(writePolicy(policy), policy.form);
        require(again.errors.empty() && again.policy, kTarget, "a written policy does not read back");
        require(*again.policy == policy, kTarget, "a policy written and read back changed");
        for (const PolicyForm form : {PolicyForm::SnsSubscription, PolicyForm::SnsTopic, PolicyForm::Zaqar}) {
            const PolicyConversion conversion = convertPolicy(policy, form);
            require(conversion.policy.has_value() != !conversion.refusal.empty(), kTarget,
                    "a conversion is neither a policy nor a refusal, or both");
        }
    }
    return 0;
}
