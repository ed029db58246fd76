// SPDX-License-Identifier: MIT
#include "template_policies_panel.h"

#include "template_policy_window.h"
#include "widgets/accessible_names.h"

#include <QAction>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMainWindow>
#include <QMenu>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace relaydesk {

namespace {

// The change first: in a narrow dock, what a review reads first stays in view.
enum Column { NameColumn, ChangeColumn, FindingsColumn, ValidColumn, FormColumn };

QString counted(std::size_t count, const QString &one, const QString &many)
{
    return QStringLiteral("%1 %2").arg(count).arg(count == 1 ? one : many);
}

QString findingCount(const FoundPolicy &policy)
{
    if (policy.findings.empty())
        return QObject::tr("none");
    std::size_t errors = 0, warnings = 0, notes = 0;
    for (const ScanFinding &finding : policy.findings)
        (finding.level == FindingLevel::Error ? errors : finding.level == FindingLevel::Warning ? warnings : notes)++;
    QStringList parts;
    if (errors)
        parts << counted(errors, QObject::tr("error"), QObject::tr("errors"));
    if (warnings)
        parts << counted(warnings, QObject::tr("warning"), QObject::tr("warnings"));
    if (notes)
        parts << counted(notes, QObject::tr("note"), QObject::tr("notes"));
    return parts.join(QStringLiteral(", "));
}

} // namespace

TemplatePoliciesPanel::TemplatePoliciesPanel(QWidget *parent)
    : QDockWidget(tr("Template Policies"), parent)
{
    setObjectName(QStringLiteral("templatePoliciesDock"));
    auto *body = new QWidget(this);
    m_title = new QLabel(tr("No template open. File ▸ Open Template… lists the policies a template holds."), body);
    m_title->setObjectName(QStringLiteral("templateTitle"));
    m_title->setWordWrap(true);
    auto *listLabel = new QLabel(tr("&Policies:"), body);
    m_list = new QTreeWidget(body);
    m_list->setObjectName(QStringLiteral("templatePolicyList"));
    m_list->setRootIsDecorated(false);
    m_list->setAllColumnsShowFocus(true);
    m_list->setHeaderLabels({tr("Policy"), tr("Change"), tr("Findings"), tr("Valid"), tr("Service and form")});
    m_list->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    listLabel->setBuddy(m_list);
    m_open = new QPushButton(tr("&Open Template…"), body);
    m_open->setObjectName(QStringLiteral("templateOpenButton"));
    m_show = new QPushButton(tr("&Show Policy"), body);
    m_show->setObjectName(QStringLiteral("templateShowButton"));
    m_show->setEnabled(false);
    m_close = new QPushButton(tr("&Close Templates"), body);
    m_close->setObjectName(QStringLiteral("templateCloseButton"));
    m_close->setEnabled(false);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_open);
    buttons->addWidget(m_show);
    buttons->addStretch(1);
    buttons->addWidget(m_close);
    auto *layout = new QVBoxLayout(body);
    layout->addWidget(m_title);
    layout->addWidget(listLabel);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    setWidget(body);
    nameInputsAfterTheirLabels(body);
    setTabOrder(m_list, m_open);
    setTabOrder(m_open, m_show);
    setTabOrder(m_show, m_close);

    connect(m_open, &QPushButton::clicked, this, &TemplatePoliciesPanel::chooseTemplate);
    connect(m_close, &QPushButton::clicked, this, &TemplatePoliciesPanel::closeTemplates);
    connect(m_show, &QPushButton::clicked, this, [this] { showPolicy(m_list->indexOfTopLevelItem(m_list->currentItem())); });
    connect(m_list, &QTreeWidget::itemActivated, this,
            [this](QTreeWidgetItem *item) { showPolicy(m_list->indexOfTopLevelItem(item)); });
    connect(m_list, &QTreeWidget::currentItemChanged, this,
            [this](QTreeWidgetItem *item) { m_show->setEnabled(item != nullptr); });
}

TemplatePoliciesPanel::~TemplatePoliciesPanel() = default;

bool TemplatePoliciesPanel::openTemplate(const QString &path, QString *error)
{
    ScanResult scanned = scanPaths({path.toStdString()}, ScanOptions{});
    QString problem;
    if (!scanned.problems.empty())
        problem = QString::fromStdString(scanned.problems.front());
    else if (scanned.files.empty())
        problem = tr("%1 holds no template or policy that Relaydesk reads (CloudFormation, Terraform plan JSON, ARM, "
                     "Heat, Zaqar metadata, Config.json, a policy file).").arg(QFileInfo(path).fileName());
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        m_title->setText(tr("Not opened: %1").arg(problem));
        return false;
    }
    if (m_head) {
        m_base = std::move(m_head);
        m_basePath = m_headPath;
    }
    m_head = std::move(scanned);
    m_headPath = path;
    fill();
    show();
    raise();
    return true;
}

void TemplatePoliciesPanel::closeTemplates()
{
    m_head.reset();
    m_base.reset();
    m_headPath.clear();
    m_basePath.clear();
    m_rows.clear();
    m_list->clear();
    m_title->setText(tr("No template open. File ▸ Open Template… lists the policies a template holds."));
    m_close->setEnabled(false);
    if (m_window)
        m_window->hide();
}

void TemplatePoliciesPanel::fill()
{
    m_rows.clear();
    const QString head = QFileInfo(m_headPath).fileName();
    if (m_base) {
        // Paired as --base pairs trees: by file, name and form. Two templates
        // are two versions of one file, whatever their names, so the base's
        // policies are paired as if they were in the head's file.
        for (FoundPolicy &policy : m_base->policies)
            policy.relativeFile = QFileInfo(m_headPath).fileName().toStdString();
        const ScanComparison comparison = compareScans(*m_base, *m_head);
        for (const FoundPolicy &policy : m_head->policies) {
            Row row{&policy, nullptr, tr("unchanged"), {}};
            if (std::find(comparison.added.begin(), comparison.added.end(), &policy) != comparison.added.end())
                row.change = tr("added");
            for (const ScanComparison::Change &change : comparison.changed) {
                if (change.after == &policy)
                    row = {&policy, change.before, tr("changed"), change.diff};
            }
            m_rows.push_back(row);
        }
        for (const FoundPolicy *policy : comparison.removed)
            m_rows.push_back({policy, nullptr, tr("removed"), {}});
        m_title->setText(tr("%1 compared with %2: %3 added, %4 removed, %5 changed.")
                             .arg(head, QFileInfo(m_basePath).fileName())
                             .arg(comparison.added.size())
                             .arg(comparison.removed.size())
                             .arg(comparison.changed.size()));
    } else {
        for (const FoundPolicy &policy : m_head->policies)
            m_rows.push_back({&policy, nullptr, QString(), {}});
        m_title->setText(tr("%1 (%2): %3. Open another template to compare it with this one.")
                             .arg(head, QString::fromStdString(m_head->files.front().format),
                                  counted(m_head->policies.size(), tr("policy"), tr("policies"))));
    }
    m_list->clear();
    for (const Row &row : m_rows) {
        const FoundPolicy &policy = *row.policy;
        auto *item = new QTreeWidgetItem(m_list, {QString::fromStdString(policy.name), row.change, findingCount(policy),
                                                  policy.valid() ? tr("valid") : tr("invalid"),
                                                  QString::fromStdString(policy.service + ": " + policy.form)});
        item->setToolTip(NameColumn, QString::fromStdString(policy.summary));
    }
    m_list->setColumnHidden(ChangeColumn, !m_base);
    if (m_list->topLevelItemCount() > 0)
        m_list->setCurrentItem(m_list->topLevelItem(0));
    m_close->setEnabled(true);
}

void TemplatePoliciesPanel::showPolicy(int row)
{
    if (row < 0 || std::size_t(row) >= m_rows.size())
        return;
    if (!m_window)
        m_window = new TemplatePolicyWindow(this);
    const Row &chosen = m_rows[std::size_t(row)];
    m_window->showPolicy(*chosen.policy, chosen.before, chosen.diff);
    m_window->show();
    m_window->raise();
    m_window->activateWindow();
}

void TemplatePoliciesPanel::chooseTemplate()
{
    const QString path = QFileDialog::getOpenFileName(this, m_head ? tr("Open a Template to Compare") : tr("Open Template"),
                                                      QFileInfo(m_headPath).path(),
                                                      tr("Templates (*.json *.yaml *.yml *.template);;All files (*)"));
    if (!path.isEmpty())
        openTemplate(path);
}

TemplatePoliciesPanel *installTemplatePoliciesPanel(QMainWindow *window, QMenu *fileMenu)
{
    auto *panel = new TemplatePoliciesPanel(window);
    window->addDockWidget(Qt::RightDockWidgetArea, panel);
    window->resizeDocks({panel}, {460}, Qt::Horizontal);
    panel->hide();
    QAction *open = new QAction(QObject::tr("Open &Template…"), window);
    open->setObjectName(QStringLiteral("openTemplateAction"));
    open->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    QObject::connect(open, &QAction::triggered, panel, [panel] {
        panel->show();
        panel->findChild<QPushButton *>(QStringLiteral("templateOpenButton"))->click();
    });
    fileMenu->addAction(open);
    return panel;
}

} // namespace relaydesk
