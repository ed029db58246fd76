// SPDX-License-Identifier: MIT
// Fuzz target of the Service Bus SQL filter grammar and its evaluation (a
// subscription rule's SqlExpression). The input is the expression. Checked
// for every input: no crash or sanitizer report (overflowing arithmetic
// included) and no runaway match; a refusal is InvalidParameterValue naming
// the position (1 to the length + 1) where the expression goes wrong, or the
// 1024-character limit; an accepted expression is accepted as a rule's too,
// matches fixed messages the same way every time, and never matches a
// message together with its NOT (which parses unless it nests too deep).
#include "broker/echoed_value.h"
#include "broker/servicebus/servicebus_rule.h"
#include "broker/servicebus/sql_filter_evaluator.h"
#include "broker/servicebus/sql_filter_parser.h"
#include "fuzz_check.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {

constexpr const char *kTarget = "sql_filter_fuzz";

std::vector<ServiceBusMessageFacts> messages()
{
    ServiceBusMessageFacts invoice;
    invoice.system = {{"MessageId", std::string("order-1")}, {"Label", std::string("invoice")},
                      {"ContentType", std::string("application/json")}, {"SessionId", std::string("s")},
                      {"CorrelationId", std::int64_t(42)}};
    invoice.application = {{"region", std::string("eu")},
                           {"quantity", std::int64_t(10)},
                           {"price", 12.5},
                           {"vip", true},
                           {"nothing", std::monostate{}},
                           {"big", std::numeric_limits<std::int64_t>::max()},
                           {"small", std::numeric_limits<std::int64_t>::min()},
                           {"long", std::string(300, 'a')}};
    ServiceBusMessageFacts other;
    other.application = {{"quantity", std::int64_t(-1)}, {"region", std::string()}, {"price", -0.0}};
    return {{}, invoice, other};
}

// A match, or nothing when the evaluation stopped at a bound (a value past 64 KiB).
std::optional<bool> matchOf(const SqlFilterNode &expression, const ServiceBusMessageFacts &message)
{
    const Result<bool> matched = sqlFilterMatches(expression, message);
    return matched ? std::optional<bool>(*matched) : std::nullopt;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    static const std::vector<ServiceBusMessageFacts> facts = messages();
    const std::string text(reinterpret_cast<const char *>(data), size);
    const Result<SqlFilterExpression> parsed = parseSqlFilter(text);
    if (!parsed) {
        const BrokerError &error = parsed.error();
        require(error.code == BrokerErrorCode::InvalidParameterValue, kTarget, "a refusal of another kind");
        if (text.size() > 1024)
            return 0;
        const std::string lead = "The SQL filter expression \"" + echoedValue(text) + "\" is not valid at position ";
        require(error.message.compare(0, lead.size(), lead) == 0, kTarget, "a refusal that names no position");
        std::size_t position = 0;
        const char *digits = error.message.data() + lead.size();
        const auto read = std::from_chars(digits, error.message.data() + error.message.size(), position);
        require(read.ec == std::errc() && read.ptr != digits, kTarget, "a refusal whose position is no number");
        require(position >= 1 && position <= text.size() + 1, kTarget, "a refusal's position outside the expression");
        return 0;
    }
    require(*parsed != nullptr, kTarget, "an accepted expression without a tree");
    for (const ServiceBusMessageFacts &message : facts)
        require(matchOf(**parsed, message) == matchOf(**parsed, message), kTarget, "matching is not pure");

    if (!text.empty()) {
        const Result<ServiceBusRule> rule = parseServiceBusRule(
            {{"Name", "fuzz"}, {"Properties", {{"FilterType", "Sql"}, {"SqlFilter", {{"SqlExpression", text}}}}}});
        require(rule.ok(), kTarget, "an accepted expression refused as a rule's");
    }
    const std::string negated = "NOT (" + text + "\n)";
    if (negated.size() <= 1024) {
        const Result<SqlFilterExpression> opposite = parseSqlFilter(negated);
        if (!opposite) {   // NOT ( … ) nests two levels deeper
            require(opposite.error().message.find("nest at most") != std::string::npos, kTarget,
                    "an accepted expression refused under NOT");
            return 0;
        }
        for (const ServiceBusMessageFacts &message : facts)
            require(!(matchOf(**parsed, message) == true && matchOf(**opposite, message) == true), kTarget,
                    "an expression and its NOT both match");
    }
    return 0;
}
