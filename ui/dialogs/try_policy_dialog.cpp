// SPDX-License-Identifier: MIT
#include "dialogs/try_policy_dialog.h"

#include "mock/mock_endpoints.h"
#include "broker/deliveries/mock_script.h"
#include "mock/policy_trial.h"
#include "widgets/error_text.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QLabel *errorLine(const QString &objectName, QWidget *parent)
{
    auto *line = new QLabel(parent);
    line->setObjectName(objectName);
    line->setTextFormat(Qt::PlainText);
    line->setWordWrap(true);
    showAsError(line);
    line->hide();
    return line;
}

} // namespace

TryPolicyDialog::TryPolicyDialog(const QString &endpointUrl, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("tryPolicyDialog"));
    setWindowTitle(tr("Try a Policy"));
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    m_script = new QLineEdit(QString::fromStdString(PolicyTrialRequest{}.script), this);
    m_script->setObjectName(QStringLiteral("trialScript"));
    m_script->setAccessibleName(tr("Mock script"));
    m_script->setToolTip(tr("What the mock answers, request by request: e.g. \"503 x 7, then 200\", "
                            "\"429 always\", \"hang 20 s\", \"close x 2, 200\""));
    form->addRow(tr("Mock &script:"), m_script); // the row's label is the edit's buddy
    m_scriptError = errorLine(QStringLiteral("trialScriptError"), this);
    form->addRow(QString(), m_scriptError);
    layout->addLayout(form);
    auto *what = new QLabel(
        tr("Starts afresh on the topic %1: subscribes the mock endpoint %2%3 with this policy, publishes one test "
           "message and shows the subscription's deliveries. Set the clock to 600× to watch a long policy in "
           "seconds.")
            .arg(QLatin1String(policy_trial::kTopicName), endpointUrl,
                 QString::fromStdString(MockEndpoints::pathOf(policy_trial::kMockName))),
        this);
    what->setObjectName(QStringLiteral("trialWhat"));
    what->setTextFormat(Qt::PlainText);
    what->setWordWrap(true);
    layout->addWidget(what);
    m_failure = errorLine(QStringLiteral("trialFailure"), this);
    layout->addWidget(m_failure);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Cancel, this);
    m_try = buttons->addButton(tr("&Try"), QDialogButtonBox::AcceptRole);
    m_try->setObjectName(QStringLiteral("trialTry"));
    m_try->setDefault(true);
    layout->addWidget(buttons);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        m_failure->hide();
        m_try->setEnabled(false); // until the trial answers
        emit tryRequested();
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(m_script, &QLineEdit::textChanged, this, &TryPolicyDialog::check);
    check();
    resize(520, sizeHint().height());
}

QString TryPolicyDialog::script() const { return m_script->text().trimmed(); }

void TryPolicyDialog::showFailure(const QString &message)
{
    m_failure->setText(message);
    m_failure->show();
    check();
}

QString TryPolicyDialog::failure() const { return m_failure->isHidden() ? QString() : m_failure->text(); }

QString TryPolicyDialog::scriptError() const { return m_scriptError->isHidden() ? QString() : m_scriptError->text(); }

void TryPolicyDialog::check()
{
    const Result<MockScript> parsed = parseMockScript(script().toStdString());
    m_scriptError->setVisible(!parsed);
    if (!parsed)
        m_scriptError->setText(QString::fromStdString(parsed.error().message));
    m_try->setEnabled(parsed.ok());
}

} // namespace relaydesk
