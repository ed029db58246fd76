// SPDX-License-Identifier: MIT
// Fuzz target of the SNS filter-policy reader and matcher (a subscriber's
// FilterPolicy attribute). The input is the policy text. Checked for every
// input: no crash or sanitizer report; an error is SnsInvalidParameter with a
// reason; an accepted policy has at most 5 keys and 150 combinations and
// matches the same messages every time (matching is pure).
#include "broker/topics/filter_policy.h"
#include "fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <vector>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {

constexpr const char *kTarget = "filter_policy_fuzz";

std::vector<MessageAttributes> messages()
{
    const auto string = [](std::string value) { return MessageAttributeValue{"String", std::move(value), {}}; };
    const auto number = [](std::string value) { return MessageAttributeValue{"Number", std::move(value), {}}; };
    return {
        {},
        {{"store", string("example_corp")}, {"price", number("210.75")}},
        {{"event", string("order_placed")}, {"customer_interests", {"String.Array", R"(["soccer", 3, true, null])", {}}}},
        {{"a", string("")}, {"b", number("-1e3")}, {"c", MessageAttributeValue{"Binary", {}, "\x01\x02"}}},
    };
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const Result<FilterPolicy> policy = parseFilterPolicy(fuzz::text(data, size));
    if (!policy) {
        require(policy.error().code == BrokerErrorCode::SnsInvalidParameter, kTarget, "an error of another kind");
        require(!policy.error().message.empty(), kTarget, "an error without a reason");
        return 0;
    }
    require(policy->keys.size() <= 5, kTarget, "more than 5 keys accepted");
    std::size_t combinations = 1;
    for (const auto &[key, conditions] : policy->keys)
        combinations *= std::max<std::size_t>(conditions.size(), 1);
    require(combinations <= 150, kTarget, "more than 150 combinations accepted");
    for (const MessageAttributes &attributes : messages())
        require(policy->matches(attributes) == policy->matches(attributes), kTarget, "matching is not pure");
    return 0;
}
