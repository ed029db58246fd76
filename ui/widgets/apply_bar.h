// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLabel;
class QPushButton;

namespace relaydesk {

// The line under an editor page: a message ("Applied.", a refusal naming no
// field) and Revert / Apply (Ctrl+Return). GUI thread only; owns its widgets.
class ApplyBar final : public QWidget {
    Q_OBJECT
public:
    // `applyTip`: what Apply writes.
    explicit ApplyBar(const QString &applyTip, QWidget *parent = nullptr);
    ~ApplyBar() override;
    ApplyBar(const ApplyBar &) = delete;
    ApplyBar &operator=(const ApplyBar &) = delete;

    void showMessage(const QString &text, bool isError);
    QString message() const;
    // Apply when there are edits and nothing is under way; Revert when there are edits.
    void setState(bool modified, bool busy, bool canApply);
    QPushButton *applyButton() const { return m_apply; }
    QPushButton *revertButton() const { return m_revert; }

signals:
    void applyRequested();
    void revertRequested();

private:
    QLabel *m_message = nullptr;
    QPushButton *m_revert = nullptr;
    QPushButton *m_apply = nullptr;
};

} // namespace relaydesk
