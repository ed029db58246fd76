// SPDX-License-Identifier: MIT
#include "policy_editor/policy_field_form.h"

#include "widgets/field_issue_marker.h"
#include "policy_editor/policy_field_help.h"

#include "policy/policy_json.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>

#include <map>

namespace relaydesk {
namespace {

constexpr int kCountMaximum = 999'999;     // managed presets plan 100 000 post-backoff retries
constexpr int kDelayMaximum = 86'400;      // above the 3600 s rule, so a wrong value shows its error
constexpr int kRateMaximum = 1'000'000;
const char *const kBaseTipProperty = "policyBaseTip";

const char *const kContentTypes[] = {
    "text/plain; charset=UTF-8", "text/plain", "application/json", "application/json; charset=UTF-8",
    "application/xml", "application/octet-stream",
};

// Shows `value` even when it lies outside the input's usual range, so a wrong
// number in the JSON is displayed as it is (with its error), not clamped.
void showValue(QSpinBox *spin, int value)
{
    if (value < spin->minimum())
        spin->setMinimum(value);
    if (value > spin->maximum())
        spin->setMaximum(value);
    if (spin->value() != value)
        spin->setValue(value);
}

std::string parentPath(const std::string &path)
{
    const auto dot = path.rfind('.');
    return dot == std::string::npos ? std::string() : path.substr(0, dot);
}

bool pathWithin(const std::string &path, const std::string &prefix)
{
    return path == prefix || (path.size() > prefix.size() && path.compare(0, prefix.size(), prefix) == 0
                              && path[prefix.size()] == '.');
}

} // namespace

PolicyFieldForm::PolicyFieldForm(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("policyFieldForm"));

    m_formNote = new QLabel(this);
    m_formNote->setObjectName(QStringLiteral("formHint"));
    m_formNote->setWordWrap(true);
    m_formNote->setForegroundRole(QPalette::PlaceholderText);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_formNote);
    layout->addWidget(buildRetrySection());
    layout->addWidget(buildThrottleSection());
    layout->addWidget(buildRequestSection());
    layout->addWidget(buildOverrideSection());
    layout->addStretch(1);

    DeliveryPolicy defaults;
    defaults.retry = RetryPolicy{};
    setPolicy(defaults);
}

PolicyFieldForm::~PolicyFieldForm() = default;

QGroupBox *PolicyFieldForm::buildRetrySection()
{
    m_retrySection = new QGroupBox(tr("Retries"), this);
    m_retrySection->setObjectName(QStringLiteral("healthyRetryPolicy"));
    m_numRetries = addSpin(m_retrySection, "numRetries", kCountMaximum, {});
    m_numNoDelayRetries = addSpin(m_retrySection, "numNoDelayRetries", kCountMaximum, {});
    m_numMinDelayRetries = addSpin(m_retrySection, "numMinDelayRetries", kCountMaximum, {});
    m_numMaxDelayRetries = addSpin(m_retrySection, "numMaxDelayRetries", kCountMaximum, {});
    m_minDelayTarget = addSpin(m_retrySection, "minDelayTarget", kDelayMaximum, tr(" s"));
    m_maxDelayTarget = addSpin(m_retrySection, "maxDelayTarget", kDelayMaximum, tr(" s"));

    m_backoffFunction = new QComboBox(m_retrySection);
    for (BackoffFunction function : {BackoffFunction::Linear, BackoffFunction::Arithmetic,
                                     BackoffFunction::Geometric, BackoffFunction::Exponential}) {
        const std::string_view name = backoffFunctionName(function);
        m_backoffFunction->addItem(QString::fromUtf8(name.data(), qsizetype(name.size())), int(function));
    }
    connect(m_backoffFunction, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_updating)
            emit edited();
    });
    addRow(m_retrySection, "backoffFunction", m_backoffFunction);

    m_backoffNote = new QLabel(m_retrySection);
    m_backoffNote->setObjectName(QStringLiteral("backoffNote"));
    m_backoffNote->setWordWrap(true);
    m_backoffNote->setForegroundRole(QPalette::PlaceholderText);
    static_cast<QFormLayout *>(m_retrySection->layout())->addRow(m_backoffNote);
    return m_retrySection;
}

QGroupBox *PolicyFieldForm::buildThrottleSection()
{
    m_throttleSection = new QGroupBox(tr("Throttle"), this);
    m_throttleSection->setObjectName(QStringLiteral("throttlePolicy"));
    m_maxReceivesPerSecond = new QSpinBox(m_throttleSection);
    m_maxReceivesPerSecond->setRange(0, kRateMaximum);
    m_maxReceivesPerSecond->setSuffix(tr(" /s"));
    m_maxReceivesPerSecond->setKeyboardTracking(false);
    m_maxReceivesPerSecond->setValue(1);
    m_noLimit = new QCheckBox(tr("No limit"), m_throttleSection);
    m_noLimit->setObjectName(QStringLiteral("noLimit"));
    m_noLimit->setToolTip(tr("No throttle: deliveries go out as fast as they come (the default)."));
    auto *row = new QWidget(m_throttleSection);
    auto *rowLayout = new QHBoxLayout(row);
    rowLayout->setContentsMargins(0, 0, 0, 0);
    rowLayout->addWidget(m_maxReceivesPerSecond, 1);
    rowLayout->addWidget(m_noLimit);
    addRow(m_throttleSection, "maxReceivesPerSecond", m_maxReceivesPerSecond, row);
    connect(m_maxReceivesPerSecond, &QSpinBox::valueChanged, this, [this] {
        if (!m_updating)
            emit edited();
    });
    connect(m_noLimit, &QCheckBox::toggled, this, [this](bool noLimit) {
        m_maxReceivesPerSecond->setEnabled(!noLimit && m_form != PolicyForm::Zaqar);
        if (!m_updating)
            emit edited();
    });
    return m_throttleSection;
}

QGroupBox *PolicyFieldForm::buildRequestSection()
{
    m_requestSection = new QGroupBox(tr("Request"), this);
    m_requestSection->setObjectName(QStringLiteral("requestPolicy"));
    m_headerContentType = new QComboBox(m_requestSection);
    m_headerContentType->setEditable(true);
    m_headerContentType->setInsertPolicy(QComboBox::NoInsert);
    for (const char *type : kContentTypes)
        m_headerContentType->addItem(QString::fromLatin1(type));
    // Not as wide as the longest type: the form column stays narrow enough to sit beside the chart.
    m_headerContentType->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_headerContentType->setMinimumContentsLength(16);
    connect(m_headerContentType, &QComboBox::currentTextChanged, this, [this] {
        if (!m_updating)
            emit edited();
    });
    addRow(m_requestSection, "headerContentType", m_headerContentType);
    return m_requestSection;
}

QGroupBox *PolicyFieldForm::buildOverrideSection()
{
    m_overrideSection = new QGroupBox(tr("Topic and queue level"), this);
    m_overrideSection->setObjectName(QStringLiteral("overrideSection"));
    m_disableOverrides = new QCheckBox(m_overrideSection);
    connect(m_disableOverrides, &QCheckBox::toggled, this, [this] {
        if (!m_updating)
            emit edited();
    });
    auto *layout = new QFormLayout(m_overrideSection);
    layout->addRow(m_disableOverrides);
    m_fields.push_back({"disableSubscriptionOverrides", m_disableOverrides, nullptr, m_overrideSection});
    m_disableOverrides->setObjectName(QStringLiteral("disableSubscriptionOverrides"));
    return m_overrideSection;
}

QSpinBox *PolicyFieldForm::addSpin(QGroupBox *section, const std::string &canonical, int maximum,
                                   const QString &suffix)
{
    auto *spin = new QSpinBox(section);
    spin->setRange(0, maximum);
    spin->setSuffix(suffix);
    spin->setAccelerated(true);
    // A typed number counts when it is complete (Enter, leaving the field, an
    // arrow step), so typing 120 never charts 1 and 12 on the way.
    spin->setKeyboardTracking(false);
    connect(spin, &QSpinBox::valueChanged, this, [this] {
        if (!m_updating)
            emit edited();
    });
    addRow(section, canonical, spin);
    return spin;
}

void PolicyFieldForm::addRow(QGroupBox *section, const std::string &canonical, QWidget *input, QWidget *row)
{
    auto *layout = static_cast<QFormLayout *>(section->layout());
    if (!layout) {
        layout = new QFormLayout(section);
        layout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    }
    input->setObjectName(QString::fromStdString(canonical));
    auto *label = new QLabel(section);
    label->setBuddy(input);
    layout->addRow(label, row ? row : input);
    m_fields.push_back({canonical, input, label, section});
}

void PolicyFieldForm::setPolicy(const DeliveryPolicy &policy)
{
    const bool formChanged = policy.form != m_form;
    m_updating = true;
    m_form = policy.form;
    const RetryPolicy retry =
        policy.retry.value_or(policy.form == PolicyForm::Zaqar ? zaqarDefaultRetryPolicy() : RetryPolicy{});
    showValue(m_numRetries, retry.numRetries);
    showValue(m_numNoDelayRetries, retry.numNoDelayRetries);
    showValue(m_numMinDelayRetries, retry.numMinDelayRetries);
    showValue(m_numMaxDelayRetries, retry.numMaxDelayRetries);
    showValue(m_minDelayTarget, retry.minDelayTarget);
    showValue(m_maxDelayTarget, retry.maxDelayTarget);
    const int functionIndex = m_backoffFunction->findData(int(retry.backoffFunction));
    if (m_backoffFunction->currentIndex() != functionIndex)
        m_backoffFunction->setCurrentIndex(functionIndex);

    m_noLimit->setChecked(!policy.maxReceivesPerSecond.has_value());
    if (policy.maxReceivesPerSecond)
        showValue(m_maxReceivesPerSecond, *policy.maxReceivesPerSecond);
    const QString contentType = QString::fromStdString(policy.headerContentTypeOrDefault());
    if (m_headerContentType->currentText() != contentType)
        m_headerContentType->setEditText(contentType);
    m_disableOverrides->setChecked(policy.disableSubscriptionOverrides);
    m_updating = false;

    const int backoff = retry.backoffRetries();
    if (backoff < 0)
        m_backoffNote->setText(tr("Backoff phase: %1 retries — the total does not cover the other phases.")
                                   .arg(backoff));
    else if (policy.form == PolicyForm::Zaqar)
        m_backoffNote->setText(tr("Backoff phase: %n retries, one per 5 s step from the minimum to the maximum delay.", nullptr, backoff));
    else
        m_backoffNote->setText(tr("Backoff phase: %n retries (total minus the other phases).", nullptr, backoff));

    if (formChanged || m_formNote->text().isEmpty())
        updateWords();
    updateEnabled();
}

DeliveryPolicy PolicyFieldForm::policyFrom(const DeliveryPolicy &base) const
{
    DeliveryPolicy policy = base;
    const RetryPolicy absent = base.form == PolicyForm::Zaqar ? zaqarDefaultRetryPolicy() : RetryPolicy{};
    RetryPolicy retry = base.retry.value_or(absent);
    if (base.form != PolicyForm::Zaqar)   // derived in the Zaqar form
        retry.numRetries = m_numRetries->value();
    retry.numNoDelayRetries = m_numNoDelayRetries->value();
    retry.numMinDelayRetries = m_numMinDelayRetries->value();
    retry.numMaxDelayRetries = m_numMaxDelayRetries->value();
    retry.minDelayTarget = m_minDelayTarget->value();
    retry.maxDelayTarget = m_maxDelayTarget->value();
    retry.backoffFunction = BackoffFunction(m_backoffFunction->currentData().toInt());
    if (base.retry || retry != absent)
        policy.retry = retry;

    if (base.form != PolicyForm::Zaqar) {
        const std::optional<int> rate =
            m_noLimit->isChecked() ? std::nullopt : std::optional<int>(m_maxReceivesPerSecond->value());
        if (rate != base.maxReceivesPerSecond) {
            policy.maxReceivesPerSecond = rate;
            policy.hasThrottleSection = base.hasThrottleSection || rate.has_value();
        }
        const std::string contentType = m_headerContentType->currentText().trimmed().toStdString();
        if (contentType != base.headerContentTypeOrDefault()) {
            policy.headerContentType = contentType;
            policy.hasRequestSection = true;
        }
    }
    if (base.form != PolicyForm::SnsSubscription)
        policy.disableSubscriptionOverrides = m_disableOverrides->isChecked();
    return policy;
}

void PolicyFieldForm::updateWords()
{
    m_formNote->setText(policyFormHint(m_form));
    for (const Field &field : m_fields) {
        const QString tip = policyFieldTip(field.canonical, m_form);
        field.input->setProperty(kBaseTipProperty, tip);
        field.input->setToolTip(tip);
        const QString label = policyFieldLabel(field.canonical, m_form);
        if (field.label)
            field.label->setText(label + QLatin1Char(':'));
        else if (auto *box = qobject_cast<QCheckBox *>(field.input))
            box->setText(label);
    }
    const bool zaqar = m_form == PolicyForm::Zaqar;
    m_retrySection->setTitle(zaqar ? tr("Retries  (_retry_policy)") : m_form == PolicyForm::SnsTopic
                                                                           ? tr("Retries  (defaultHealthyRetryPolicy)")
                                                                           : tr("Retries  (healthyRetryPolicy)"));
    m_throttleSection->setTitle(zaqar ? tr("Throttle  (not in the Zaqar form)") : tr("Throttle"));
    m_requestSection->setTitle(zaqar ? tr("Request  (not in the Zaqar form)") : tr("Request"));
    m_overrideSection->setTitle(m_form == PolicyForm::SnsSubscription ? tr("Topic and queue level  (not in this form)")
                                                                      : tr("Topic and queue level"));
    for (QGroupBox *section : {m_retrySection, m_throttleSection, m_requestSection, m_overrideSection}) {
        section->setProperty(kBaseTipProperty, QString());
        section->setToolTip({});
    }
}

void PolicyFieldForm::updateEnabled()
{
    const bool zaqar = m_form == PolicyForm::Zaqar;
    m_numRetries->setEnabled(!zaqar);
    m_throttleSection->setEnabled(!zaqar);
    m_requestSection->setEnabled(!zaqar);
    m_maxReceivesPerSecond->setEnabled(!zaqar && !m_noLimit->isChecked());
    m_overrideSection->setEnabled(m_form != PolicyForm::SnsSubscription);
}

QWidget *PolicyFieldForm::widgetForPath(PolicyForm form, const std::string &path) const
{
    if (path.empty())
        return nullptr;
    // Candidate paths: each field's own, and the section holding it (for
    // issues such as an unknown key inside a section).
    std::map<std::string, QWidget *> candidates;
    const std::string retryPath = policyFieldPath(form, "healthyRetryPolicy");
    if (!retryPath.empty())
        candidates.emplace(retryPath, m_retrySection);
    for (const Field &field : m_fields) {
        const std::string fieldPath = policyFieldPath(form, field.canonical);
        if (fieldPath.empty())
            continue;
        candidates[fieldPath] = field.input;
        if (field.section != m_overrideSection && field.section != m_retrySection) {
            const std::string sectionPath = parentPath(fieldPath);
            if (!sectionPath.empty())
                candidates.emplace(sectionPath, field.section);
        }
    }
    QWidget *best = nullptr;
    size_t bestLength = 0;
    for (const auto &[candidate, widget] : candidates) {
        if (pathWithin(path, candidate) && candidate.size() >= bestLength) {
            best = widget;
            bestLength = candidate.size();
        }
    }
    return best;
}

QList<QWidget *> PolicyFieldForm::focusChain() const
{
    return {m_numRetries,     m_numNoDelayRetries, m_numMinDelayRetries,   m_numMaxDelayRetries,
            m_minDelayTarget, m_maxDelayTarget,    m_backoffFunction,      m_maxReceivesPerSecond,
            m_noLimit,        m_headerContentType, m_disableOverrides};
}

void PolicyFieldForm::showIssues(PolicyForm form, const PolicyIssues &errors, const PolicyIssues &warnings)
{
    QList<QWidget *> marked;
    std::map<QWidget *, std::pair<QString, QStringList>> issues;   // widget => (kind, messages)
    auto collect = [&](const PolicyIssues &list, const QString &kind) {
        for (const PolicyIssue &issue : list) {
            QWidget *widget = widgetForPath(form, issue.field);
            if (!widget)
                continue;
            auto &entry = issues[widget];
            if (entry.first != QLatin1String("error"))
                entry.first = kind;
            entry.second << QString::fromStdString(issue.message);
        }
    };
    collect(errors, QStringLiteral("error"));
    collect(warnings, QStringLiteral("warning"));

    QList<QWidget *> all = {m_retrySection, m_throttleSection, m_requestSection, m_overrideSection};
    for (const Field &field : m_fields)
        all << field.input;
    for (QWidget *widget : all) {
        const auto it = issues.find(widget);
        if (it == issues.end()) {
            FieldIssueMarker::mark(widget, {}, widget->property(kBaseTipProperty).toString());
            continue;
        }
        const QString sign = it->second.first == QLatin1String("error") ? QStringLiteral("✖ ") : QStringLiteral("⚠ ");
        QString tip = sign + it->second.second.join(QLatin1Char('\n') + sign);
        const QString base = widget->property(kBaseTipProperty).toString();
        if (!base.isEmpty())
            tip += QLatin1String("\n\n") + base;
        FieldIssueMarker::mark(widget, it->second.first, tip);
    }
}

} // namespace relaydesk
