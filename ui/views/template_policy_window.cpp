// SPDX-License-Identifier: MIT
#include "template_policy_window.h"

#include "charts/policy_chart.h"
#include "widgets/accessible_names.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSplitter>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QString levelText(FindingLevel level)
{
    return QString::fromUtf8(findingLevelName(level).data(), qsizetype(findingLevelName(level).size()));
}

} // namespace

TemplatePolicyWindow::TemplatePolicyWindow(QWidget *parent)
    : QWidget(parent, Qt::Window)
{
    setObjectName(QStringLiteral("templatePolicyWindow"));
    m_where = new QLabel(this);
    m_where->setObjectName(QStringLiteral("templatePolicyWhere"));
    m_where->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_where->setWordWrap(true);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("templatePolicySummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);

    m_diff = new QLabel(this);
    m_diff->setObjectName(QStringLiteral("templatePolicyDiff"));
    m_diff->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_diff->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);

    auto *findingsLabel = new QLabel(tr("&Findings:"), this);
    m_findings = new QListWidget(this);
    m_findings->setObjectName(QStringLiteral("templatePolicyFindings"));
    m_findings->setWordWrap(true);
    findingsLabel->setBuddy(m_findings);

    m_chart = new PolicyChart(this);
    m_chart->setObjectName(QStringLiteral("templatePolicyChart"));
    m_chart->setAccessibleName(tr("Chart"));
    m_noChart = new QLabel(this);
    m_noChart->setAlignment(Qt::AlignCenter);
    m_noChart->setWordWrap(true);

    auto *jsonLabel = new QLabel(tr("Policy as &JSON (read-only):"), this);
    m_json = new QPlainTextEdit(this);
    m_json->setObjectName(QStringLiteral("templatePolicyJson"));
    m_json->setReadOnly(true);
    m_json->setTabChangesFocus(true);   // Tab moves on to Copy as JSON
    m_json->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    jsonLabel->setBuddy(m_json);
    m_copy = new QPushButton(tr("&Copy as JSON"), this);
    m_copy->setObjectName(QStringLiteral("templatePolicyCopy"));
    connect(m_copy, &QPushButton::clicked, this, [this] { QApplication::clipboard()->setText(m_json->toPlainText()); });

    auto *left = new QWidget(this);
    auto *leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->addWidget(m_chart, 3);
    leftLayout->addWidget(m_noChart, 3);
    leftLayout->addWidget(findingsLabel);
    leftLayout->addWidget(m_findings, 1);
    auto *right = new QWidget(this);
    auto *rightLayout = new QVBoxLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->addWidget(jsonLabel);
    rightLayout->addWidget(m_json, 1);
    rightLayout->addWidget(m_copy, 0, Qt::AlignRight);
    auto *splitter = new QSplitter(this);
    splitter->addWidget(left);
    splitter->addWidget(right);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_where);
    layout->addWidget(m_summary);
    layout->addWidget(m_diff);
    layout->addWidget(splitter, 1);
    nameInputsAfterTheirLabels(this);
    setTabOrder(m_findings, m_json);
    setTabOrder(m_json, m_copy);
    resize(1100, 650);
}

void TemplatePolicyWindow::showPolicy(const FoundPolicy &policy, const FoundPolicy *before, const std::string &diff)
{
    const QString name = QString::fromStdString(policy.name);
    setWindowTitle(tr("%1 — %2 (read-only)").arg(name, QString::fromStdString(policy.form)));
    const QString place = policy.place.known() ? QStringLiteral(":%1:%2").arg(policy.place.line).arg(policy.place.column)
                                               : QString();
    m_where->setText(tr("<b>%1</b> — %2: %3 — %4%5")
                         .arg(name.toHtmlEscaped(), QString::fromStdString(policy.service).toHtmlEscaped(),
                              QString::fromStdString(policy.form).toHtmlEscaped(),
                              QString::fromStdString(policy.file).toHtmlEscaped(), place));
    m_summary->setText(QString::fromStdString(policy.summary));
    m_summary->setAccessibleName(m_summary->text());
    m_diff->setText(tr("Changed from the base:") + QLatin1Char('\n') + QString::fromStdString(diff).trimmed());
    m_diff->setAccessibleName(m_diff->text());
    m_diff->setVisible(!diff.empty());

    m_findings->clear();
    for (const ScanFinding &finding : policy.findings) {
        m_findings->addItem(QStringLiteral("%1 %2%3: %4")
                                .arg(levelText(finding.level), QString::fromStdString(finding.rule),
                                     finding.field.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(finding.field)),
                                     QString::fromStdString(finding.message)));
    }
    if (policy.findings.empty())
        m_findings->addItem(tr("No findings."));

    const bool drawn = policy.delivery && policy.delivery->schedule;
    if (drawn) {
        m_chart->setSchedule(*policy.delivery->schedule, name);
        std::optional<RetrySchedule> base;
        if (before && before->delivery && before->delivery->schedule)
            base = before->delivery->schedule;
        m_chart->setComparison(base, tr("base"));
    }
    m_chart->setVisible(drawn);
    m_noChart->setVisible(!drawn);
    m_noChart->setText(policy.kind == FoundPolicyKind::Delivery
                           ? tr("No chart: the schedule is not known (%1).").arg(QString::fromStdString(policy.summary))
                           : tr("No chart: a %1 has no retry schedule; its lifetime is above.")
                                 .arg(QString::fromStdString(policy.form)));
    m_json->setPlainText(QString::fromStdString(policy.document.dump(2)));
}

} // namespace relaydesk
