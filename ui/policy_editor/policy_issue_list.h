// SPDX-License-Identifier: MIT
#pragma once

#include <QListWidget>

namespace relaydesk {

struct PolicyEvaluation;

// The list of every validation finding of the edited policy: errors as
// "field: message", warnings marked as such, a JSON syntax error, or a single
// "no problems" line. Each item keeps its field path (kFieldRole) and kind
// (kKindRole: "error", "warning", "syntax", "ok"). GUI thread only.
class PolicyIssueList final : public QListWidget {
    Q_OBJECT
public:
    static constexpr int kFieldRole = Qt::UserRole;
    static constexpr int kKindRole = Qt::UserRole + 1;

    explicit PolicyIssueList(QWidget *parent = nullptr);
    ~PolicyIssueList() override;
    PolicyIssueList(const PolicyIssueList &) = delete;
    PolicyIssueList &operator=(const PolicyIssueList &) = delete;

    void showEvaluation(const PolicyEvaluation &evaluation);

signals:
    // The user activated a finding: its field path and kind.
    void issueActivated(const QString &fieldPath, const QString &kind);
};

} // namespace relaydesk
