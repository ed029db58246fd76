// SPDX-License-Identifier: MIT
#include "dialogs/add_connection_dialog.h"

#include "dialogs/dialog_form.h"
#include "widgets/field_error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
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
    m_kind->addItem(tr("Azure Service Bus namespace"));
    m_kind->addItem(tr("OpenStack Zaqar"));
    m_name = field("connectionName", this, tr("as the tree shows it, e.g. staging"));
    m_region = field("connectionRegion", this, QStringLiteral("us-east-1"));
    m_url = field("connectionUrl", this);
    m_accessKey = field("connectionAccessKey", this);
    m_secret = field("connectionSecret", this);
    m_secret->setEchoMode(QLineEdit::Password);
    m_credentialProcess = field("connectionCredentialProcess", this, tr("a command printing the credentials as JSON"));
    m_token = field("connectionToken", this, tr("one of its --credentials file's bearerTokens"));
    m_token->setEchoMode(QLineEdit::Password);
    m_connectionString = field("connectionString", this, QStringLiteral("Endpoint=sb://…;SharedAccessKeyName=…;SharedAccessKey=…"));
    m_connectionString->setEchoMode(QLineEdit::Password);
    m_caFile = field("connectionCaFile", this, tr("a PEM CA trusted for AMQPS besides the system's (empty: none)"));
    m_projectId = field("connectionProjectId", this, tr("X-Project-ID (empty: none)"));
    m_keystoneToken = field("connectionKeystoneToken", this, tr("X-Auth-Token (empty: no authentication)"));
    m_keystoneToken->setEchoMode(QLineEdit::Password);
    m_zaqarAuth = new QComboBox(this);   // in ConnectionSettings::ZaqarAuth's order
    m_zaqarAuth->setObjectName(QStringLiteral("connectionZaqarAuth"));
    m_zaqarAuth->addItems({tr("None"), tr("Token"), tr("Keystone credentials")});
    m_zaqarAuth->setCurrentIndex(static_cast<int>(ConnectionSettings::ZaqarAuth::Token));
    m_keystoneUrl = field("connectionKeystoneUrl", this, QStringLiteral("http://keystone:5000/v3"));
    m_keystoneUser = field("connectionKeystoneUser", this);
    m_keystoneUserDomain = field("connectionKeystoneUserDomain", this, tr("a domain name (empty: Default)"));
    m_keystoneProject = field("connectionKeystoneProject", this, tr("a project name (empty: the project ID)"));
    m_keystoneProjectDomain = field("connectionKeystoneProjectDomain", this, tr("a domain name (empty: Default)"));
    m_keystonePassword = field("connectionKeystonePassword", this);
    m_keystonePassword->setEchoMode(QLineEdit::Password);
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
    addFormRow(form, tr("Connection s&tring:"), m_connectionString);
    addFormRow(form, tr("CA f&ile:"), m_caFile);
    addChooser(m_caFile);
    addFormRow(form, tr("&URL:"), m_url);
    addFormRow(form, tr("&Project ID:"), m_projectId);
    addFormRow(form, tr("Aut&hentication:"), m_zaqarAuth);
    addFormRow(form, tr("Keystone t&oken:"), m_keystoneToken);
    addFormRow(form, tr("Keystone UR&L:"), m_keystoneUrl);
    addFormRow(form, tr("User na&me:"), m_keystoneUser);
    addFormRow(form, tr("User &domain:"), m_keystoneUserDomain);
    addFormRow(form, tr("Pro&ject name:"), m_keystoneProject);
    addFormRow(form, tr("Project doma&in:"), m_keystoneProjectDomain);
    addFormRow(form, tr("Pass&word:"), m_keystonePassword);
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
    connect(m_zaqarAuth, &QComboBox::currentIndexChanged, this, &AddConnectionDialog::showKind);
    showKind();
    setMinimumWidth(fontMetrics().averageCharWidth() * 70);
}

// A "Choose…" button beside a file field in its row's cell (a file chooser
// fills the field; the field stays typeable).
void AddConnectionDialog::addChooser(QLineEdit *file)
{
    auto *choose = new QPushButton(tr("C&hoose…"), file->parentWidget());
    choose->setObjectName(file->objectName() + QStringLiteral("Choose"));
    choose->setAccessibleName(tr("Choose the %1").arg(file->accessibleName()));
    connect(choose, &QPushButton::clicked, this, [this, file] {
        const QString chosen = QFileDialog::getOpenFileName(this, file->accessibleName(), file->text(),
                                                            tr("Certificates (*.pem *.crt *.cer);;All files (*)"));
        if (!chosen.isEmpty())
            file->setText(chosen);
    });
    auto *column = qobject_cast<QVBoxLayout *>(file->parentWidget()->layout());
    auto *line = new QHBoxLayout;
    column->removeWidget(file);
    line->addWidget(file, 1);
    line->addWidget(choose);
    column->insertLayout(0, line);
    setTabOrder(file, choose);
}

ConnectionSettings::Kind AddConnectionDialog::kind() const
{
    return static_cast<ConnectionSettings::Kind>(m_kind->currentIndex());   // the box lists the kinds in their order
}

// Rows of the other kinds hide (each field sits in its row's cell, with its
// error line), and Zaqar's rows of the other authentications; an AWS profile
// written into the AWS files keeps its keys there (the secrets note then says so).
void AddConnectionDialog::showKind()
{
    using Kind = ConnectionSettings::Kind;
    const Kind k = kind();
    const bool aws = k == Kind::AwsProfile;
    auto *form = findChild<QFormLayout *>();
    const auto showRow = [form](QWidget *field, bool visible) { form->setRowVisible(field->parentWidget(), visible); };
    showRow(m_region, aws);
    showRow(m_credentialProcess, aws);
    showRow(m_accessKey, aws || k == Kind::Relaydesk);
    showRow(m_secret, aws || k == Kind::Relaydesk);
    showRow(m_token, k == Kind::Relaydesk);
    showRow(m_connectionString, k == Kind::ServiceBus);
    showRow(m_caFile, k == Kind::ServiceBus);
    showRow(m_projectId, k == Kind::Zaqar);
    using Auth = ConnectionSettings::ZaqarAuth;
    const auto auth = static_cast<Auth>(m_zaqarAuth->currentIndex());
    showRow(m_zaqarAuth, k == Kind::Zaqar);
    showRow(m_keystoneToken, k == Kind::Zaqar && auth == Auth::Token);
    for (QLineEdit *edit : {m_keystoneUrl, m_keystoneUser, m_keystoneUserDomain, m_keystoneProject, m_keystoneProjectDomain,
                            m_keystonePassword})
        showRow(edit, k == Kind::Zaqar && auth == Auth::Keystone);
    form->setRowVisible(m_awsFiles, aws);
    const QString urlHint[] = {tr("endpoint_url (empty: AWS itself)"), QStringLiteral("http://ci-host:9324"),
                               tr("management API (empty: from the connection string)"), QStringLiteral("http://zaqar-host:8888")};
    m_url->setPlaceholderText(urlHint[m_kind->currentIndex()]);
    m_secretsNote->setVisible(!(aws && m_awsFiles->isChecked()));
}

void AddConnectionDialog::setSettings(const ConnectionSettings &s)
{
    setWindowTitle(tr("Edit Connection"));
    m_name->setReadOnly(true);   // the name is the connection's key
    m_secret->setPlaceholderText(tr("unchanged when empty"));
    m_token->setPlaceholderText(tr("unchanged when empty"));
    m_connectionString->setPlaceholderText(tr("unchanged when empty"));
    m_keystoneToken->setPlaceholderText(tr("unchanged when empty"));
    m_keystonePassword->setPlaceholderText(tr("kept in the secret store; unchanged when empty"));
    m_kind->setCurrentIndex(static_cast<int>(s.kind));
    m_kind->setEnabled(false);   // the kind is the connection's, as its name
    m_name->setText(s.name);
    m_region->setText(s.region);
    m_url->setText(s.endpointUrl);
    m_accessKey->setText(s.accessKeyId);
    m_credentialProcess->setText(s.credentialProcess);
    m_projectId->setText(s.projectId);
    m_caFile->setText(s.caFile);
    m_zaqarAuth->setCurrentIndex(static_cast<int>(s.zaqarAuth));
    m_keystoneUrl->setText(s.keystoneUrl);
    m_keystoneUser->setText(s.keystoneUser);
    m_keystoneUserDomain->setText(s.keystoneUserDomain);
    m_keystoneProject->setText(s.keystoneProject);
    m_keystoneProjectDomain->setText(s.keystoneProjectDomain);
    m_production->setChecked(s.production);
}

ConnectionSettings AddConnectionDialog::settings() const
{
    ConnectionSettings s;
    s.kind = kind();
    s.name = m_name->text().trimmed();
    s.region = m_region->text().trimmed();
    s.endpointUrl = m_url->text().trimmed();
    const bool keys = s.kind == ConnectionSettings::Kind::AwsProfile || s.kind == ConnectionSettings::Kind::Relaydesk;
    s.accessKeyId = keys ? m_accessKey->text().trimmed() : QString();
    s.secretAccessKey = keys ? m_secret->text() : QString();
    s.credentialProcess = m_credentialProcess->text().trimmed();
    s.bearerToken = s.kind == ConnectionSettings::Kind::Zaqar ? m_keystoneToken->text() : m_token->text();
    s.connectionString = s.kind == ConnectionSettings::Kind::ServiceBus ? m_connectionString->text().trimmed() : QString();
    s.projectId = s.kind == ConnectionSettings::Kind::Zaqar ? m_projectId->text().trimmed() : QString();
    s.caFile = s.kind == ConnectionSettings::Kind::ServiceBus ? m_caFile->text().trimmed() : QString();
    if (s.kind == ConnectionSettings::Kind::Zaqar) {
        s.zaqarAuth = static_cast<ConnectionSettings::ZaqarAuth>(m_zaqarAuth->currentIndex());
        if (s.zaqarAuth != ConnectionSettings::ZaqarAuth::Token)
            s.bearerToken.clear();
        if (s.zaqarAuth == ConnectionSettings::ZaqarAuth::Keystone) {
            s.keystoneUrl = m_keystoneUrl->text().trimmed();
            s.keystoneUser = m_keystoneUser->text().trimmed();
            s.keystoneUserDomain = m_keystoneUserDomain->text().trimmed();
            s.keystoneProject = m_keystoneProject->text().trimmed();
            s.keystoneProjectDomain = m_keystoneProjectDomain->text().trimmed();
            s.keystonePassword = m_keystonePassword->text();
        }
    }
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
