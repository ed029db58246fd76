// SPDX-License-Identifier: MIT
#include "policy_editor/policy_issue_list.h"

#include "models/policy_evaluation.h"

#include <QStyle>

namespace relaydesk {

PolicyIssueList::PolicyIssueList(QWidget *parent)
    : QListWidget(parent)
{
    setObjectName(QStringLiteral("issueList"));
    setWordWrap(true);
    setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // long problems wrap, the pane never scrolls sideways
    setTextElideMode(Qt::ElideNone);
    setIconSize(QSize(16, 16));
    setToolTip(tr("Every error and warning of the policy; activate one to go to its field."));
    connect(this, &QListWidget::itemActivated, this, [this](QListWidgetItem *item) {
        emit issueActivated(item->data(kFieldRole).toString(), item->data(kKindRole).toString());
    });
}

PolicyIssueList::~PolicyIssueList() = default;

void PolicyIssueList::showEvaluation(const PolicyEvaluation &evaluation)
{
    clear();
    const auto add = [this](const QString &text, const QString &field, const QString &kind, QStyle::StandardPixmap icon) {
        auto *item = new QListWidgetItem(style()->standardIcon(icon), text, this);
        item->setData(kFieldRole, field);
        item->setData(kKindRole, kind);
        item->setToolTip(text);
    };
    if (!evaluation.explanation) {
        add(tr("JSON: %1").arg(evaluation.syntaxError), {}, QStringLiteral("syntax"), QStyle::SP_MessageBoxCritical);
        return;
    }
    const PolicyValidation &validation = evaluation.explanation->validation;
    const auto text = [](const PolicyIssue &issue) {
        const QString message = QString::fromStdString(issue.message);
        return issue.field.empty() ? message : QString::fromStdString(issue.field) + QStringLiteral(": ") + message;
    };
    for (const PolicyIssue &issue : validation.errors)
        add(text(issue), QString::fromStdString(issue.field), QStringLiteral("error"), QStyle::SP_MessageBoxCritical);
    for (const PolicyIssue &issue : validation.warnings)
        add(tr("Warning — %1").arg(text(issue)), QString::fromStdString(issue.field), QStringLiteral("warning"),
            QStyle::SP_MessageBoxWarning);
    if (validation.errors.empty() && validation.warnings.empty())
        add(tr("No problems: the policy is valid."), {}, QStringLiteral("ok"), QStyle::SP_DialogApplyButton);
}

} // namespace relaydesk
