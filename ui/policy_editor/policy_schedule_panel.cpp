// SPDX-License-Identifier: MIT
#include "policy_editor/policy_schedule_panel.h"

#include "widgets/flow_layout.h"

#include "charts/policy_chart.h"
#include "host/policy_input.h"
#include "widgets/error_text.h"
#include "models/policy_evaluation.h"

#include "policy/policy_presets.h"

#include <QAction>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace relaydesk {
namespace {

QString fromStd(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QString dialectLabel(Dialect dialect)
{
    return dialect == Dialect::Zaqar ? PolicySchedulePanel::tr("Zaqar dialect") : PolicySchedulePanel::tr("SNS dialect");
}

} // namespace

PolicySchedulePanel::PolicySchedulePanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("policySchedulePanel"));

    m_compareMenu = new QMenu(tr("Compare &With"), this);
    m_compareMenu->setObjectName(QStringLiteral("compareMenu"));
    buildCompareMenu();
    m_clearComparisonAction = new QAction(tr("C&lear Comparison"), this);
    m_clearComparisonAction->setEnabled(false);
    connect(m_clearComparisonAction, &QAction::triggered, this, &PolicySchedulePanel::clearComparison);
    m_exportAction = new QAction(tr("&Export Chart (PNG/SVG)…"), this);
    m_exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    connect(m_exportAction, &QAction::triggered, this, &PolicySchedulePanel::exportDialog);

    m_compareButton = new QPushButton(tr("Compare &with"), this);
    m_compareButton->setObjectName(QStringLiteral("compareButton"));
    m_compareButton->setToolTip(tr("Overlay a preset or a policy file on the chart"));
    m_compareButton->setMenu(m_compareMenu);
    m_clearComparisonButton = new QPushButton(tr("Clear comparison"), this);
    m_clearComparisonButton->setObjectName(QStringLiteral("clearComparisonButton"));
    m_clearComparisonButton->setEnabled(false);
    connect(m_clearComparisonButton, &QPushButton::clicked, this, &PolicySchedulePanel::clearComparison);

    m_jitter = new QSpinBox(this);
    m_jitter->setObjectName(QStringLiteral("jitterPercent"));
    m_jitter->setRange(0, 50);
    m_jitter->setValue(10);
    m_jitter->setPrefix(QStringLiteral("± "));
    m_jitter->setSuffix(QStringLiteral(" %"));
    m_jitter->setToolTip(tr("Jitter band: each non-zero delay d is executed somewhere in [d·(1 − J), d·(1 + J)]. "
                            "The schedule is planned without jitter; the 3600 s cap applies to planned delays."));
    auto *jitterLabel = new QLabel(tr("&Jitter:"), this);
    jitterLabel->setBuddy(m_jitter);

    m_exportButton = new QToolButton(this);
    m_exportButton->setObjectName(QStringLiteral("exportButton"));
    m_exportButton->setDefaultAction(m_exportAction);
    m_exportButton->setToolButtonStyle(Qt::ToolButtonTextOnly);

    // The controls wrap onto a second row rather than widen the page.
    auto *controls = new FlowLayout(nullptr, 8);
    controls->addWidget(m_compareButton);
    controls->addWidget(m_clearComparisonButton);
    controls->addWidget(labelledPair(jitterLabel, m_jitter, this));
    controls->addWidget(m_exportButton);

    m_chart = new PolicyChart(this);
    m_chart->setObjectName(QStringLiteral("policyChart"));
    m_chart->setMinimumSize(280, 200); // the page fits beside the tree at 1280 pixels
    m_chart->setJitterFraction(0.1);
    connect(m_jitter, &QSpinBox::valueChanged, this, [this](int percent) { m_chart->setJitterFraction(percent / 100.0); });

    m_totals = new QLabel(this);
    m_totals->setObjectName(QStringLiteral("totalsLabel"));
    m_totals->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont totalsFont = m_totals->font();
    totalsFont.setBold(true);
    totalsFont.setPointSizeF(totalsFont.pointSizeF() * 1.15);
    m_totals->setFont(totalsFont);
    m_details = new QLabel(this);
    m_details->setObjectName(QStringLiteral("scheduleDetails"));
    m_details->setForegroundRole(QPalette::PlaceholderText);
    m_details->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    m_totals->setWordWrap(true);
    m_staleNote = new QLabel(this);
    m_staleNote->setObjectName(QStringLiteral("chartStaleNote"));
    m_staleNote->setWordWrap(true);
    showAsError(m_staleNote);
    m_staleNote->hide();

    auto *totals = new QHBoxLayout;
    totals->addWidget(m_totals);
    totals->addSpacing(12);
    totals->addWidget(m_details, 1);

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(m_chart, 1);
    layout->addLayout(totals);
    layout->addWidget(m_staleNote);
}

PolicySchedulePanel::~PolicySchedulePanel() = default;

void PolicySchedulePanel::buildCompareMenu()
{
    for (const PolicyPreset &preset : policyPresets()) {
        const QString name = QString::fromStdString(preset.name);
        QAction *action = m_compareMenu->addAction(name + QStringLiteral("  —  ") + QString::fromStdString(preset.description));
        connect(action, &QAction::triggered, this, [this, name] {
            QString error;
            if (!compareWithPreset(name, &error))
                reportComparisonError(error);
        });
    }
    m_compareMenu->addSeparator();
    QAction *file = m_compareMenu->addAction(tr("Policy &File…"));
    connect(file, &QAction::triggered, this, &PolicySchedulePanel::compareWithFileDialog);
}

void PolicySchedulePanel::showEvaluation(const PolicyEvaluation &evaluation, const QString &label)
{
    if (evaluation.valid() && evaluation.schedule()) {
        const RetrySchedule &schedule = *evaluation.schedule();
        m_lastValid = schedule;
        m_lastValidLabel = label;
        m_chart->setSchedule(schedule, label);
        m_totals->setText(QString::fromStdString(scheduleSummary(schedule)));
        QString details = dialectLabel(schedule.dialect());
        const PolicyValidation &validation = evaluation.explanation->validation;
        if (validation.form == PolicyForm::SnsTopic)
            details += tr(" · as the effective policy of a subscription without its own");
        if (validation.policy && validation.policy->managed)
            details += tr(" · fixed service policy, exempt from the custom limits");
        else
            details += tr(" · checked for %1").arg(fromStd(endpointProtocolName(m_context.protocol)));
        m_details->setText(details);
        m_staleNote->hide();
        return;
    }
    const qsizetype errors = evaluation.explanation ? qsizetype(evaluation.explanation->validation.errors.size()) : 1;
    const QString problem = evaluation.explanation ? tr("The policy has %n error(s)", nullptr, int(errors))
                                                   : tr("The JSON cannot be read");
    if (m_lastValid)
        m_staleNote->setText(problem + tr(": the chart and totals show the last valid policy (%1).").arg(m_lastValidLabel));
    else
        m_staleNote->setText(problem + tr(": there is no valid schedule to show yet."));
    m_staleNote->show();
}

void PolicySchedulePanel::setCheckContext(const PolicyCheckContext &context)
{
    m_context = context;
}

bool PolicySchedulePanel::compareWithPreset(const QString &name, QString *error)
{
    const std::optional<PolicyPreset> preset = findPolicyPreset(name.toStdString());
    if (!preset) {
        if (error)
            *error = tr("There is no preset named %1.").arg(name);
        return false;
    }
    const PolicyEvaluation evaluation = evaluatePolicy(preset->policy, name, m_context);
    if (!evaluation.schedule()) {
        const PolicyIssues &errors = evaluation.explanation->validation.errors;
        if (error)
            *error = tr("%1 is not valid for %2: %3")
                         .arg(name, fromStd(endpointProtocolName(m_context.protocol)),
                              errors.empty() ? QString() : QString::fromStdString(errors.front().message));
        return false;
    }
    setComparison(evaluation.schedule(), name);
    return true;
}

bool PolicySchedulePanel::compareWithFile(const QString &path, QString *error)
{
    const LoadedPolicy loaded = loadPolicy({path, {}}, m_context);
    QString problem = loaded.error;
    if (problem.startsWith(QLatin1String("relaydesk: ")))
        problem = problem.mid(11);
    if (loaded.explanation && !loaded.explanation->schedule) {
        const PolicyIssues &errors = loaded.explanation->validation.errors;
        problem = tr("%1 is not a valid policy: %2")
                      .arg(QFileInfo(path).fileName(),
                           errors.empty() ? QString() : QString::fromStdString(errors.front().field + ": " + errors.front().message));
    }
    if (!loaded.explanation || !loaded.explanation->schedule) {
        if (error)
            *error = problem;
        return false;
    }
    setComparison(loaded.explanation->schedule, QFileInfo(path).fileName());
    return true;
}

void PolicySchedulePanel::clearComparison()
{
    setComparison(std::nullopt, {});
}

void PolicySchedulePanel::setComparison(const std::optional<RetrySchedule> &schedule, const QString &name)
{
    m_chart->setComparison(schedule, name);
    m_comparisonName = schedule ? name : QString();
    m_clearComparisonButton->setToolTip(
        schedule ? tr("Compared with %1: %2").arg(name, QString::fromStdString(scheduleSummary(*schedule)))
                 : tr("No comparison on the chart"));
    m_clearComparisonButton->setEnabled(schedule.has_value());
    m_clearComparisonAction->setEnabled(schedule.has_value());
}

void PolicySchedulePanel::reportComparisonError(const QString &error)
{
    QMessageBox::warning(this, tr("Compare With"), tr("Cannot compare: %1").arg(error));
}

void PolicySchedulePanel::compareWithFileDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Compare With Policy File"), m_lastDirectory,
                                                      tr("Policy JSON (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    m_lastDirectory = QFileInfo(path).absolutePath();
    QString error;
    if (!compareWithFile(path, &error))
        reportComparisonError(error);
}

bool PolicySchedulePanel::exportChart(const QString &path, QString *error)
{
    if (!m_chart->hasSchedule()) {
        if (error)
            *error = tr("There is no schedule to export yet.");
        return false;
    }
    return m_chart->exportTo(path, kExportSize, error);
}

void PolicySchedulePanel::exportDialog()
{
    const QString png = tr("PNG image (*.png)");
    const QString svg = tr("SVG image (*.svg)");
    QString filter = png;
    const QString suggested = m_lastDirectory.isEmpty() ? QStringLiteral("policy-chart.png")
                                                        : m_lastDirectory + QStringLiteral("/policy-chart.png");
    QString path = QFileDialog::getSaveFileName(this, tr("Export Chart"), suggested, png + QStringLiteral(";;") + svg, &filter);
    if (path.isEmpty())
        return;
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        path += filter == svg ? QStringLiteral(".svg") : QStringLiteral(".png");
    m_lastDirectory = QFileInfo(path).absolutePath();
    QString error;
    if (exportChart(path, &error))
        emit statusMessage(tr("Chart exported to %1").arg(QDir::toNativeSeparators(path)));
    else
        emit statusMessage(tr("Cannot export the chart: %1").arg(error));
}

QList<QWidget *> PolicySchedulePanel::focusChain() const
{
    return {m_compareButton, m_clearComparisonButton, m_jitter, m_exportButton};
}

QString PolicySchedulePanel::totalsText() const
{
    return m_totals->text();
}

bool PolicySchedulePanel::showsLastValid() const
{
    return !m_staleNote->isHidden();
}

} // namespace relaydesk
