// SPDX-License-Identifier: MIT
#include "models/policy_evaluation.h"

#include "json/bounded_json.h"
#include "policy/policy_json.h"

#include <nlohmann/json.hpp>

#include <algorithm>

namespace relaydesk {
namespace {

const std::optional<DeliveryPolicy> kNoPolicy;
const std::optional<RetrySchedule> kNoSchedule;

// nlohmann's message without its "[json.exception.parse_error.101] " tag.
QString syntaxMessage(const nlohmann::json::parse_error &error)
{
    QString message = QString::fromUtf8(error.what());
    const qsizetype tagEnd = message.indexOf(QLatin1String("] "));
    if (message.startsWith(QLatin1Char('[')) && tagEnd > 0)
        message = message.mid(tagEnd + 2);
    return message;
}

} // namespace

const std::optional<DeliveryPolicy> &PolicyEvaluation::policy() const
{
    return explanation ? explanation->validation.policy : kNoPolicy;
}

const std::optional<RetrySchedule> &PolicyEvaluation::schedule() const
{
    return explanation ? explanation->schedule : kNoSchedule;
}

PolicyEvaluation evaluatePolicyText(const QString &text, const QString &source, const PolicyCheckContext &context,
                                    const std::optional<DeliveryPolicy> &managedOrigin)
{
    PolicyEvaluation evaluation;
    nlohmann::json document;
    try {
        document = parseBoundedJson(text.toStdString(), true);
    } catch (const JsonTooDeep &error) {
        evaluation.syntaxError = QString::fromUtf8(error.what());
        return evaluation;
    } catch (const nlohmann::json::parse_error &error) {
        evaluation.syntaxError = syntaxMessage(error);
        return evaluation;
    }

    if (managedOrigin && managedOrigin->managed) {
        const PolicyReadResult read = readPolicy(document);
        if (read.errors.empty() && read.policy && read.policy->form == managedOrigin->form
            && read.policy->retry == managedOrigin->retry) {
            DeliveryPolicy policy = *read.policy;
            policy.managed = true;
            evaluation.explanation = explainPolicy(policy, source.toStdString(), context);
            PolicyIssues &warnings = evaluation.explanation->validation.warnings;
            for (const PolicyIssue &warning : read.warnings) {
                if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end())
                    warnings.push_back(warning);
            }
            return evaluation;
        }
    }
    evaluation.explanation = explainPolicy(document, source.toStdString(), context);
    return evaluation;
}

PolicyEvaluation evaluatePolicy(const DeliveryPolicy &policy, const QString &source, const PolicyCheckContext &context)
{
    PolicyEvaluation evaluation;
    evaluation.explanation = explainPolicy(policy, source.toStdString(), context);
    return evaluation;
}

QString policyJsonText(const DeliveryPolicy &policy)
{
    return QString::fromStdString(writePolicy(policy).dump(2)) + QLatin1Char('\n');
}

} // namespace relaydesk
