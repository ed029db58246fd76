// SPDX-License-Identifier: MIT
#include "policy_editor/policy_editor.h"

#include "widgets/accessible_names.h"
#include "widgets/adaptive_splitter.h"
#include "widgets/error_text.h"
#include "policy_editor/policy_context_bar.h"
#include "policy_editor/policy_field_form.h"
#include "policy_editor/policy_issue_list.h"
#include "policy_editor/policy_schedule_panel.h"

#include "policy/policy_json.h"
#include "policy/policy_presets.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QDataStream>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontDatabase>
#include <QLabel>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSaveFile>
#include <QScrollArea>
#include <QScrollBar>
#include <QSplitter>
#include <QTextCursor>
#include <QVBoxLayout>

namespace relaydesk {
namespace {

constexpr quint32 kLayoutStateVersion = 1;

QString fromStd(std::string_view text)
{
    return QString::fromUtf8(text.data(), qsizetype(text.size()));
}

QLabel *paneTitle(const QString &text, QWidget *buddy, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    QFont font = label->font();
    font.setBold(true);
    label->setFont(font);
    label->setBuddy(buddy);
    return label;
}

} // namespace

PolicyEditor::PolicyEditor(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("policyEditor"));
    buildActions();

    m_form = new PolicyFieldForm(this);
    connect(m_form, &PolicyFieldForm::edited, this, &PolicyEditor::onFormEdited);
    auto *formScroll = new QScrollArea(this);
    formScroll->setFocusPolicy(Qt::NoFocus); // its fields are the Tab stops (scrolled into view); the area is none: AT-SPI read it as an unnamed stop
    formScroll->setObjectName(QStringLiteral("formScroll"));
    formScroll->setWidget(m_form);
    formScroll->setWidgetResizable(true);
    formScroll->setFrameShape(QFrame::NoFrame);
    formScroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    // The form is never narrower than its labels and fields (the splitter gives way elsewhere).
    formScroll->setMinimumWidth(m_form->minimumSizeHint().width() + formScroll->verticalScrollBar()->sizeHint().width());

    m_schedule = new PolicySchedulePanel(this);
    connect(m_schedule, &PolicySchedulePanel::statusMessage, this, &PolicyEditor::statusMessage);

    m_leftSplitter = new QSplitter(Qt::Vertical, this);
    m_leftSplitter->setObjectName(QStringLiteral("formSplitter"));
    m_leftSplitter->addWidget(formScroll);
    m_leftSplitter->addWidget(buildIssuePane());
    m_leftSplitter->setStretchFactor(0, 0);
    m_leftSplitter->setStretchFactor(1, 1);
    m_leftSplitter->setSizes({m_form->sizeHint().height() + 8, 160});
    m_leftSplitter->setChildrenCollapsible(false);

    m_rightSplitter = new QSplitter(Qt::Vertical, this);
    m_rightSplitter->setObjectName(QStringLiteral("chartSplitter"));
    m_rightSplitter->addWidget(buildJsonPane());
    m_rightSplitter->addWidget(m_schedule);
    m_rightSplitter->setStretchFactor(0, 1);
    m_rightSplitter->setStretchFactor(1, 3);
    m_rightSplitter->setSizes({250, 600});
    m_rightSplitter->setChildrenCollapsible(false);

    // Form beside JSON and chart while they fit, above them otherwise.
    m_mainSplitter = new AdaptiveSplitter(this);
    m_mainSplitter->setObjectName(QStringLiteral("editorSplitter"));
    m_mainSplitter->addWidget(m_leftSplitter);
    m_mainSplitter->addWidget(m_rightSplitter);
    m_mainSplitter->setStretchFactor(0, 0);
    m_mainSplitter->setStretchFactor(1, 1);
    m_mainSplitter->setChildrenCollapsible(false);
    m_mainSplitter->setSizes({380, 900});

    m_message = new QLabel(this);
    m_message->setObjectName(QStringLiteral("editorMessage"));
    m_message->setWordWrap(true);
    m_message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_message->hide();

    m_contextBar = new PolicyContextBar(m_presetMenu, m_openAction, m_saveAsAction, this);
    connect(m_contextBar, &PolicyContextBar::formRequested, this, &PolicyEditor::setPolicyForm);
    connect(m_contextBar, &PolicyContextBar::contextChanged, this, &PolicyEditor::evaluate);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_contextBar);
    layout->addWidget(m_message);
    layout->addWidget(m_mainSplitter, 1);
    setKeyboardOrder();
    nameInputsAfterTheirLabels(this);

    applyPreset(QStringLiteral("sns-default"));
}

PolicyEditor::~PolicyEditor() = default;

void PolicyEditor::buildActions()
{
    m_openAction = new QAction(tr("&Open Policy…"), this);
    m_openAction->setShortcut(QKeySequence::Open);
    connect(m_openAction, &QAction::triggered, this, &PolicyEditor::openDialog);
    m_saveAsAction = new QAction(tr("Save Policy &As…"), this);
    m_saveAsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    connect(m_saveAsAction, &QAction::triggered, this, &PolicyEditor::saveDialog);
    m_copyJsonAction = new QAction(tr("&Copy Policy JSON"), this);
    m_copyJsonAction->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
    connect(m_copyJsonAction, &QAction::triggered, this,
            [this] { QApplication::clipboard()->setText(m_json->toPlainText()); });

    m_presetMenu = new QMenu(tr("&Presets"), this);
    m_presetMenu->setObjectName(QStringLiteral("presetMenu"));
    for (const PolicyPreset &preset : policyPresets()) {
        const QString name = QString::fromStdString(preset.name);
        QAction *action =
            m_presetMenu->addAction(name + QStringLiteral("  —  ") + QString::fromStdString(preset.description));
        action->setData(name);
        connect(action, &QAction::triggered, this, [this, name] { applyPreset(name); });
    }
}

QWidget *PolicyEditor::buildJsonPane()
{
    auto *pane = new QWidget(this);
    m_json = new QPlainTextEdit(pane);
    m_json->setObjectName(QStringLiteral("policyJson"));
    m_json->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_json->setLineWrapMode(QPlainTextEdit::WidgetWidth); // a long line wraps, the pane never scrolls sideways
    m_json->setTabChangesFocus(true);
    m_json->setToolTip(tr("The policy as JSON in the selected form. Edits here update the form, the checks and the "
                          "chart as you type."));
    connect(m_json, &QPlainTextEdit::textChanged, this, &PolicyEditor::onJsonEdited);
    m_jsonTitle = paneTitle(tr("&JSON"), m_json, pane);
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_jsonTitle);
    layout->addWidget(m_json, 1);
    return pane;
}

QWidget *PolicyEditor::buildIssuePane()
{
    auto *pane = new QWidget(this);
    m_issues = new PolicyIssueList(pane);
    connect(m_issues, &PolicyIssueList::issueActivated, this, &PolicyEditor::goToIssue);
    auto *layout = new QVBoxLayout(pane);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(paneTitle(tr("Pro&blems"), m_issues, pane));
    layout->addWidget(m_issues, 1);
    m_issues->setMinimumHeight(m_issues->fontMetrics().height() * 4); // a problem and its explanation in sight
    return pane;
}

void PolicyEditor::setKeyboardOrder()
{
    QList<QWidget *> chain = m_contextBar->focusChain();
    chain += m_form->focusChain();
    chain << m_issues << m_json;
    chain += m_schedule->focusChain();
    for (qsizetype i = 0; i + 1 < chain.size(); ++i)
        setTabOrder(chain[i], chain[i + 1]);
}

void PolicyEditor::setJsonText(const QString &text)
{
    m_json->setPlainText(text);   // onJsonEdited() evaluates
}

QString PolicyEditor::jsonText() const
{
    return m_json->toPlainText();
}

bool PolicyEditor::applyPreset(const QString &name)
{
    const std::optional<PolicyPreset> preset = findPolicyPreset(name.toStdString());
    if (!preset)
        return false;
    m_source = name;
    m_modified = false;
    m_managedOrigin = preset->policy.managed ? std::optional(preset->policy) : std::nullopt;
    showMessage({}, false);
    replaceText(policyJsonText(preset->policy));
    evaluate();
    emit statusMessage(tr("Preset %1 loaded").arg(name));
    return true;
}

bool PolicyEditor::setPolicyForm(PolicyForm form)
{
    const std::optional<DeliveryPolicy> &current = m_evaluation.policy();
    const auto revert = [this] { m_contextBar->showForm(m_policy ? m_policy->form : PolicyForm::SnsSubscription); };
    if (!current) {
        revert();
        showMessage(tr("Cannot convert: the JSON has to be readable first."), true);
        return false;
    }
    if (current->form == form) {
        revert();
        return true;
    }
    const PolicyConversion conversion = convertPolicy(*current, form);
    if (!conversion.policy) {
        revert();
        showMessage(tr("Cannot convert to the %1 form: %2.")
                        .arg(fromStd(policyFormName(form)), QString::fromStdString(conversion.refusal)),
                    true);
        return false;
    }
    if (conversion.policy->managed)
        m_managedOrigin = conversion.policy;
    m_modified = true;
    replaceText(policyJsonText(*conversion.policy));
    evaluate();
    showMessage(conversion.note.empty()
                    ? tr("Converted to the %1 form.").arg(fromStd(policyFormName(form)))
                    : tr("Converted to the %1 form. %2").arg(fromStd(policyFormName(form)), QString::fromStdString(conversion.note)),
                false);
    return true;
}

void PolicyEditor::setProtocol(EndpointProtocol protocol)
{
    m_contextBar->setProtocol(protocol);   // evaluates
}

void PolicyEditor::setRawDelivery(bool raw)
{
    m_contextBar->setRawDelivery(raw);   // evaluates
}

bool PolicyEditor::openPolicyFile(const QString &path, QString *error)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        if (error)
            *error = tr("Cannot read %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    m_lastDirectory = QFileInfo(path).absolutePath();
    loadDocument(QString::fromUtf8(file.readAll()), QFileInfo(path).fileName());
    emit statusMessage(tr("Opened %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

void PolicyEditor::loadDocument(const QString &text, const QString &source)
{
    m_source = source;
    m_modified = false;
    m_managedOrigin.reset();
    showMessage({}, false);
    replaceText(text);
    evaluate();
}

bool PolicyEditor::savePolicyFile(const QString &path, QString *error)
{
    QString text = m_json->toPlainText();
    if (!text.endsWith(QLatin1Char('\n')))
        text += QLatin1Char('\n');
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text.toUtf8()) < 0 || !file.commit()) {
        if (error)
            *error = tr("Cannot write %1: %2").arg(QDir::toNativeSeparators(path), file.errorString());
        return false;
    }
    m_source = QFileInfo(path).fileName();
    m_modified = false;
    m_lastDirectory = QFileInfo(path).absolutePath();
    evaluate();
    emit statusMessage(tr("Saved %1").arg(QDir::toNativeSeparators(path)));
    return true;
}

QString PolicyEditor::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

PolicyChart *PolicyEditor::chartForTest() const
{
    return m_schedule->chart();
}

void PolicyEditor::onJsonEdited()
{
    if (m_replacing)
        return;
    m_modified = true;
    showMessage({}, false);
    evaluate();
}

void PolicyEditor::onFormEdited()
{
    DeliveryPolicy base;
    if (m_policy) {
        base = *m_policy;
    } else {
        base.form = m_contextBar->selectedForm();
        base.dialect = base.form == PolicyForm::Zaqar ? Dialect::Zaqar : Dialect::Sns;
    }
    m_modified = true;
    showMessage({}, false);
    replaceText(policyJsonText(m_form->policyFrom(base)));
    evaluate();
}

void PolicyEditor::goToIssue(const QString &fieldPath, const QString &kind)
{
    const PolicyForm form = m_policy ? m_policy->form : PolicyForm::SnsSubscription;
    QWidget *widget = kind == QLatin1String("syntax") ? m_json : m_form->widgetForPath(form, fieldPath.toStdString());
    if (widget && widget->isEnabled())
        widget->setFocus(Qt::OtherFocusReason);
}

void PolicyEditor::replaceText(const QString &text)
{
    // One undoable edit, so Ctrl+Z in the JSON pane takes a form edit back.
    m_replacing = true;
    const int scroll = m_json->verticalScrollBar()->value();
    QTextCursor cursor(m_json->document());
    cursor.beginEditBlock();
    cursor.select(QTextCursor::Document);
    cursor.insertText(text);
    cursor.endEditBlock();
    m_json->verticalScrollBar()->setValue(scroll);
    m_replacing = false;
}

QString PolicyEditor::chartLabel() const
{
    return m_modified ? tr("%1 (edited)").arg(m_source) : m_source;
}

void PolicyEditor::evaluate()
{
    const PolicyCheckContext context = m_contextBar->checkContext();
    m_evaluation = evaluatePolicyText(m_json->toPlainText(), chartLabel(), context, m_managedOrigin);
    if (const std::optional<DeliveryPolicy> &policy = m_evaluation.policy()) {
        m_policy = policy;
        m_form->setPolicy(*policy);
        m_contextBar->showForm(policy->form);
    }
    const PolicyForm form = m_policy ? m_policy->form : PolicyForm::SnsSubscription;
    m_jsonTitle->setText(tr("&JSON  —  %1 form").arg(fromStd(policyFormName(form))));
    showIssues();
    m_schedule->setCheckContext(context);
    m_schedule->showEvaluation(m_evaluation, chartLabel());
    emit evaluated();
}

void PolicyEditor::showIssues()
{
    m_issues->showEvaluation(m_evaluation);
    if (m_evaluation.explanation) {
        const PolicyValidation &validation = m_evaluation.explanation->validation;
        m_form->showIssues(validation.form, validation.errors, validation.warnings);
    } else {
        m_form->showIssues(PolicyForm::SnsSubscription, {}, {});
    }
}

void PolicyEditor::showMessage(const QString &text, bool isError)
{
    m_message->setText(text);
    showAsError(m_message, isError);
    m_message->setVisible(!text.isEmpty());
}

void PolicyEditor::openDialog()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Policy"), m_lastDirectory,
                                                      tr("Policy JSON (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!openPolicyFile(path, &error))
        emit statusMessage(error);
}

void PolicyEditor::saveDialog()
{
    const QString suggested = QDir(m_lastDirectory.isEmpty() ? QDir::homePath() : m_lastDirectory)
                                  .filePath(QFileInfo(m_source).completeBaseName() + QStringLiteral(".json"));
    const QString path = QFileDialog::getSaveFileName(this, tr("Save Policy As"), suggested,
                                                      tr("Policy JSON (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!savePolicyFile(path, &error))
        emit statusMessage(error);
}

int PolicyEditor::sideBySideWidth() const
{
    const QMargins margins = layout()->contentsMargins();
    return m_mainSplitter->sideBySideWidth() + margins.left() + margins.right();
}

QByteArray PolicyEditor::saveLayoutState() const
{
    QByteArray state;
    QDataStream stream(&state, QIODevice::WriteOnly);
    stream << kLayoutStateVersion << m_mainSplitter->saveState() << m_leftSplitter->saveState()
           << m_rightSplitter->saveState();
    return state;
}

void PolicyEditor::restoreLayoutState(const QByteArray &state)
{
    QDataStream stream(state);
    quint32 version = 0;
    QByteArray main, left, right;
    stream >> version >> main >> left >> right;
    if (stream.status() != QDataStream::Ok || version != kLayoutStateVersion)
        return;
    m_mainSplitter->restoreState(main);
    m_leftSplitter->restoreState(left);
    m_rightSplitter->restoreState(right);
}

} // namespace relaydesk
