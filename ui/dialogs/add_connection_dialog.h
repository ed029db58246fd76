// SPDX-License-Identifier: MIT
#pragma once

#include "models/connection_registry.h"

#include <QDialog>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;

namespace relaydesk {

class FieldError;

// Connection ▸ Add Connection… (and Edit Connection…), docs/window.md
// "Connections": an AWS profile (name, region, endpoint_url, keys or
// credential_process; written into the AWS files in their own format or
// kept in the window's settings — the user chooses), another Relaydesk
// (URL, bearer token, access keys), a Service Bus namespace (connection
// string, optional management URL, optional CA file for AMQPS, chosen with
// Choose…) or a Zaqar endpoint (URL, project id, and no authentication, a
// token, or Keystone credentials: URL, user and its domain, project and its
// domain, password), and whether it is "production". Only the rows of the
// chosen kind (and Zaqar's authentication) show. Secret
// fields say where their secret goes (ConnectionSecrets::whereText()).
// OK calls the apply function: its error (in the product's words) shows
// under the name and the dialog stays open; empty closes it. GUI thread.
class AddConnectionDialog final : public QDialog {
    Q_OBJECT
public:
    explicit AddConnectionDialog(const QString &secretsNote, QWidget *parent = nullptr);

    void setSettings(const ConnectionSettings &settings);
    ConnectionSettings settings() const;
    void setApply(std::function<QString(const ConnectionSettings &)> apply) { m_apply = std::move(apply); }

    QComboBox *kindBox() const { return m_kind; }
    QLineEdit *nameEdit() const { return m_name; }
    QLineEdit *regionEdit() const { return m_region; }
    QLineEdit *urlEdit() const { return m_url; }
    QLineEdit *accessKeyEdit() const { return m_accessKey; }
    QLineEdit *secretEdit() const { return m_secret; }
    QLineEdit *credentialProcessEdit() const { return m_credentialProcess; }
    QLineEdit *tokenEdit() const { return m_token; }
    QLineEdit *connectionStringEdit() const { return m_connectionString; }
    QLineEdit *caFileEdit() const { return m_caFile; }
    QLineEdit *projectIdEdit() const { return m_projectId; }
    QLineEdit *keystoneTokenEdit() const { return m_keystoneToken; }
    QComboBox *zaqarAuthBox() const { return m_zaqarAuth; }
    QLineEdit *keystoneUrlEdit() const { return m_keystoneUrl; }
    QLineEdit *keystoneUserEdit() const { return m_keystoneUser; }
    QLineEdit *keystoneUserDomainEdit() const { return m_keystoneUserDomain; }
    QLineEdit *keystoneProjectEdit() const { return m_keystoneProject; }
    QLineEdit *keystoneProjectDomainEdit() const { return m_keystoneProjectDomain; }
    QLineEdit *keystonePasswordEdit() const { return m_keystonePassword; }
    QCheckBox *awsFilesBox() const { return m_awsFiles; }
    QCheckBox *productionBox() const { return m_production; }
    FieldError *nameError() const { return m_nameError; }
    QLabel *secretsNote() const { return m_secretsNote; }

    void accept() override;

private:
    void showKind();
    void addChooser(QLineEdit *file);
    ConnectionSettings::Kind kind() const;

    QComboBox *m_kind = nullptr;
    QLineEdit *m_name = nullptr;
    QLineEdit *m_region = nullptr;
    QLineEdit *m_url = nullptr;
    QLineEdit *m_accessKey = nullptr;
    QLineEdit *m_secret = nullptr;
    QLineEdit *m_credentialProcess = nullptr;
    QLineEdit *m_token = nullptr;
    QLineEdit *m_connectionString = nullptr;
    QLineEdit *m_caFile = nullptr;
    QLineEdit *m_projectId = nullptr;
    QLineEdit *m_keystoneToken = nullptr;
    QComboBox *m_zaqarAuth = nullptr;
    QLineEdit *m_keystoneUrl = nullptr;
    QLineEdit *m_keystoneUser = nullptr;
    QLineEdit *m_keystoneUserDomain = nullptr;
    QLineEdit *m_keystoneProject = nullptr;
    QLineEdit *m_keystoneProjectDomain = nullptr;
    QLineEdit *m_keystonePassword = nullptr;
    QCheckBox *m_awsFiles = nullptr;
    QCheckBox *m_production = nullptr;
    FieldError *m_nameError = nullptr;
    QLabel *m_secretsNote = nullptr;
    std::function<QString(const ConnectionSettings &)> m_apply;
};

} // namespace relaydesk
