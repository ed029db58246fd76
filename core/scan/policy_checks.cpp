// SPDX-License-Identifier: MIT
#include "policy_checks.h"

#include "policy/policy_validation.h"

#include <algorithm>
#include <array>

namespace relaydesk {

namespace {

constexpr std::array<std::string_view, 12> kHeatIntrinsics = {
    "get_param", "get_resource", "get_attr", "get_file", "str_replace", "list_join",
    "str_split", "digest", "repeat", "resource_facade", "yaql", "if"};

std::string dottedField(const std::string &pointer)
{
    std::string field;
    for (char c : pointer.substr(pointer.empty() ? 0 : 1))
        field += c == '/' ? '.' : c;
    return field;
}

// Every intrinsic inside `value`, as (field, name); the field is dotted from `value`.
void collectIntrinsics(const nlohmann::json &value, const std::string &pointer,
                       std::vector<std::pair<std::string, std::string>> &found)
{
    if (isIntrinsic(value)) {
        found.emplace_back(dottedField(pointer), intrinsicName(value));
        return;
    }
    if (value.is_object()) {
        for (auto it = value.begin(); it != value.end(); ++it)
            collectIntrinsics(it.value(), childPointer(pointer, it.key()), found);
    } else if (value.is_array()) {
        for (std::size_t i = 0; i < value.size(); ++i)
            collectIntrinsics(value[i], childPointer(pointer, i), found);
    }
}

bool under(const std::string &field, const std::string &prefix)
{
    return prefix.empty() || field == prefix || field.rfind(prefix + ".", 0) == 0;
}

class PolicyChecker final {
public:
    PolicyChecker(FoundPolicy &policy, const ScanDocument &document, const ScanOptions &options)
        : m_policy(policy), m_document(document), m_options(options)
    {
    }

    void run()
    {
        std::vector<std::pair<std::string, std::string>> unresolved;
        collectIntrinsics(m_policy.document, "", unresolved);
        for (const std::string &field : m_policy.unknownFields)
            unresolved.emplace_back(field, "a value known only after apply");
        for (const auto &[field, name] : unresolved) {
            m_unresolved.push_back(field);
            add("unresolved-intrinsic", FindingLevel::Note, field,
                (field.empty() ? std::string("the policy is ") : std::string("the value is ")) + name +
                    ", left for the deployment to resolve: not checked");
        }
        if (isIntrinsic(m_policy.document) || (!m_policy.unknownFields.empty() && m_policy.document.is_null())) {
            m_policy.summary = "not checked: the policy is resolved only when deployed";
            return;
        }
        switch (m_policy.kind) {
        case FoundPolicyKind::Delivery: delivery(); break;
        case FoundPolicyKind::Redrive: redrive(); break;
        case FoundPolicyKind::Lifetime: lifetime(); break;
        }
        deadLetterTarget();
        for (const PolicyIssue &issue : m_policy.errors)
            add("invalid-policy", FindingLevel::Error, issue.field, issue.message);
    }

private:
    TextPlace placeOf(const std::string &field) const
    {
        if (const auto it = m_policy.fieldPointers.find(field); it != m_policy.fieldPointers.end())
            return m_document.placeOf(it->second);
        std::string pointer = m_policy.pointer;
        std::size_t start = 0;
        while (!field.empty() && start <= field.size()) {
            const std::size_t dot = std::min(field.find('.', start), field.size());
            pointer = childPointer(pointer, std::string_view(field).substr(start, dot - start));
            start = dot + 1;
        }
        return m_document.placeOf(pointer);
    }

    void add(std::string rule, FindingLevel level, const std::string &field, std::string message)
    {
        m_policy.findings.push_back({std::move(rule), level, std::move(message), field, placeOf(field)});
    }

    bool unresolved(const std::string &field) const
    {
        return std::any_of(m_unresolved.begin(), m_unresolved.end(),
                           [&](const std::string &prefix) { return under(field, prefix); });
    }

    void keepResolvedErrors(const PolicyIssues &errors)
    {
        for (const PolicyIssue &issue : errors) {
            if (!unresolved(issue.field))
                m_policy.errors.push_back(issue);
        }
    }

    void delivery()
    {
        PolicyCheckContext context;
        context.protocol = m_policy.protocol;
        m_policy.delivery = explainPolicy(m_policy.document, m_policy.file + ":" + m_policy.name, context);
        keepResolvedErrors(m_policy.delivery->validation.errors);
        const auto &schedule = m_policy.delivery->schedule;
        if (!schedule) {
            m_policy.summary = m_unresolved.empty() ? "invalid" : "not checked: parts resolved only when deployed";
            return;
        }
        m_policy.summary = scheduleSummary(*schedule) + phasesText(*schedule);
        if (schedule->totalDelaySeconds() < m_options.expectedOutageSeconds)
            add("retry-span-short", FindingLevel::Warning, "",
                "retries end " + durationText(schedule->totalDelaySeconds()) + " after the first attempt, before an outage of " +
                    durationText(m_options.expectedOutageSeconds) + " is over: the message is lost or dead-lettered");
    }

    static std::string phasesText(const RetrySchedule &schedule)
    {
        std::string text;
        for (const SchedulePhase &phase : schedule.phases()) {
            if (phase.retries == 0)
                continue;
            text += (text.empty() ? " (" : ", ") + std::string(retryPhaseName(phase.phase)) + " " +
                    groupedCount(phase.retries);
            if (phase.phase != RetryPhase::Backoff)
                text += " × " + durationText(phase.delaySeconds);
            else
                text += " " + durationText(phase.delays.front()) + "→" + durationText(phase.delays.back());
        }
        return text.empty() ? text : text + ")";
    }

    void redrive()
    {
        const RedriveFacts facts = m_policy.redrive.value_or(RedriveFacts{});
        std::string summary;
        if (facts.maxReceiveCount) {
            const std::int64_t count = *facts.maxReceiveCount;
            if (count < 1 || count > 1000)
                m_policy.errors.push_back({"maxReceiveCount", "must be an integer between 1 and 1000"});
            if (count == 1)
                add("max-receive-count-1", FindingLevel::Warning, "maxReceiveCount",
                    "a message is dead-lettered after its first failed receive: one slow or crashed consumer "
                    "and it is gone from the queue");
            summary = "dead-letters after " + std::to_string(count) + (count == 1 ? " receive" : " receives");
            if (facts.visibilitySeconds && count > 0)
                summary += " (" + durationText(count * *facts.visibilitySeconds) + " if every visibility timeout of " +
                           durationText(*facts.visibilitySeconds) + " runs out)";
        } else if (!unresolved("maxReceiveCount") && m_policy.service == "SQS") {
            m_policy.errors.push_back({"maxReceiveCount", "is required in a redrive policy"});
        }
        if (m_policy.deadLetterTarget.empty() && !unresolved("deadLetterTargetArn") && m_policy.service != "Zaqar")
            m_policy.errors.push_back({"deadLetterTargetArn", "is required in a redrive policy"});
        if (!m_policy.deadLetterTarget.empty())
            summary += (summary.empty() ? "" : " ") + std::string("into ") + m_policy.deadLetterTarget;
        if (facts.retentionSeconds)
            summary += (summary.empty() ? "" : "; ") + std::string("kept ") + durationText(*facts.retentionSeconds);
        m_policy.summary = summary.empty() ? "no dead-letter queue" : summary;
    }

    void lifetime()
    {
        // The broker's own reading of each property, one at a time, so that
        // every error is reported at its field (parseServiceBusQueue stops at the first).
        const nlohmann::json &properties = m_policy.document;
        // A name the deployment resolves ("[parameters('queue')]", left in an
        // entity name; Service Bus names never hold '[') is noted, and the
        // properties are checked under a stand-in name, not refused for it.
        std::string name = m_policy.name;
        if (name.find('[') != std::string::npos) {
            add("unresolved-intrinsic", FindingLevel::Note, "",
                "the name is " + name + ", left for the deployment to resolve: the properties are checked without it");
            name = "unresolved-name";
        }
        nlohmann::json resolved = nlohmann::json::object();
        for (auto it = properties.begin(); it != properties.end(); ++it) {
            if (unresolved(it.key()))
                continue;
            const auto one = parseServiceBusQueue({{"Name", name}, {"Properties", {{it.key(), it.value()}}}});
            if (!one)
                m_policy.errors.push_back({it.key(), one.error().message});
            else
                resolved[it.key()] = it.value();
        }
        auto queue = parseServiceBusQueue({{"Name", name}, {"Properties", resolved}});
        if (!queue) {
            // A name Service Bus would refuse, or two properties at odds.
            m_policy.errors.push_back({"", queue.error().message});
            return;
        }
        m_policy.lifetime = *queue;
        const ServiceBusQueueProperties &q = *queue;
        std::string summary = "lock " + durationText(q.lockDuration) + ", max deliveries " +
                              std::to_string(q.maxDeliveryCount) + " → dead-lettered after " +
                              std::to_string(q.maxDeliveryCount) + (q.maxDeliveryCount == 1 ? " delivery" : " deliveries") +
                              " (" + durationText(q.maxDeliveryCount * q.lockDuration) + " if every lock runs out)";
        if (q.defaultMessageTimeToLive && *q.defaultMessageTimeToLive < kServiceBusNever) {
            summary += "; TTL " + durationText(*q.defaultMessageTimeToLive) +
                       (q.deadLetteringOnMessageExpiration ? " → dead-lettered when it expires" : " → discarded when it expires");
            if (*q.defaultMessageTimeToLive < q.lockDuration)
                add("ttl-shorter-than-lock", FindingLevel::Warning, "DefaultMessageTimeToLive",
                    "messages live " + durationText(*q.defaultMessageTimeToLive) + ", less than the lock of " +
                        durationText(q.lockDuration) + ": a message can expire while a receiver holds it");
        } else {
            summary += "; no TTL";
        }
        if (q.maxDeliveryCount == 1)
            add("max-receive-count-1", FindingLevel::Warning, "MaxDeliveryCount",
                "a message is dead-lettered after its first failed delivery");
        m_policy.summary = summary;
    }

    void deadLetterTarget()
    {
        if (m_policy.deadLetterTargetInTemplate == false)
            add("dlq-target-missing", FindingLevel::Warning, m_policy.kind == FoundPolicyKind::Lifetime
                                                                 ? "ForwardDeadLetteredMessagesTo" : dlqField(),
                "the dead-letter target " + m_policy.deadLetterTarget +
                    " is not defined in this template: check that it exists where this is deployed");
    }

    std::string dlqField() const
    {
        return m_policy.service == "Zaqar" ? "_dead_letter_queue" : "deadLetterTargetArn";
    }

    FoundPolicy &m_policy;
    const ScanDocument &m_document;
    const ScanOptions &m_options;
    std::vector<std::string> m_unresolved;
};

} // namespace

bool isIntrinsic(const nlohmann::json &value)
{
    if (value.is_string()) {
        const std::string &text = value.get_ref<const std::string &>();
        return text.size() >= 2 && text.front() == '[' && text.back() == ']' && text[1] != '[';
    }
    if (!value.is_object() || value.size() != 1)
        return false;
    const std::string &key = value.begin().key();
    return key == "Ref" || key.rfind("Fn::", 0) == 0 ||
           std::find(kHeatIntrinsics.begin(), kHeatIntrinsics.end(), key) != kHeatIntrinsics.end();
}

std::string intrinsicName(const nlohmann::json &value)
{
    if (value.is_string())
        return "the expression " + value.get<std::string>();
    return value.begin().key();
}

void checkFoundPolicy(FoundPolicy &policy, const ScanDocument &document, const ScanOptions &options)
{
    PolicyChecker(policy, document, options).run();
}

} // namespace relaydesk
