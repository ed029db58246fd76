// SPDX-License-Identifier: MIT
#include "policy_json.h"

#include "policy_sections.h"
#include "retry_schedule.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <utility>

namespace relaydesk {

using nlohmann::json;

namespace {

// Canonical retry field <-> Zaqar key (docs/behaviour.md §2.2).
constexpr std::array<std::pair<std::string_view, std::string_view>, 7> kZaqarKeys = {{
    {"numNoDelayRetries", "retries_with_no_delay"},
    {"numMinDelayRetries", "minimum_delay_retries"},
    {"minDelayTarget", "minimum_delay"},
    {"maxDelayTarget", "maximum_delay"},
    {"numMaxDelayRetries", "maximum_delay_retries"},
    {"backoffFunction", "retry_backoff_function"},
    {"disableSubscriptionOverrides", "ignore_subscription_override"},
}};

constexpr std::array<std::string_view, 7> kSnsRetryKeys = {"minDelayTarget",     "maxDelayTarget",
                                                           "numRetries",         "numNoDelayRetries",
                                                           "numMinDelayRetries", "numMaxDelayRetries",
                                                           "backoffFunction"};

std::string join(std::string_view prefix, std::string_view key)
{
    return prefix.empty() ? std::string(key) : std::string(prefix) + "." + std::string(key);
}

std::string describeJson(const json &value)
{
    switch (value.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return std::string("a boolean (") + (value.get<bool>() ? "true" : "false") + ")";
    case json::value_t::string: return "a string (" + value.dump() + ")";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_float: return "a fractional number (" + value.dump() + ")";
    default: return "the number " + value.dump();
    }
}

size_t editDistance(std::string_view a, std::string_view b)
{
    std::vector<size_t> row(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j)
        row[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t above = row[j];
            row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
            diagonal = above;
        }
    }
    return row[b.size()];
}

// Walks one JSON document, collecting every structural problem with its path.
class PolicyReader final {
public:
    PolicyReadResult &result;

    void error(const std::string &field, std::string message) { result.errors.push_back({field, std::move(message)}); }
    void warning(const std::string &field, std::string message) { result.warnings.push_back({field, std::move(message)}); }

    // Reports keys of `object` that are not in `allowed`.
    template<typename Keys>
    void rejectUnknownKeys(const json &object, const std::string &path, const Keys &allowed)
    {
        for (const auto &item : object.items()) {
            const std::string &key = item.key();
            if (std::find(allowed.begin(), allowed.end(), key) != allowed.end())
                continue;
            std::string_view nearest;
            size_t best = 3;
            std::string list;
            for (std::string_view candidate : allowed) {
                list += (list.empty() ? "" : ", ") + std::string(candidate);
                const size_t distance = editDistance(key, candidate);
                if (distance < best) {
                    best = distance;
                    nearest = candidate;
                }
            }
            if (!nearest.empty())
                error(join(path, key), "unknown key \"" + key + "\"; did you mean \"" + std::string(nearest) + "\"?");
            else
                error(join(path, key), "unknown key \"" + key + "\"; allowed here: " + list);
        }
    }

    // An object section, or nullptr when absent or null. Reports non-objects.
    const json *section(const json &parent, std::string_view key, const std::string &path)
    {
        const auto it = parent.find(std::string(key));
        if (it == parent.end() || it->is_null())
            return nullptr;
        if (!it->is_object()) {
            error(path, "must be a JSON object, got " + describeJson(*it));
            return nullptr;
        }
        return &*it;
    }

    // Reads an integer field into `out` when present and well-typed.
    bool readInt(const json &object, std::string_view key, const std::string &path, int &out)
    {
        const auto it = object.find(std::string(key));
        if (it == object.end())
            return false;
        const json &value = *it;
        if (value.is_number_unsigned()) {
            if (value.get<uint64_t>() > uint64_t(INT_MAX)) {
                error(path, "is too large: " + value.dump());
                return false;
            }
            out = int(value.get<uint64_t>());
            return true;
        }
        if (value.is_number_integer()) {
            const int64_t number = value.get<int64_t>();
            if (number < INT_MIN) {
                error(path, "is too small: " + value.dump());
                return false;
            }
            out = int(number);
            return true;
        }
        if (value.is_number_float()) {
            const double number = value.get<double>();
            if (std::isfinite(number) && std::floor(number) == number && std::fabs(number) <= INT_MAX) {
                out = int(number);
                return true;
            }
        }
        error(path, "must be a whole number, got " + describeJson(value));
        return false;
    }

    bool readBool(const json &object, std::string_view key, const std::string &path, bool &out)
    {
        const auto it = object.find(std::string(key));
        if (it == object.end())
            return false;
        if (!it->is_boolean()) {
            error(path, "must be true or false, got " + describeJson(*it));
            return false;
        }
        out = it->get<bool>();
        return true;
    }

    void readBackoff(const json &object, std::string_view key, const std::string &path, BackoffFunction &out)
    {
        const auto it = object.find(std::string(key));
        if (it == object.end())
            return;
        if (!it->is_string()) {
            error(path, "must be one of " + backoffFunctionNameList() + ", got " + describeJson(*it));
            return;
        }
        if (const auto function = parseBackoffFunction(it->get<std::string>()))
            out = *function;
        else
            error(path, "unknown backoff function \"" + it->get<std::string>() + "\"; valid: " + backoffFunctionNameList());
    }

    RetryPolicy readSnsRetry(const json &object, const std::string &path)
    {
        rejectUnknownKeys(object, path, kSnsRetryKeys);
        RetryPolicy retry;
        readInt(object, "minDelayTarget", join(path, "minDelayTarget"), retry.minDelayTarget);
        readInt(object, "maxDelayTarget", join(path, "maxDelayTarget"), retry.maxDelayTarget);
        readInt(object, "numRetries", join(path, "numRetries"), retry.numRetries);
        readInt(object, "numNoDelayRetries", join(path, "numNoDelayRetries"), retry.numNoDelayRetries);
        readInt(object, "numMinDelayRetries", join(path, "numMinDelayRetries"), retry.numMinDelayRetries);
        readInt(object, "numMaxDelayRetries", join(path, "numMaxDelayRetries"), retry.numMaxDelayRetries);
        readBackoff(object, "backoffFunction", join(path, "backoffFunction"), retry.backoffFunction);
        return retry;
    }

    void readThrottle(const json &parent, std::string_view key, const std::string &path, DeliveryPolicy &policy)
    {
        const json *object = section(parent, key, path);
        if (!object)
            return;
        policy.hasThrottleSection = true;
        rejectUnknownKeys(*object, path, std::array<std::string_view, 1>{"maxReceivesPerSecond"});
        int rate = 0;
        if (readInt(*object, "maxReceivesPerSecond", join(path, "maxReceivesPerSecond"), rate))
            policy.maxReceivesPerSecond = rate;
    }

    void readRequest(const json &parent, std::string_view key, const std::string &path, DeliveryPolicy &policy)
    {
        const json *object = section(parent, key, path);
        if (!object)
            return;
        policy.hasRequestSection = true;
        rejectUnknownKeys(*object, path, std::array<std::string_view, 1>{"headerContentType"});
        const auto it = object->find("headerContentType");
        if (it == object->end())
            return;
        if (it->is_string())
            policy.headerContentType = it->get<std::string>();
        else
            error(join(path, "headerContentType"), "must be a media type string, got " + describeJson(*it));
    }

    void readDeprecated(const json &parent, std::string_view key, const std::string &path, DeliveryPolicy &policy)
    {
        const auto it = parent.find(std::string(key));
        if (it == parent.end())
            return;
        if (key == "guaranteed") {
            if (!it->is_boolean() || it->get<bool>())
                error(path, "is deprecated and must be false, got " + describeJson(*it));
            else
                warning(path, "is deprecated and ignored");
            policy.hasGuaranteed = true;
            return;
        }
        if (!it->is_null())
            error(path, "is deprecated and must be null, got " + describeJson(*it));
        else
            warning(path, "is deprecated and ignored");
        policy.hasSicklyRetryPolicy = true;
    }

    DeliveryPolicy readSubscriptionForm(const json &document)
    {
        DeliveryPolicy policy;
        policy.form = PolicyForm::SnsSubscription;
        rejectUnknownKeys(document, "",
                          std::array<std::string_view, 5>{"healthyRetryPolicy", "throttlePolicy", "requestPolicy",
                                                          "sicklyRetryPolicy", "guaranteed"});
        if (const json *retry = section(document, "healthyRetryPolicy", "healthyRetryPolicy"))
            policy.retry = readSnsRetry(*retry, "healthyRetryPolicy");
        readThrottle(document, "throttlePolicy", "throttlePolicy", policy);
        readRequest(document, "requestPolicy", "requestPolicy", policy);
        readDeprecated(document, "sicklyRetryPolicy", "sicklyRetryPolicy", policy);
        readDeprecated(document, "guaranteed", "guaranteed", policy);
        return policy;
    }

    DeliveryPolicy readTopicForm(const json &document)
    {
        DeliveryPolicy policy;
        policy.form = PolicyForm::SnsTopic;
        rejectUnknownKeys(document, "", std::array<std::string_view, 1>{"http"});
        const json *http = section(document, "http", "http");
        if (!http)
            return policy;
        rejectUnknownKeys(*http, "http",
                          std::array<std::string_view, 5>{"defaultHealthyRetryPolicy", "disableSubscriptionOverrides",
                                                          "defaultThrottlePolicy", "defaultRequestPolicy",
                                                          "defaultSicklyRetryPolicy"});
        if (const json *retry = section(*http, "defaultHealthyRetryPolicy", "http.defaultHealthyRetryPolicy"))
            policy.retry = readSnsRetry(*retry, "http.defaultHealthyRetryPolicy");
        readBool(*http, "disableSubscriptionOverrides", "http.disableSubscriptionOverrides",
                 policy.disableSubscriptionOverrides);
        readThrottle(*http, "defaultThrottlePolicy", "http.defaultThrottlePolicy", policy);
        readRequest(*http, "defaultRequestPolicy", "http.defaultRequestPolicy", policy);
        readDeprecated(*http, "defaultSicklyRetryPolicy", "http.defaultSicklyRetryPolicy", policy);
        return policy;
    }

    DeliveryPolicy readZaqarForm(const json &document)
    {
        DeliveryPolicy policy;
        policy.form = PolicyForm::Zaqar;
        policy.dialect = Dialect::Zaqar;
        rejectUnknownKeys(document, "", std::array<std::string_view, 1>{"_retry_policy"});
        RetryPolicy retry = zaqarDefaultRetryPolicy();
        if (const json *object = section(document, "_retry_policy", "_retry_policy")) {
            std::array<std::string_view, 7> keys{};
            std::transform(kZaqarKeys.begin(), kZaqarKeys.end(), keys.begin(), [](const auto &p) { return p.second; });
            rejectUnknownKeys(*object, "_retry_policy", keys);
            const std::string p = "_retry_policy.";
            readInt(*object, "retries_with_no_delay", p + "retries_with_no_delay", retry.numNoDelayRetries);
            readInt(*object, "minimum_delay_retries", p + "minimum_delay_retries", retry.numMinDelayRetries);
            readInt(*object, "minimum_delay", p + "minimum_delay", retry.minDelayTarget);
            readInt(*object, "maximum_delay", p + "maximum_delay", retry.maxDelayTarget);
            readInt(*object, "maximum_delay_retries", p + "maximum_delay_retries", retry.numMaxDelayRetries);
            readBackoff(*object, "retry_backoff_function", p + "retry_backoff_function", retry.backoffFunction);
            readBool(*object, "ignore_subscription_override", p + "ignore_subscription_override",
                     policy.disableSubscriptionOverrides);
        }
        const int backoff = retry.maxDelayTarget >= retry.minDelayTarget
                                ? zaqarBackoffRetries(retry.minDelayTarget, retry.maxDelayTarget)
                                : 0;
        // Summed without overflow: counts of up to 2^31 - 1 each are read, and
        // validatePolicy refuses a total over 100.
        const std::int64_t total = std::int64_t(retry.numNoDelayRetries) + retry.numMinDelayRetries +
                                   retry.numMaxDelayRetries + backoff;
        retry.numRetries = int(std::min<std::int64_t>(total, INT_MAX));
        policy.retry = retry;
        return policy;
    }
};

json writeSnsRetry(const RetryPolicy &retry)
{
    return json{{"minDelayTarget", retry.minDelayTarget},
                {"maxDelayTarget", retry.maxDelayTarget},
                {"numRetries", retry.numRetries},
                {"numNoDelayRetries", retry.numNoDelayRetries},
                {"numMinDelayRetries", retry.numMinDelayRetries},
                {"numMaxDelayRetries", retry.numMaxDelayRetries},
                {"backoffFunction", std::string(backoffFunctionName(retry.backoffFunction))}};
}

json writeThrottle(const DeliveryPolicy &policy)
{
    json throttle = json::object();
    if (policy.maxReceivesPerSecond)
        throttle["maxReceivesPerSecond"] = *policy.maxReceivesPerSecond;
    return throttle;
}

json writeRequest(const DeliveryPolicy &policy)
{
    json request = json::object();
    if (policy.headerContentType)
        request["headerContentType"] = *policy.headerContentType;
    return request;
}

bool sameSchedule(const RetrySchedule &a, const RetrySchedule &b)
{
    for (RetryPhase phase : kRetryPhases) {
        const SchedulePhase &x = a.phase(phase);
        const SchedulePhase &y = b.phase(phase);
        if (x.retries != y.retries || x.delays != y.delays || (x.retries > 0 && x.delaySeconds != y.delaySeconds))
            return false;
    }
    return true;
}

std::string delayList(const std::vector<int> &delays)
{
    std::string text;
    for (int delay : delays)
        text += (text.empty() ? "" : " ") + std::to_string(delay);
    return text.empty() ? "none" : text;
}

constexpr std::string_view kClassificationNote =
    "the two dialects classify failures differently (docs/behaviour.md §4.2): in the Zaqar dialect a 429 ends the delivery "
    "and a status outside 200-599 is retried";

} // namespace

PolicyForm detectPolicyForm(const json &document)
{
    if (document.is_object()) {
        if (document.contains("_retry_policy"))
            return PolicyForm::Zaqar;
        if (document.contains("http"))
            return PolicyForm::SnsTopic;
    }
    return PolicyForm::SnsSubscription;
}

PolicyReadResult readPolicy(const json &document, std::optional<PolicyForm> form)
{
    PolicyReadResult result;
    result.form = form.value_or(detectPolicyForm(document));
    if (!document.is_object()) {
        result.errors.push_back({"", "a delivery policy must be a JSON object, got " + describeJson(document)});
        return result;
    }
    PolicyReader reader{result};
    switch (result.form) {
    case PolicyForm::SnsSubscription: result.policy = reader.readSubscriptionForm(document); break;
    case PolicyForm::SnsTopic: result.policy = reader.readTopicForm(document); break;
    case PolicyForm::Zaqar: result.policy = reader.readZaqarForm(document); break;
    }
    return result;
}

json writePolicy(const DeliveryPolicy &policy)
{
    switch (policy.form) {
    case PolicyForm::SnsSubscription: {
        json document = json::object();
        if (policy.retry)
            document["healthyRetryPolicy"] = writeSnsRetry(*policy.retry);
        if (hasThrottlePolicy(policy))
            document["throttlePolicy"] = writeThrottle(policy);
        if (hasRequestPolicy(policy))
            document["requestPolicy"] = writeRequest(policy);
        if (policy.hasSicklyRetryPolicy)
            document["sicklyRetryPolicy"] = nullptr;
        if (policy.hasGuaranteed)
            document["guaranteed"] = false;
        return document;
    }
    case PolicyForm::SnsTopic: {
        json http = json::object();
        if (policy.retry)
            http["defaultHealthyRetryPolicy"] = writeSnsRetry(*policy.retry);
        http["disableSubscriptionOverrides"] = policy.disableSubscriptionOverrides;
        if (hasThrottlePolicy(policy))
            http["defaultThrottlePolicy"] = writeThrottle(policy);
        if (hasRequestPolicy(policy))
            http["defaultRequestPolicy"] = writeRequest(policy);
        if (policy.hasSicklyRetryPolicy)
            http["defaultSicklyRetryPolicy"] = nullptr;
        return json{{"http", http}};
    }
    case PolicyForm::Zaqar: {
        const RetryPolicy retry = policy.retry.value_or(zaqarDefaultRetryPolicy());
        return json{{"_retry_policy",
                     {{"retries_with_no_delay", retry.numNoDelayRetries},
                      {"minimum_delay_retries", retry.numMinDelayRetries},
                      {"minimum_delay", retry.minDelayTarget},
                      {"maximum_delay", retry.maxDelayTarget},
                      {"maximum_delay_retries", retry.numMaxDelayRetries},
                      {"retry_backoff_function", std::string(backoffFunctionName(retry.backoffFunction))},
                      {"ignore_subscription_override", policy.disableSubscriptionOverrides}}}};
    }
    }
    return json::object();
}

std::string policyFieldPath(PolicyForm form, const std::string &canonicalField)
{
    const bool throttleField = canonicalField == "maxReceivesPerSecond";
    const bool requestField = canonicalField == "headerContentType";
    switch (form) {
    case PolicyForm::SnsSubscription:
        if (canonicalField == "healthyRetryPolicy")
            return canonicalField;
        if (throttleField)
            return "throttlePolicy." + canonicalField;
        if (requestField)
            return "requestPolicy." + canonicalField;
        if (canonicalField == "disableSubscriptionOverrides")
            return canonicalField;
        return "healthyRetryPolicy." + canonicalField;
    case PolicyForm::SnsTopic:
        if (canonicalField == "healthyRetryPolicy")
            return "http.defaultHealthyRetryPolicy";
        if (throttleField)
            return "http.defaultThrottlePolicy." + canonicalField;
        if (requestField)
            return "http.defaultRequestPolicy." + canonicalField;
        if (canonicalField == "disableSubscriptionOverrides")
            return "http." + canonicalField;
        return "http.defaultHealthyRetryPolicy." + canonicalField;
    case PolicyForm::Zaqar:
        for (const auto &[canonical, zaqar] : kZaqarKeys) {
            if (canonical == canonicalField)
                return "_retry_policy." + std::string(zaqar);
        }
        return "_retry_policy";
    }
    return canonicalField;
}

PolicyConversion convertPolicy(const DeliveryPolicy &policy, PolicyForm target)
{
    PolicyConversion conversion;
    DeliveryPolicy converted = policy;
    converted.form = target;
    if (policy.form == target) {
        conversion.policy = converted;
        return conversion;
    }
    if (target == PolicyForm::SnsSubscription && policy.disableSubscriptionOverrides) {
        conversion.refusal = "the subscription form cannot say disableSubscriptionOverrides; converting would drop "
                             "the topic's lock on subscription policies";
        return conversion;
    }
    if (target == PolicyForm::Zaqar && hasThrottlePolicy(policy)) {
        conversion.refusal = "the Zaqar form has no throttle policy (maxReceivesPerSecond)";
        return conversion;
    }
    if (target == PolicyForm::Zaqar && hasRequestPolicy(policy)) {
        conversion.refusal = "the Zaqar form has no request policy (headerContentType)";
        return conversion;
    }
    if (target == PolicyForm::SnsTopic)
        converted.hasGuaranteed = false; // the topic form has no such key; it was ignored anyway
    if (target == PolicyForm::Zaqar)
        converted.hasSicklyRetryPolicy = converted.hasGuaranteed = false;

    const Dialect targetDialect = target == PolicyForm::Zaqar ? Dialect::Zaqar : Dialect::Sns;
    if (targetDialect != policy.dialect) {
        RetryPolicy retry = policy.dialect == Dialect::Zaqar ? policy.retry.value_or(zaqarDefaultRetryPolicy())
                                                             : policy.retryOrDefault();
        if (targetDialect == Dialect::Zaqar && retry.minDelayTarget <= retry.maxDelayTarget)
            retry.numRetries = retry.numNoDelayRetries + retry.numMinDelayRetries + retry.numMaxDelayRetries +
                               zaqarBackoffRetries(retry.minDelayTarget, retry.maxDelayTarget);
        const RetrySchedule before = planSchedule(policy.dialect == Dialect::Zaqar ? retry : policy.retryOrDefault(),
                                                  policy.dialect);
        const RetrySchedule after = planSchedule(retry, targetDialect);
        if (!sameSchedule(before, after)) {
            conversion.refusal = "the schedule would change: the backoff phase is " +
                                 delayList(before.phase(RetryPhase::Backoff).delays) + " s in the " +
                                 std::string(dialectName(policy.dialect)) + " dialect but would be " +
                                 delayList(after.phase(RetryPhase::Backoff).delays) + " s in the " +
                                 std::string(dialectName(targetDialect)) +
                                 " dialect (Zaqar steps the backoff by 5 s from minimum_delay to maximum_delay)";
            return conversion;
        }
        converted.retry = retry;
        converted.dialect = targetDialect;
        conversion.note = std::string(kClassificationNote);
    }
    conversion.policy = converted;
    return conversion;
}

} // namespace relaydesk
