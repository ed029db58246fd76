// SPDX-License-Identifier: MIT
#pragma once

#include "models/policy_evaluation.h"

#include <QWidget>

#include <optional>

class QAction;
class QLabel;
class QMenu;
class QPlainTextEdit;
class QSplitter;

namespace relaydesk {

class AdaptiveSplitter;
class PolicyChart;
class PolicyContextBar;
class PolicyFieldForm;
class PolicyIssueList;
class PolicySchedulePanel;

// The delivery-policy editor (docs/behaviour.md §8.4): the field form and the JSON text side
// by side, kept in sync both ways; the form/dialect and protocol selectors;
// presets; every validation issue at its field and in a list; the schedule
// panel (chart, totals, comparison, export); open and save of policy files.
// The JSON text is the document: form edits are written into it with
// writePolicy(), and every change of it is read and explained by core/policy
// (evaluatePolicyText). GUI thread only; owns its child widgets, menus and
// actions.
class PolicyEditor final : public QWidget {
    Q_OBJECT
public:
    explicit PolicyEditor(QWidget *parent = nullptr);
    ~PolicyEditor() override;
    PolicyEditor(const PolicyEditor &) = delete;
    PolicyEditor &operator=(const PolicyEditor &) = delete;

    // Replaces the document, as if the user had typed `text`.
    void setJsonText(const QString &text);
    // Replaces the document with `text` read from `source` (a file name, "the
    // DeliveryPolicy of events"): not edited, `source` names it on the chart.
    void loadDocument(const QString &text, const QString &source);
    QString jsonText() const;
    // Loads a preset (docs/behaviour.md §3.4) into the editor.
    bool applyPreset(const QString &name);
    // Converts the document to `form` (docs/behaviour.md §2.2). When the conversion would
    // lose something the document stays as it is, the reason is shown, and
    // the result is false.
    bool setPolicyForm(PolicyForm form);
    void setProtocol(EndpointProtocol protocol);
    // Raw message delivery widens the allowed Content-Type (docs/behaviour.md §4.3).
    void setRawDelivery(bool raw);

    bool openPolicyFile(const QString &path, QString *error = nullptr);
    bool savePolicyFile(const QString &path, QString *error = nullptr);

    const PolicyEvaluation &evaluation() const { return m_evaluation; }
    // Edited since opened, saved or loaded (a preset, a file).
    bool isModified() const { return m_modified; }
    // The message under the selectors (conversion refusals and notes), or empty.
    QString message() const;
    PolicySchedulePanel *schedulePanel() const { return m_schedule; }
    PolicyFieldForm *fieldForm() const { return m_form; }
    PolicyChart *chartForTest() const;

    // For the main window's menus; owned by the editor.
    QAction *openAction() const { return m_openAction; }
    QAction *saveAsAction() const { return m_saveAsAction; }
    QAction *copyJsonAction() const { return m_copyJsonAction; }
    QMenu *presetMenu() const { return m_presetMenu; }

    // Splitter positions, for QSettings.
    // The width the form needs beside the JSON and the chart (narrower, the form goes above them).
    int sideBySideWidth() const;
    QByteArray saveLayoutState() const;
    void restoreLayoutState(const QByteArray &state);

signals:
    // After every evaluation of the document (each keystroke, form edit, preset, file...).
    void evaluated();
    void statusMessage(const QString &message);

private:
    QWidget *buildIssuePane();
    QWidget *buildJsonPane();
    void buildActions();
    void setKeyboardOrder();
    void onJsonEdited();
    void onFormEdited();
    void goToIssue(const QString &fieldPath, const QString &kind);
    void replaceText(const QString &text);
    void evaluate();
    void showIssues();
    void showMessage(const QString &text, bool isError);
    void openDialog();
    void saveDialog();
    QString chartLabel() const;

    PolicyFieldForm *m_form = nullptr;
    PolicySchedulePanel *m_schedule = nullptr;
    QPlainTextEdit *m_json = nullptr;
    QLabel *m_jsonTitle = nullptr;
    PolicyIssueList *m_issues = nullptr;
    PolicyContextBar *m_contextBar = nullptr;
    QLabel *m_message = nullptr;
    AdaptiveSplitter *m_mainSplitter = nullptr;
    QSplitter *m_leftSplitter = nullptr;
    QSplitter *m_rightSplitter = nullptr;
    QAction *m_openAction = nullptr;
    QAction *m_saveAsAction = nullptr;
    QAction *m_copyJsonAction = nullptr;
    QMenu *m_presetMenu = nullptr;

    PolicyEvaluation m_evaluation;
    std::optional<DeliveryPolicy> m_policy;        // the last policy the document could be read as
    std::optional<DeliveryPolicy> m_managedOrigin; // the managed preset the document came from
    QString m_source;                              // "sns-example", "policy.json", "new policy"
    bool m_modified = false;                       // edited since loaded from m_source
    bool m_replacing = false;                      // the editor itself is rewriting the JSON text
    QString m_lastDirectory;
};

} // namespace relaydesk
