// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

class QAction;

namespace relaydesk {

class PolicyEditor;

// The delivery-policy editor on its own (Tools ▸ Delivery Policy Editor…):
// a policy that belongs to no entity yet — explain, validate, compare,
// export the chart. Its menus are the editor's own actions, and Broker ▸
// Try a Policy… (enabled by the owner while a broker runs; it emits
// tryPolicyRequested with the editor's text); its splitter layout is
// remembered (QSettings "policyEditor/layout").
// Thread: GUI; owns the editor.
class PolicyEditorWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit PolicyEditorWindow(QWidget *parent = nullptr);
    PolicyEditor *editor() const { return m_editor; }
    QAction *tryAction() const { return m_try; }

signals:
    void tryPolicyRequested(const QString &policyJson);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    PolicyEditor *m_editor = nullptr;
    QAction *m_try = nullptr;
    bool m_closeConfirmed = false; // the question about unsaved edits was answered "Close"
};

} // namespace relaydesk
