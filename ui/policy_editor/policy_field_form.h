// SPDX-License-Identifier: MIT
#pragma once

#include "policy/delivery_policy.h"
#include "policy/policy_issue.h"

#include <QWidget>

#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QSpinBox;

namespace relaydesk {

// The form half of the policy editor: one input per field of docs/behaviour.md §2.1, with
// ranges, units and tooltips, and every validation issue shown at its
// field (FieldIssueMarker: a red or amber frame, the message in the tooltip,
// dynamic property "policyIssue" = "error" | "warning").
// It only maps widgets to a DeliveryPolicy and back; reading, writing,
// validation and scheduling are core/policy's. Every input's objectName is
// its canonical field name ("minDelayTarget", ...), so tests find them with
// findChild. GUI thread only; owns its child widgets.
class PolicyFieldForm final : public QWidget {
    Q_OBJECT
public:
    explicit PolicyFieldForm(QWidget *parent = nullptr);
    ~PolicyFieldForm() override;
    PolicyFieldForm(const PolicyFieldForm &) = delete;
    PolicyFieldForm &operator=(const PolicyFieldForm &) = delete;

    // Shows `policy` (its form decides which inputs apply). Never emits
    // edited(); inputs whose value already matches are left alone, so the
    // one being typed in keeps its cursor.
    void setPolicy(const DeliveryPolicy &policy);

    // `base` with the inputs' values applied. A section (retry, throttle,
    // request) absent from `base` stays absent unless an input of it now
    // differs from what the absent section means.
    DeliveryPolicy policyFrom(const DeliveryPolicy &base) const;

    // Marks the inputs whose JSON path (in `form`) matches an issue, or the
    // section box holding an unknown key; clears earlier marks.
    void showIssues(PolicyForm form, const PolicyIssues &errors, const PolicyIssues &warnings);

    // The input (or section box) an issue's field path points at; nullptr
    // for document-level issues.
    QWidget *widgetForPath(PolicyForm form, const std::string &path) const;

    // The inputs in keyboard order.
    QList<QWidget *> focusChain() const;

signals:
    // The user changed an input.
    void edited();

private:
    struct Field {
        std::string canonical;   // docs/behaviour.md §2.1 name
        QWidget *input = nullptr;
        QLabel *label = nullptr;
        QGroupBox *section = nullptr;
    };

    QGroupBox *buildRetrySection();
    QGroupBox *buildThrottleSection();
    QGroupBox *buildRequestSection();
    QGroupBox *buildOverrideSection();
    QSpinBox *addSpin(QGroupBox *section, const std::string &canonical, int maximum, const QString &suffix);
    void addRow(QGroupBox *section, const std::string &canonical, QWidget *input, QWidget *row = nullptr);
    void updateWords();
    void updateEnabled();
    void updateBackoffNote();

    std::vector<Field> m_fields;
    PolicyForm m_form = PolicyForm::SnsSubscription;
    bool m_updating = false;   // setPolicy() at work: inputs do not emit edited()
    QGroupBox *m_retrySection = nullptr;
    QGroupBox *m_throttleSection = nullptr;
    QGroupBox *m_requestSection = nullptr;
    QGroupBox *m_overrideSection = nullptr;
    QSpinBox *m_numRetries = nullptr;
    QSpinBox *m_numNoDelayRetries = nullptr;
    QSpinBox *m_numMinDelayRetries = nullptr;
    QSpinBox *m_numMaxDelayRetries = nullptr;
    QSpinBox *m_minDelayTarget = nullptr;
    QSpinBox *m_maxDelayTarget = nullptr;
    QComboBox *m_backoffFunction = nullptr;
    QLabel *m_backoffNote = nullptr;
    QSpinBox *m_maxReceivesPerSecond = nullptr;
    QCheckBox *m_noLimit = nullptr;
    QComboBox *m_headerContentType = nullptr;
    QCheckBox *m_disableOverrides = nullptr;
    QLabel *m_formNote = nullptr;
};

} // namespace relaydesk
