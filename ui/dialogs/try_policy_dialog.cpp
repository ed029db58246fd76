// SPDX-License-Identifier: MIT
#include "dialogs/try_policy_dialog.h"

#include "net/mock_endpoints.h"
#include "net/mock_script.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace relaydesk {

TryPolicyDialog::TryPolicyDialog(const QString &endpointUrl, QWidget *parent)
    : QDialog(parent), m_endpointUrl(endpointUrl)
{
    setObjectName(QStringLiteral("tryPolicyDialog"));
    setWindowTitle(tr("Try a Policy"));
    const PolicyTrialPlan defaults;
    auto *layout = new QVBoxLayout(this);
    auto *form = new QFormLayout;
    auto field = [&](const QString &label, const QString &value, const QString &objectName) {
        auto *edit = new QLineEdit(value, this);
        edit->setObjectName(objectName);
        edit->setAccessibleName(QString(label).remove(QLatin1Char('&')).remove(QLatin1Char(':')));
        form->addRow(label, edit); // the row's label is the edit's buddy
        return edit;
    };
    m_topic = field(tr("&Topic:"), defaults.topicName, QStringLiteral("trialTopic"));
    m_mock = field(tr("&Mock endpoint:"), defaults.mockName, QStringLiteral("trialMock"));
    m_script = field(tr("&Script:"), defaults.script, QStringLiteral("trialScript"));
    m_script->setToolTip(tr("What the mock answers, request by request: e.g. \"503 x 7, then 200\", "
                            "\"429 always\", \"hang 20 s\", \"close x 2, 200\""));
    m_scriptError = new QLabel(this);
    m_scriptError->setObjectName(QStringLiteral("trialScriptError"));
    m_scriptError->setTextFormat(Qt::PlainText);
    m_scriptError->setWordWrap(true);
    m_scriptError->setStyleSheet(QStringLiteral("color: #d93025;")); // the editor's error colour
    m_scriptError->hide();
    form->addRow(QString(), m_scriptError);
    layout->addLayout(form);
    m_what = new QLabel(this);
    m_what->setObjectName(QStringLiteral("trialWhat"));
    m_what->setTextFormat(Qt::PlainText);
    m_what->setWordWrap(true);
    layout->addWidget(m_what);
    m_failure = new QLabel(this);
    m_failure->setObjectName(QStringLiteral("trialFailure"));
    m_failure->setTextFormat(Qt::PlainText);
    m_failure->setWordWrap(true);
    m_failure->setStyleSheet(m_scriptError->styleSheet());
    m_failure->hide();
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
    for (QLineEdit *edit : {m_topic, m_mock, m_script})
        connect(edit, &QLineEdit::textChanged, this, &TryPolicyDialog::check);
    check();
    resize(520, sizeHint().height());
}

PolicyTrialPlan TryPolicyDialog::plan() const
{
    PolicyTrialPlan plan;
    plan.topicName = m_topic->text().trimmed();
    plan.mockName = m_mock->text().trimmed();
    plan.script = m_script->text().trimmed();
    return plan;
}

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
    const Result<MockScript> parsed = parseMockScript(m_script->text().trimmed().toStdString());
    m_scriptError->setVisible(!parsed);
    if (!parsed)
        m_scriptError->setText(QString::fromStdString(parsed.error().message));
    const PolicyTrialPlan wanted = plan();
    m_try->setEnabled(parsed.ok() && !wanted.topicName.isEmpty() && !wanted.mockName.isEmpty());
    m_what->setText(tr("Subscribes %1%2 to the topic %3 with this policy, publishes one test message and shows "
                       "the subscription's deliveries. Set the clock to 600× to watch a long policy in seconds.")
                        .arg(m_endpointUrl,
                             QString::fromStdString(MockEndpoints::pathOf(wanted.mockName.toStdString())),
                             wanted.topicName));
}

} // namespace relaydesk
