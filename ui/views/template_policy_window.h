// SPDX-License-Identifier: MIT
#pragma once

#include "scan/found_policy.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QPushButton;

namespace relaydesk {

class PolicyChart;

// One policy of a template, read-only (docs/window.md "Policies in a
// template"): where it is, its service and form, its schedule or lifetime,
// the findings of the scan, the chart of a delivery policy (with its base
// overlaid when it changed), the policy as JSON and Copy as JSON. Nothing
// here edits the template. GUI thread; a window of its own, reused.
class TemplatePolicyWindow final : public QWidget {
    Q_OBJECT
public:
    explicit TemplatePolicyWindow(QWidget *parent = nullptr);

    // Shows `policy`; `before` (a changed policy's base) adds its diff and chart overlay.
    void showPolicy(const FoundPolicy &policy, const FoundPolicy *before = nullptr, const std::string &diff = {});

    QPlainTextEdit *jsonView() const { return m_json; }
    PolicyChart *chart() const { return m_chart; }
    QListWidget *findingList() const { return m_findings; }
    QPushButton *copyButton() const { return m_copy; }
    QLabel *summaryLabel() const { return m_summary; }
    QLabel *diffLabel() const { return m_diff; }

private:
    QLabel *m_where = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_diff = nullptr;   // a changed policy's diff, as `policy diff` shows it
    QListWidget *m_findings = nullptr;
    PolicyChart *m_chart = nullptr;
    QLabel *m_noChart = nullptr;
    QPlainTextEdit *m_json = nullptr;
    QPushButton *m_copy = nullptr;
};

} // namespace relaydesk
