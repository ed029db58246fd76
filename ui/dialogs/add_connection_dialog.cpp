// SPDX-License-Identifier: MIT
#include "dialogs/add_connection_dialog.h"

#include "dialogs/dialog_form.h"
#include "widgets/field_error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QLineEdit *field(const char *name, QWidget *parent, const QString &placeholder = {})
{
    auto *edit = new QLineEdit(parent);
    edit->setObjectName(QLatin1String(name));
    edit->setPlaceholderText(placeholder);
    return edit;
}

} // namespace

AddConnectionDialog::AddConnectionDialog(const QString &secretsNote, QWidget *parent) : QDialog(parent)
{
    setObjectName(QStringLiteral("addConnectionDialog"));
    setWindowTitle(tr("Add Connection"));
    m_kind = new QComboBox(this);
    m_kind->setObjectName(QStringLiteral("connectionKind"));
    m_kind->addItem(tr("AWS profile"));
    m_kind->addItem(tr("Another Relaydesk"));
    m_name = field("connectionName", this, tr("as the tree shows it, e.g. staging"));
    m_region = field("connectionRegion", this, QStringLiteral("us-east-1"));
    m_url = field("connectionUrl", this);
    m_accessKey = field("connectionAccessKey", this);
    m_secret = field("connectionSecret", this);
    m_secret->setEchoMode(QLineEdit::Password);
    m_credentialProcess = field("connectionCredentialProcess", this, tr("a command printing the credentials as JSON"));
    m_token = field("connectionToken", this, tr("one of its --credentials file's bearerTokens"));
    m_token->setEchoMode(QLineEdit::Password);
    m_awsFiles = new QCheckBox(tr("&Write the profile into the AWS files (~/.aws/config, ~/.aws/credentials)"), this);
    m_awsFiles->setObjectName(QStringLiteral("connectionAwsFiles"));
    m_awsFiles->setToolTip(tr("Other AWS tools then see it too; otherwise the window alone keeps it"));
    m_production = new QCheckBox(tr("P&roduction: ask for the name before purging or deleting"), this);
    m_production->setObjectName(QStringLiteral("connectionProduction"));
    m_secretsNote = new QLabel(secretsNote, this);
    m_secretsNote->setObjectName(QStringLiteral("secretsNote"));
    m_secretsNote->setWordWrap(true);

    auto *form = new QFormLayout;
    addFormRow(form, tr("&Kind:"), m_kind);
    m_nameError = addFormRow(form, tr("&Name:"), m_name);
    addFormRow(form, tr("Re&gion:"), m_region);
    addFormRow(form, tr("&URL:"), m_url);
    addFormRow(form, tr("&Access key ID:"), m_accessKey);
    addFormRow(form, tr("&Secret access key:"), m_secret);
    addFormRow(form, tr("&Bearer token:"), m_token);
    addFormRow(form, tr("&credential_process:"), m_credentialProcess);
    form->addRow(m_awsFiles);
    form->addRow(m_production);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("connectionOk"));
    connect(buttons, &QDialogButtonBox::accepted, this, &AddConnectionDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(m_secretsNote);
    layout->addWidget(buttons);
    connect(m_kind, &QComboBox::currentIndexChanged, this, &AddConnectionDialog::showKind);
    connect(m_awsFiles, &QCheckBox::toggled, this, &AddConnectionDialog::showKind);
    showKind();
    setMinimumWidth(fontMetrics().averageCharWidth() * 70);
}

// Rows of the other kind hide; an AWS profile written into the AWS files
// keeps its keys there (the secrets note then says so).
void AddConnectionDialog::showKind()
{
    const bool aws = m_kind->currentIndex() == 0;
    auto *form = findChild<QFormLayout *>();
    form->setRowVisible(m_region, aws);
    form->setRowVisible(m_credentialProcess, aws);
    form->setRowVisible(m_token, !aws);
    form->setRowVisible(m_awsFiles, aws);
    m_url->setPlaceholderText(aws ? tr("endpoint_url (empty: AWS itself)") : QStringLiteral("http://ci-host:9324"));
    m_secretsNote->setVisible(!(aws && m_awsFiles->isChecked()));
}

void AddConnectionDialog::setSettings(const ConnectionSettings &s)
{
    setWindowTitle(tr("Edit Connection"));
    m_name->setReadOnly(true);   // the name is the connection's key
    m_secret->setPlaceholderText(tr("unchanged when empty"));
    m_token->setPlaceholderText(tr("unchanged when empty"));
    m_kind->setCurrentIndex(s.kind == ConnectionSettings::Kind::Relaydesk ? 1 : 0);
    m_name->setText(s.name);
    m_region->setText(s.region);
    m_url->setText(s.endpointUrl);
    m_accessKey->setText(s.accessKeyId);
    m_credentialProcess->setText(s.credentialProcess);
    m_production->setChecked(s.production);
}

ConnectionSettings AddConnectionDialog::settings() const
{
    ConnectionSettings s;
    s.kind = m_kind->currentIndex() == 1 ? ConnectionSettings::Kind::Relaydesk : ConnectionSettings::Kind::AwsProfile;
    s.name = m_name->text().trimmed();
    s.region = m_region->text().trimmed();
    s.endpointUrl = m_url->text().trimmed();
    s.accessKeyId = m_accessKey->text().trimmed();
    s.secretAccessKey = m_secret->text();
    s.credentialProcess = m_credentialProcess->text().trimmed();
    s.bearerToken = m_token->text();
    s.writeAwsFiles = s.kind == ConnectionSettings::Kind::AwsProfile && m_awsFiles->isChecked();
    s.production = m_production->isChecked();
    return s;
}

void AddConnectionDialog::accept()
{
    const QString error = m_apply ? m_apply(settings()) : QString();
    m_nameError->setMessage(error);
    if (error.isEmpty())
        QDialog::accept();
}

} // namespace relaydesk
