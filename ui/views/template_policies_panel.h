// SPDX-License-Identifier: MIT
#pragma once

#include "scan/policy_scan.h"
#include "scan/scan_comparison.h"

#include <QDockWidget>

#include <optional>

class QLabel;
class QMainWindow;
class QMenu;
class QPushButton;
class QTreeWidget;

namespace relaydesk {

class TemplatePolicyWindow;

// File ▸ Open Template… (docs/window.md "Policies in a template"): a side
// panel listing the policies a template holds, as `relaydesk policy scan`
// finds them (core/scan). Choosing one (Enter, double-click, Show Policy)
// opens it read-only with its chart (TemplatePolicyWindow). A second
// template opened while one is shown is compared with it, as `policy scan
// --base` does: the first is the base, the second the head, and each row says
// added, removed, changed or unchanged. Close Templates starts over. A file
// with no template or policy in it is refused with the reason and changes
// nothing. GUI thread; scans on it (a template is small).
class TemplatePoliciesPanel final : public QDockWidget {
    Q_OBJECT
public:
    explicit TemplatePoliciesPanel(QWidget *parent = nullptr);
    ~TemplatePoliciesPanel() override;

    // Scans `path`: the shown template (first), or the head compared with the
    // shown one (second and later: the previous head becomes the base).
    // False, with the reason shown and in `error`, when it holds no policy source.
    bool openTemplate(const QString &path, QString *error = nullptr);
    void closeTemplates();
    // Opens the row's policy read-only (a removed one as it was in the base).
    void showPolicy(int row);

    QTreeWidget *policyList() const { return m_list; }
    QLabel *titleLabel() const { return m_title; }
    TemplatePolicyWindow *policyWindow() const { return m_window; }

private:
    void fill();
    void chooseTemplate();
    // The row's policy, its base (changed ones), and what changed ("" unchanged).
    struct Row {
        const FoundPolicy *policy = nullptr;
        const FoundPolicy *before = nullptr;
        QString change;
        std::string diff;
    };

    QLabel *m_title = nullptr;
    QTreeWidget *m_list = nullptr;
    QPushButton *m_open = nullptr;
    QPushButton *m_show = nullptr;
    QPushButton *m_close = nullptr;
    TemplatePolicyWindow *m_window = nullptr;
    QString m_headPath;
    QString m_basePath;
    std::optional<ScanResult> m_head;
    std::optional<ScanResult> m_base;
    std::vector<Row> m_rows;
};

// The main window's hook: File ▸ Open Template… (Ctrl+Shift+O) and the panel,
// docked on the right and hidden until a template is opened.
TemplatePoliciesPanel *installTemplatePoliciesPanel(QMainWindow *window, QMenu *fileMenu);

} // namespace relaydesk
