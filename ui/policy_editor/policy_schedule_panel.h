// SPDX-License-Identifier: MIT
#pragma once

#include "policy/policy_validation.h"
#include "policy/retry_schedule.h"

#include <QWidget>

#include <optional>

class QAction;
class QLabel;
class QMenu;
class QPushButton;
class QSpinBox;
class QToolButton;

namespace relaydesk {

class PolicyChart;
struct PolicyEvaluation;

// The schedule half of the policy editor: the four-phase chart (PolicyChart),
// the totals line, the comparison overlay (a preset or a policy file) and
// chart export. It keeps the last valid schedule on show while the edited
// policy is invalid, and says so. Schedules and summaries come from
// core/policy. GUI thread only; owns its child widgets, menus and actions.
class PolicySchedulePanel final : public QWidget {
    Q_OBJECT
public:
    explicit PolicySchedulePanel(QWidget *parent = nullptr);
    ~PolicySchedulePanel() override;
    PolicySchedulePanel(const PolicySchedulePanel &) = delete;
    PolicySchedulePanel &operator=(const PolicySchedulePanel &) = delete;

    // Shows the schedule of a valid evaluation under `label`; an invalid one
    // leaves the last valid schedule on the chart and says so.
    void showEvaluation(const PolicyEvaluation &evaluation, const QString &label);
    // Comparisons are planned for the same protocol as the edited policy.
    void setCheckContext(const PolicyCheckContext &context);

    // Overlays a preset's or a file's schedule; false and `error` when it has
    // none (unreadable, invalid).
    bool compareWithPreset(const QString &name, QString *error = nullptr);
    bool compareWithFile(const QString &path, QString *error = nullptr);
    void clearComparison();
    QString comparisonName() const { return m_comparisonName; }

    // Writes the chart as PNG or SVG (by suffix) at kExportSize.
    bool exportChart(const QString &path, QString *error = nullptr);
    static constexpr QSize kExportSize{1200, 700};

    QString totalsText() const;
    bool showsLastValid() const;   // the policy is invalid, the chart shows an older one
    const std::optional<RetrySchedule> &lastValidSchedule() const { return m_lastValid; }
    PolicyChart *chart() const { return m_chart; }
    // The inputs in keyboard order.
    QList<QWidget *> focusChain() const;

    QMenu *compareMenu() const { return m_compareMenu; }
    QAction *clearComparisonAction() const { return m_clearComparisonAction; }
    QAction *exportAction() const { return m_exportAction; }

signals:
    void statusMessage(const QString &message);

private:
    void buildCompareMenu();
    void compareWithFileDialog();
    void exportDialog();
    void setComparison(const std::optional<RetrySchedule> &schedule, const QString &name);
    void reportComparisonError(const QString &error);

    PolicyChart *m_chart = nullptr;
    QLabel *m_totals = nullptr;
    QLabel *m_details = nullptr;
    QLabel *m_staleNote = nullptr;
    QPushButton *m_compareButton = nullptr;
    QPushButton *m_clearComparisonButton = nullptr;
    QToolButton *m_exportButton = nullptr;
    QSpinBox *m_jitter = nullptr;
    QMenu *m_compareMenu = nullptr;
    QAction *m_clearComparisonAction = nullptr;
    QAction *m_exportAction = nullptr;
    PolicyCheckContext m_context;
    std::optional<RetrySchedule> m_lastValid;
    QString m_lastValidLabel;
    QString m_comparisonName;
    QString m_lastDirectory;
};

} // namespace relaydesk
