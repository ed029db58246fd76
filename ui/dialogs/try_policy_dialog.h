// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QLabel;
class QLineEdit;
class QPushButton;

namespace relaydesk {

// The small dialog of "Try a policy" (core/mock/policy_trial.h):
// the mock endpoint's script (default "503 x 7, then 200"; checked as typed,
// the parse error under the field in the broker's words) and a line saying
// what will happen. Try (only with a script that parses) emits tryRequested;
// the caller runs the trial and then accepts the dialog or shows its failure
// here. Thread: GUI; owns its widgets.
class TryPolicyDialog final : public QDialog {
    Q_OBJECT
public:
    // `endpointUrl`: the broker's, for the line that names the mock's URL.
    TryPolicyDialog(const QString &endpointUrl, QWidget *parent = nullptr);

    QString script() const;
    QLineEdit *scriptEdit() const { return m_script; }
    QString scriptError() const;
    QPushButton *tryButton() const { return m_try; }
    // The trial's refusal under the field (and Try enabled again).
    void showFailure(const QString &message);
    QString failure() const;

signals:
    void tryRequested();

private:
    void check();

    QLineEdit *m_script = nullptr;
    QLabel *m_scriptError = nullptr;
    QLabel *m_failure = nullptr;
    QPushButton *m_try = nullptr;
};

} // namespace relaydesk
