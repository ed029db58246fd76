// SPDX-License-Identifier: MIT
#include "policy_validation.h"

#include "policy_json.h"
#include "retry_schedule.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

namespace relaydesk {

namespace {

constexpr int kMaxCustomRetries = 100;
constexpr int kMaxDelayTarget = 3600;
constexpr int64_t kHttpDelayCapSeconds = 3600;

std::string lowerTrimmed(std::string_view text)
{
    std::string out;
    for (char c : text)
        out += char(std::tolower(static_cast<unsigned char>(c)));
    const auto first = out.find_first_not_of(" \t");
    const auto last = out.find_last_not_of(" \t");
    return first == std::string::npos ? std::string() : out.substr(first, last - first + 1);
}

// docs/behaviour.md §4.3: without raw delivery (or at topic level) only application/json and
// text/plain, each optionally with a charset; with raw delivery also text/*,
// XML, octet-stream, form data and +json/+xml types.
bool contentTypeAllowed(std::string_view value, bool rawDelivery)
{
    const std::string text = lowerTrimmed(value);
    const auto semicolon = text.find(';');
    const std::string mediaType = lowerTrimmed(text.substr(0, semicolon));
    if (semicolon != std::string::npos) {
        const std::string parameter = lowerTrimmed(text.substr(semicolon + 1));
        if (parameter.rfind("charset=", 0) != 0 || parameter.size() == 8 || parameter.find(';') != std::string::npos)
            return false;
    }
    if (mediaType == "application/json" || mediaType == "text/plain")
        return true;
    if (!rawDelivery)
        return false;
    const auto slash = mediaType.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == mediaType.size())
        return false;
    const std::string type = mediaType.substr(0, slash);
    const std::string subtype = mediaType.substr(slash + 1);
    const auto endsWith = [&](std::string_view suffix) {
        return subtype.size() > suffix.size() && subtype.compare(subtype.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    return type == "text" || mediaType == "application/xml" || mediaType == "application/octet-stream" ||
           mediaType == "application/x-www-form-urlencoded" || (type == "application" && (endsWith("+json") || endsWith("+xml")));
}

} // namespace

std::string_view endpointProtocolName(EndpointProtocol protocol)
{
    switch (protocol) {
    case EndpointProtocol::Http: return "http";
    case EndpointProtocol::Https: return "https";
    case EndpointProtocol::Sqs: return "sqs";
    }
    return "";
}

bool parseEndpointProtocol(std::string_view name, EndpointProtocol &out)
{
    for (EndpointProtocol protocol : {EndpointProtocol::Http, EndpointProtocol::Https, EndpointProtocol::Sqs}) {
        if (endpointProtocolName(protocol) == name) {
            out = protocol;
            return true;
        }
    }
    return false;
}

PolicyIssues validatePolicy(const DeliveryPolicy &policy, const PolicyCheckContext &context)
{
    PolicyIssues issues;
    const auto path = [&](const std::string &field) { return policyFieldPath(policy.form, field); };
    const auto fail = [&](const std::string &field, std::string message) {
        issues.push_back({path(field), std::move(message)});
    };

    if (policy.retry) {
        const RetryPolicy &r = *policy.retry;
        const std::pair<const char *, int> counts[] = {{"numRetries", r.numRetries},
                                                       {"numNoDelayRetries", r.numNoDelayRetries},
                                                       {"numMinDelayRetries", r.numMinDelayRetries},
                                                       {"numMaxDelayRetries", r.numMaxDelayRetries}};
        for (const auto &[field, value] : counts) {
            if (policy.dialect == Dialect::Zaqar && std::string_view(field) == "numRetries")
                continue; // derived in the Zaqar dialect, not a field
            if (value < 0)
                fail(field, "must be 0 or more, got " + std::to_string(value));
        }
        if (policy.dialect == Dialect::Sns && !policy.managed && r.numRetries > kMaxCustomRetries)
            fail("numRetries", "must be at most " + std::to_string(kMaxCustomRetries) +
                                   " for a custom policy, got " + std::to_string(r.numRetries));
        // Zaqar bounds no count; Relaydesk holds its retries to SNS's 100 (docs/behaviour.md §3.3).
        const bool zaqarTooMany = policy.dialect == Dialect::Zaqar && r.numRetries > kMaxCustomRetries;
        if (zaqarTooMany)
            fail("numRetries", "plans " + std::to_string(r.numRetries) +
                                   " retries in all (retries_with_no_delay + minimum_delay_retries + the backoff "
                                   "steps + maximum_delay_retries); at most " + std::to_string(kMaxCustomRetries) +
                                   " are allowed");
        if (r.minDelayTarget < 1)
            fail("minDelayTarget", "must be at least 1 second, got " + std::to_string(r.minDelayTarget));
        else if (r.minDelayTarget > r.maxDelayTarget)
            fail("minDelayTarget", "must not exceed maxDelayTarget (" + std::to_string(r.maxDelayTarget) +
                                       " s), got " + std::to_string(r.minDelayTarget) + " s");
        if (r.maxDelayTarget > kMaxDelayTarget)
            fail("maxDelayTarget", "must be at most " + std::to_string(kMaxDelayTarget) + " seconds, got " +
                                       std::to_string(r.maxDelayTarget));
        const bool countsValid = r.numNoDelayRetries >= 0 && r.numMinDelayRetries >= 0 && r.numMaxDelayRetries >= 0;
        if (policy.dialect == Dialect::Sns && countsValid && r.numRetries >= 0 && r.backoffRetries() < 0) {
            const int others = r.numNoDelayRetries + r.numMinDelayRetries + r.numMaxDelayRetries;
            fail("numRetries", "is " + std::to_string(r.numRetries) +
                                   ", fewer than the retries of the other three phases (numNoDelayRetries " +
                                   std::to_string(r.numNoDelayRetries) + " + numMinDelayRetries " +
                                   std::to_string(r.numMinDelayRetries) + " + numMaxDelayRetries " +
                                   std::to_string(r.numMaxDelayRetries) + " = " + std::to_string(others) + ")");
        }
        const bool httpEndpoint = context.protocol != EndpointProtocol::Sqs;
        // The cap is checked whenever the schedule can be planned (planSchedule()'s
        // preconditions), not only when nothing else failed: docs/behaviour.md §2.1 wants every
        // failure at once, e.g. numRetries 101 and 4040 s of delays.
        const bool plannable = countsValid && r.numRetries >= 0 && r.minDelayTarget >= 1 &&
                               r.minDelayTarget <= r.maxDelayTarget &&
                               (policy.dialect == Dialect::Zaqar || r.backoffRetries() >= 0);
        if (plannable && httpEndpoint && !policy.managed) {
            const int64_t backoff = policy.dialect == Dialect::Zaqar
                                        ? int64_t(zaqarBackoffRetries(r.minDelayTarget, r.maxDelayTarget))
                                        : int64_t(r.backoffRetries());
            // Every backoff delay is at least minDelayTarget >= 1 s, so a backoff
            // phase longer than the cap exceeds it without listing its delays.
            const bool bound = backoff > kHttpDelayCapSeconds;
            const int64_t total =
                bound ? int64_t(r.numMinDelayRetries) * r.minDelayTarget + backoff * r.minDelayTarget +
                            int64_t(r.numMaxDelayRetries) * r.maxDelayTarget
                      : planSchedule(r, policy.dialect).totalDelaySeconds();
            if (total > kHttpDelayCapSeconds)
                fail("healthyRetryPolicy", std::string(bound ? "plans at least " : "plans ") + std::to_string(total) +
                                               " s of delays in all; an HTTP/S delivery policy may plan at most 3600 s "
                                               "(a hard limit of the service that cannot be raised)");
        }
    }
    if (policy.maxReceivesPerSecond && *policy.maxReceivesPerSecond < 1)
        fail("maxReceivesPerSecond",
             "must be at least 1 delivery per second, got " + std::to_string(*policy.maxReceivesPerSecond));
    if (policy.headerContentType) {
        const bool raw = context.rawDelivery && policy.form == PolicyForm::SnsSubscription;
        if (!contentTypeAllowed(*policy.headerContentType, raw))
            fail("headerContentType",
                 raw ? "must be a text/*, JSON, XML, octet-stream or form media type, got \"" + *policy.headerContentType + "\""
                     : "must be application/json or text/plain (optionally with a charset) unless raw message "
                       "delivery is on, got \"" + *policy.headerContentType + "\"");
    }
    return issues;
}

PolicyValidation checkPolicyDocument(const nlohmann::json &document, const PolicyCheckContext &context)
{
    PolicyReadResult read = readPolicy(document);
    PolicyValidation validation;
    validation.form = read.form;
    validation.policy = read.policy;
    validation.errors = std::move(read.errors);
    validation.warnings = std::move(read.warnings);
    if (!validation.policy)
        return validation;
    const bool structurallySound = validation.errors.empty();
    const std::size_t readErrors = validation.errors.size();
    for (PolicyIssue &issue : validatePolicy(*validation.policy, context)) {
        // A field that could not be read fell back to its default; rules on
        // it (and the cap, which depends on all of them) would only confuse.
        const bool fieldAlreadyReported =
            std::any_of(validation.errors.begin(), validation.errors.begin() + std::ptrdiff_t(readErrors),
                        [&](const PolicyIssue &e) { return e.field == issue.field; });
        const bool isCap = issue.field == policyFieldPath(validation.policy->form, "healthyRetryPolicy");
        if (!fieldAlreadyReported && (structurallySound || !isCap))
            validation.errors.push_back(std::move(issue));
    }
    return validation;
}

} // namespace relaydesk
