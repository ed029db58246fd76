// SPDX-License-Identifier: MIT
#include "policy_editor/policy_field_help.h"

#include "policy/policy_json.h"

#include <QCoreApplication>

namespace relaydesk {
namespace {

QString tr(const char *text)
{
    return QCoreApplication::translate("PolicyFieldHelp", text);
}

struct FieldWords {
    std::string_view canonical;
    const char *label;
    const char *zaqarLabel;   // nullptr: same as label
    const char *tip;
    const char *zaqarTip;     // appended in the Zaqar form; nullptr: nothing
};

// Wording from docs/behaviour.md §2.1 (fields), 2.3 (overrides), 3.1–3.3 (phases) and 4.3
// (throttle, Content-Type).
constexpr FieldWords kFields[] = {
    {"numRetries", "Total retries", nullptr,
     "All retries after the first attempt, across the four phases: immediate, pre-backoff, backoff and "
     "post-backoff.\nRange 0–100 for custom policies (the service's managed policies are exempt). Default 3.",
     "In the Zaqar form this is not a field: it is derived from the other values, because the backoff "
     "phase steps by 5 s from the minimum to the maximum delay."},
    {"numNoDelayRetries", "Immediate retries", nullptr,
     "Immediate phase: retries sent with no delay, right after a failed attempt.\nAt least 0. Default 0.",
     "Zaqar default 3."},
    {"numMinDelayRetries", "Pre-backoff retries", nullptr,
     "Pre-backoff phase: retries spaced by the minimum delay, before the backoff phase starts.\n"
     "At least 0. Default 0.",
     "Zaqar default 3."},
    {"numMaxDelayRetries", "Post-backoff retries", nullptr,
     "Post-backoff phase: retries spaced by the maximum delay, after the backoff phase.\nAt least 0. Default 0.",
     "Zaqar default 3."},
    {"minDelayTarget", "Minimum delay", nullptr,
     "Seconds. The first delay of the backoff phase and the spacing of the pre-backoff phase.\n"
     "Range 1 … maximum delay. Default 20 s.",
     "Zaqar default 5 s."},
    {"maxDelayTarget", "Maximum delay", nullptr,
     "Seconds. The last delay of the backoff phase and the spacing of the post-backoff phase.\n"
     "Range minimum delay … 3600. Default 20 s.",
     "Zaqar default 30 s."},
    {"backoffFunction", "Backoff function", nullptr,
     "How the backoff phase's delays rise from the minimum to the maximum delay: linear, arithmetic "
     "(quadratic), geometric or exponential.\nAt every retry linear ≥ arithmetic ≥ geometric ≥ exponential. "
     "Default linear.",
     "The Zaqar blueprint defines only linear; the other names apply the same curves to the Zaqar retry "
     "count."},
    {"maxReceivesPerSecond", "Max receives per second", nullptr,
     "Throttle: the average number of deliveries per second to one subscription. Short bursts above the "
     "rate are allowed; a backlog waits, it is never dropped.\nAt least 1, or no limit. Default: no limit.",
     "The Zaqar form has no throttle policy."},
    {"headerContentType", "Content-Type header", nullptr,
     "Content-Type of the HTTP deliveries. With raw delivery off, or at topic level: application/json or "
     "text/plain (with an optional charset). With raw delivery on, also text/*, application/xml, "
     "application/octet-stream and similar.\nDefault text/plain; charset=UTF-8.",
     "The Zaqar form has no request policy."},
    {"disableSubscriptionOverrides", "Disable subscription overrides", "Ignore subscription override",
     "Topic level only. When set, this policy governs every subscription of the topic even if the "
     "subscription has a delivery policy of its own.",
     "Zaqar: the queue's policy wins over the subscriptions' own policies."},
};

const FieldWords *wordsFor(std::string_view canonical)
{
    for (const FieldWords &words : kFields) {
        if (words.canonical == canonical)
            return &words;
    }
    return nullptr;
}

} // namespace

QString policyFieldLabel(std::string_view canonical, PolicyForm form)
{
    const FieldWords *words = wordsFor(canonical);
    if (!words)
        return QString::fromUtf8(canonical.data(), qsizetype(canonical.size()));
    if (form == PolicyForm::Zaqar && words->zaqarLabel)
        return tr(words->zaqarLabel);
    return tr(words->label);
}

QString policyFieldTip(std::string_view canonical, PolicyForm form)
{
    const FieldWords *words = wordsFor(canonical);
    if (!words)
        return {};
    QString tip = tr(words->tip);
    if (form == PolicyForm::Zaqar && words->zaqarTip)
        tip += QLatin1Char('\n') + tr(words->zaqarTip);
    const std::string path = policyFieldPath(form, std::string(canonical));
    if (!path.empty())
        tip += QLatin1String("\n\nJSON: ") + QString::fromStdString(path);
    return tip;
}

QString policyFormHint(PolicyForm form)
{
    switch (form) {
    case PolicyForm::SnsSubscription:
        return tr("SNS subscription form: the DeliveryPolicy attribute of one subscription.");
    case PolicyForm::SnsTopic:
        return tr("SNS topic form: the default policy of the topic's HTTP/S subscriptions.");
    case PolicyForm::Zaqar:
        return tr("Zaqar form: the backoff phase steps by 5 s from the minimum to the maximum delay; "
                  "total retries is derived.");
    }
    return {};
}

QString policyFormSelectorTip()
{
    return tr("The JSON form of the policy: an SNS subscription's or topic's DeliveryPolicy attribute, or "
              "Zaqar queue metadata.\nSwitching converts the policy when nothing is lost, and says why "
              "when something would be.");
}

QString endpointProtocolTip()
{
    return tr("The endpoint protocol the policy is checked for.\nFor http and https the sum of all planned "
              "delays must not exceed 3600 s, a hard limit of the service.\nsqs subscriptions get the "
              "service's fixed policy (preset sns-aws-managed).");
}

} // namespace relaydesk
