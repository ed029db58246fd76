// SPDX-License-Identifier: MIT
#include "policy_report.h"

#include "effective_policy.h"
#include "policy_json.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <sstream>

namespace relaydesk {

using nlohmann::json;

namespace {

// The retry section a document governs an HTTP subscription with: a topic-form
// document as the effective policy of a subscription with none of its own
// (docs/behaviour.md §8.1), every other form as written.
DeliveryPolicy governingPolicy(const DeliveryPolicy &policy)
{
    if (policy.form != PolicyForm::SnsTopic)
        return policy;
    DeliveryPolicy effective = resolveEffectivePolicy(EndpointProtocol::Http, std::nullopt, policy).policy;
    effective.managed = policy.managed;
    return effective;
}

PolicyExplanation finish(PolicyExplanation explanation)
{
    if (explanation.validation.valid() && explanation.validation.policy) {
        const DeliveryPolicy policy = governingPolicy(*explanation.validation.policy);
        explanation.schedule = planSchedule(policy.retryOrDefault(), policy.dialect);
    }
    return explanation;
}

json issuesJson(const PolicyIssues &issues)
{
    json list = json::array();
    for (const PolicyIssue &issue : issues)
        list.push_back({{"field", issue.field}, {"message", issue.message}});
    return list;
}

std::string pad(std::string text, size_t width)
{
    // Width in characters, counting UTF-8 continuation bytes as nothing.
    size_t shown = 0;
    for (unsigned char c : text)
        shown += (c & 0xC0) != 0x80;
    if (shown < width)
        text.append(width - shown, ' ');
    return text;
}

std::string padLeft(const std::string &text, size_t width)
{
    return text.size() < width ? std::string(width - text.size(), ' ') + text : text;
}

std::string phaseDelayText(const SchedulePhase &phase)
{
    if (phase.retries == 0)
        return "-";
    if (phase.phase != RetryPhase::Backoff)
        return std::to_string(phase.delaySeconds) + " s";
    std::string text;
    for (int delay : phase.delays)
        text += (text.empty() ? "" : " ") + std::to_string(delay);
    return text + " s";
}

// Splits a long space-separated list into lines of at most `width` characters.
std::vector<std::string> wrapWords(const std::string &text, size_t width)
{
    std::vector<std::string> lines;
    std::istringstream words(text);
    std::string word, line;
    while (words >> word) {
        if (!line.empty() && line.size() + 1 + word.size() > width) {
            lines.push_back(line);
            line.clear();
        }
        line += (line.empty() ? "" : " ") + word;
    }
    lines.push_back(line);
    return lines;
}

std::string describeSource(const PolicyExplanation &e)
{
    const PolicyValidation &v = e.validation;
    std::string text = e.source + " (" + std::string(policyFormName(v.form)) + " form";
    if (v.policy)
        text += ", " + std::string(dialectName(v.policy->dialect)) + " dialect";
    if (v.policy && v.policy->managed)
        text += ", fixed service policy";
    return text + ")";
}

std::string phaseShortText(const SchedulePhase &phase, BackoffFunction function)
{
    if (phase.retries == 0)
        return "none";
    if (phase.phase == RetryPhase::Backoff)
        return groupedCount(phase.retries) + " " + std::string(backoffFunctionName(function)) + " " +
               std::to_string(phase.delays.front()) + "…" + std::to_string(phase.delays.back()) + " s";
    return groupedCount(phase.retries) + " × " + std::to_string(phase.delaySeconds) + " s";
}

std::string signedNumber(int64_t value)
{
    return value > 0 ? "+" + std::to_string(value) : (value < 0 ? "−" + std::to_string(-value) : "±0");
}

std::string signedDuration(int64_t seconds)
{
    return seconds > 0 ? "+" + durationText(seconds) : (seconds < 0 ? "−" + durationText(-seconds) : "±0");
}

// Canonical field => value as text, for diffs.
std::vector<std::pair<std::string, std::string>> fieldValues(const PolicyValidation &validation)
{
    if (!validation.policy)
        return {};
    const DeliveryPolicy &p = *validation.policy;
    const RetryPolicy r = p.retryOrDefault();
    return {
        {"form", std::string(policyFormKey(p.form))},
        {"dialect", std::string(dialectName(p.dialect))},
        {"numRetries", std::to_string(r.numRetries)},
        {"numNoDelayRetries", std::to_string(r.numNoDelayRetries)},
        {"numMinDelayRetries", std::to_string(r.numMinDelayRetries)},
        {"numMaxDelayRetries", std::to_string(r.numMaxDelayRetries)},
        {"minDelayTarget", std::to_string(r.minDelayTarget)},
        {"maxDelayTarget", std::to_string(r.maxDelayTarget)},
        {"backoffFunction", std::string(backoffFunctionName(r.backoffFunction))},
        {"maxReceivesPerSecond", p.maxReceivesPerSecond ? std::to_string(*p.maxReceivesPerSecond) : "no limit"},
        {"headerContentType", p.headerContentTypeOrDefault()},
        {"disableSubscriptionOverrides", p.disableSubscriptionOverrides ? "true" : "false"},
    };
}

json phaseSummaryJson(const SchedulePhase &phase)
{
    json out{{"retries", phase.retries}, {"totalSeconds", phase.totalSeconds()}};
    if (phase.phase == RetryPhase::Backoff)
        out["delaysSeconds"] = phase.delays;
    else
        out["delaySeconds"] = phase.delaySeconds;
    return out;
}

} // namespace

PolicyExplanation explainPolicy(const json &document, std::string source, const PolicyCheckContext &context)
{
    PolicyExplanation explanation;
    explanation.source = std::move(source);
    explanation.protocol = context.protocol;
    explanation.validation = checkPolicyDocument(document, context);
    return finish(std::move(explanation));
}

PolicyExplanation explainPolicy(const DeliveryPolicy &policy, std::string source, const PolicyCheckContext &context)
{
    PolicyExplanation explanation;
    explanation.source = std::move(source);
    explanation.protocol = context.protocol;
    explanation.validation.form = policy.form;
    explanation.validation.policy = policy;
    explanation.validation.errors = validatePolicy(policy, context);
    return finish(std::move(explanation));
}

json explanationJson(const PolicyExplanation &e)
{
    const PolicyValidation &v = e.validation;
    json out{{"source", e.source},
             {"form", std::string(policyFormKey(v.form))},
             {"protocol", std::string(endpointProtocolName(e.protocol))},
             {"valid", v.valid()},
             {"errors", issuesJson(v.errors)},
             {"warnings", issuesJson(v.warnings)}};
    out["dialect"] = std::string(dialectName(v.policy ? v.policy->dialect : Dialect::Sns));
    if (!e.schedule)
        return out;
    const RetrySchedule &s = *e.schedule;
    const DeliveryPolicy policy = governingPolicy(*v.policy);
    out["managed"] = policy.managed;
    out["retries"] = s.retries();
    out["attempts"] = s.attempts();
    out["totalDelaySeconds"] = s.totalDelaySeconds();
    out["summary"] = scheduleSummary(s);
    out["maxReceivesPerSecond"] = policy.maxReceivesPerSecond ? json(*policy.maxReceivesPerSecond) : json(nullptr);
    out["headerContentType"] = policy.headerContentTypeOrDefault();
    json phases = json::array();
    int64_t cumulative = 0;
    for (const SchedulePhase &phase : s.phases()) {
        cumulative += phase.totalSeconds();
        json entry{{"phase", std::string(retryPhaseName(phase.phase))}, {"retries", phase.retries}};
        if (phase.phase == RetryPhase::Backoff) {
            entry["function"] = std::string(backoffFunctionName(s.backoffFunction()));
            entry["delaysSeconds"] = phase.delays;
        } else {
            entry["delaySeconds"] = phase.delaySeconds;
        }
        entry["cumulativeSeconds"] = cumulative;
        phases.push_back(std::move(entry));
    }
    out["phases"] = std::move(phases);
    return out;
}

std::string durationText(int64_t seconds)
{
    if (seconds <= 0)
        return "0 s";
    const std::pair<int64_t, const char *> units[] = {{86400, "d"}, {3600, "h"}, {60, "min"}, {1, "s"}};
    std::string text;
    for (const auto &[size, name] : units) {
        if (seconds >= size) {
            text += (text.empty() ? "" : " ") + std::to_string(seconds / size) + " " + name;
            seconds %= size;
        }
    }
    return text;
}

std::string groupedCount(int64_t value)
{
    std::string digits = std::to_string(value < 0 ? -value : value);
    if (digits.size() > 4) {
        for (size_t i = digits.size() - 3; i > 0; i = i > 3 ? i - 3 : 0)
            digits.insert(i, " ");
    }
    return value < 0 ? "-" + digits : digits;
}

std::string scheduleSummary(const RetrySchedule &schedule)
{
    const int64_t attempts = schedule.attempts();
    return groupedCount(attempts) + (attempts == 1 ? " attempt" : " attempts") + " over " +
           durationText(schedule.totalDelaySeconds());
}

std::string explanationText(const PolicyExplanation &e)
{
    std::ostringstream out;
    const PolicyValidation &v = e.validation;
    out << "Policy:   " << describeSource(e) << ", for an " << endpointProtocolName(e.protocol) << " endpoint\n";
    for (const PolicyIssue &w : v.warnings)
        out << "warning:  " << (w.field.empty() ? "" : w.field + ": ") << w.message << "\n";
    if (!e.schedule) {
        out << "Invalid:  " << v.errors.size() << (v.errors.size() == 1 ? " error" : " errors") << "\n";
        for (const PolicyIssue &issue : v.errors)
            out << "error:    " << (issue.field.empty() ? "" : issue.field + ": ") << issue.message << "\n";
        return out.str();
    }
    const RetrySchedule &s = *e.schedule;
    constexpr size_t kPhaseWidth = 22;
    constexpr size_t kDelayWidth = 34;
    out << "\n" << pad("Phase", kPhaseWidth) << padLeft("Retries", 8) << "  " << pad("Delay before each retry", kDelayWidth)
        << padLeft("Ends at", 20) << "\n";
    out << pad("initial", kPhaseWidth) << padLeft("-", 8) << "  " << pad("first attempt", kDelayWidth) << padLeft("0 s", 20)
        << "\n";
    int64_t cumulative = 0;
    for (const SchedulePhase &phase : s.phases()) {
        cumulative += phase.totalSeconds();
        std::string name(retryPhaseName(phase.phase));
        if (phase.phase == RetryPhase::Backoff && phase.retries > 0)
            name += " (" + std::string(backoffFunctionName(s.backoffFunction())) + ")";
        const std::vector<std::string> lines = wrapWords(phaseDelayText(phase), kDelayWidth);
        out << pad(name, kPhaseWidth) << padLeft(groupedCount(phase.retries), 8) << "  " << pad(lines.front(), kDelayWidth)
            << padLeft(durationText(cumulative), 20) << "\n";
        for (size_t i = 1; i < lines.size(); ++i)
            out << std::string(kPhaseWidth + 10, ' ') << lines[i] << "\n";
    }
    const DeliveryPolicy policy = governingPolicy(*v.policy);
    out << "\nThrottle: "
        << (policy.maxReceivesPerSecond ? std::to_string(*policy.maxReceivesPerSecond) + " deliveries/s" : "no limit")
        << "   Content-Type: " << policy.headerContentTypeOrDefault() << "\n";
    out << scheduleSummary(s) << " (" << groupedCount(s.retries()) << (s.retries() == 1 ? " retry" : " retries") << ")\n";
    return out.str();
}

PolicyDiff diffPolicies(PolicyExplanation a, PolicyExplanation b)
{
    PolicyDiff diff;
    const auto before = fieldValues(a.validation);
    const auto after = fieldValues(b.validation);
    for (size_t i = 0; i < before.size() && i < after.size(); ++i) {
        if (before[i].second != after[i].second)
            diff.fields.push_back({before[i].first, before[i].second, after[i].second});
    }
    diff.a = std::move(a);
    diff.b = std::move(b);
    return diff;
}

std::string diffText(const PolicyDiff &diff)
{
    std::ostringstream out;
    out << "A: " << describeSource(diff.a) << "\nB: " << describeSource(diff.b) << "\n";
    for (const auto *side : {&diff.a, &diff.b}) {
        for (const PolicyIssue &issue : side->validation.errors)
            out << "error:    " << (side == &diff.a ? "A " : "B ") << issue.field << ": " << issue.message << "\n";
    }
    if (diff.fields.empty()) {
        out << "\nNo field differs.\n";
    } else {
        out << "\nFields that differ:\n";
        for (const auto &change : diff.fields)
            out << "  " << pad(change.field, 30) << change.before << " → " << change.after << "\n";
    }
    if (!diff.a.schedule || !diff.b.schedule) {
        out << "\nSchedule: not compared (a policy is invalid)\n";
        return out.str();
    }
    const RetrySchedule &sa = *diff.a.schedule;
    const RetrySchedule &sb = *diff.b.schedule;
    out << "\nSchedule:\n  " << pad("", 13) << pad("A", 26) << pad("B", 26) << "change\n";
    out << "  " << pad("attempts", 13) << pad(std::to_string(sa.attempts()), 26) << pad(std::to_string(sb.attempts()), 26)
        << signedNumber(sb.attempts() - sa.attempts()) << "\n";
    out << "  " << pad("span", 13) << pad(durationText(sa.totalDelaySeconds()), 26)
        << pad(durationText(sb.totalDelaySeconds()), 26) << signedDuration(sb.totalDelaySeconds() - sa.totalDelaySeconds())
        << "\n";
    for (RetryPhase phase : kRetryPhases) {
        const SchedulePhase &pa = sa.phase(phase);
        const SchedulePhase &pb = sb.phase(phase);
        const std::string ta = phaseShortText(pa, sa.backoffFunction());
        const std::string tb = phaseShortText(pb, sb.backoffFunction());
        out << "  " << pad(std::string(retryPhaseName(phase)), 13) << pad(ta, 26) << pad(tb, 26)
            << (ta == tb && pa.delays == pb.delays ? "same" : signedDuration(pb.totalSeconds() - pa.totalSeconds()))
            << "\n";
    }
    return out.str();
}

json diffJson(const PolicyDiff &diff)
{
    json fields = json::array();
    for (const auto &change : diff.fields)
        fields.push_back({{"field", change.field}, {"a", change.before}, {"b", change.after}});
    json out{{"a", explanationJson(diff.a)}, {"b", explanationJson(diff.b)}, {"fields", fields}};
    if (diff.a.schedule && diff.b.schedule) {
        const RetrySchedule &sa = *diff.a.schedule;
        const RetrySchedule &sb = *diff.b.schedule;
        json phases = json::array();
        for (RetryPhase phase : kRetryPhases)
            phases.push_back({{"phase", std::string(retryPhaseName(phase))},
                              {"a", phaseSummaryJson(sa.phase(phase))},
                              {"b", phaseSummaryJson(sb.phase(phase))}});
        out["schedule"] = {{"attempts", {{"a", sa.attempts()}, {"b", sb.attempts()}}},
                           {"totalDelaySeconds", {{"a", sa.totalDelaySeconds()}, {"b", sb.totalDelaySeconds()}}},
                           {"phases", phases}};
    }
    out["identical"] = diff.fields.empty();
    return out;
}

} // namespace relaydesk
