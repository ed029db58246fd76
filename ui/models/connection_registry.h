// SPDX-License-Identifier: MIT
#pragma once

#include "models/connection_secrets.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace relaydesk {

class BrokerConnection;

// What the user gives to add (or edit) a connection (the Add Connection dialog).
struct ConnectionSettings {
    enum class Kind { AwsProfile, Relaydesk, ServiceBus, Zaqar };   // the dialog's Kind box, in this order
    Kind kind = Kind::AwsProfile;
    QString name;
    QString region;             // AWS
    QString endpointUrl;        // AWS: endpoint_url; Relaydesk, Zaqar: its URL; Service Bus: the management URL (empty: the string's)
    QString accessKeyId;
    QString secretAccessKey;    // a secret: ConnectionSecrets, never settings
    QString credentialProcess;  // AWS
    QString bearerToken;        // Relaydesk's bearer token, Zaqar's Keystone token (X-Auth-Token); a secret
    QString connectionString;   // Service Bus; a secret
    QString projectId;          // Zaqar: X-Project-ID
    QString caFile;             // Service Bus: a CA file trusted for AMQPS besides the system's (not a secret)
    // Zaqar: how it authenticates — no token, the token above, or a token
    // Keystone gives for a user (the dialog's Authentication box, in this order).
    enum class ZaqarAuth { None, Token, Keystone };
    ZaqarAuth zaqarAuth = ZaqarAuth::Token;
    QString keystoneUrl;            // Zaqar, Keystone: http(s)://HOST:5000/v3
    QString keystoneUser;
    QString keystoneUserDomain;     // a domain name; empty: Default
    QString keystoneProject;        // a project name; empty: the project ID's scope
    QString keystoneProjectDomain;  // a domain name; empty: Default
    QString keystonePassword;       // a secret: ConnectionSecrets ("ID/password"), never settings
    bool writeAwsFiles = false; // AWS: into ~/.aws (their own format) instead of the window's settings
    bool production = false;
};

// One connection of the tree's top level after This computer.
struct ConnectionEntry {
    QString id;          // "aws:NAME" (the AWS files), "window:NAME" (the window's settings)
    QString name;        // the tree's name: the profile's or the user's
    QString detail;      // the region, the URL, or the namespace's host
    QString kindWord;    // "AWS profile", "Relaydesk", "Service Bus", "Zaqar"
    bool production = false;
    bool inAwsFiles = false;   // read from the AWS files: removed there, not here
    BrokerConnection *connection = nullptr;   // owned by the registry
};

// The connections the window offers besides This computer (docs/window.md
// "Connections"): every profile of the AWS files (AWS_CONFIG_FILE and
// AWS_SHARED_CREDENTIALS_FILE honoured), then the ones the user added (AWS
// profiles, other Relaydesks, Service Bus namespaces, Zaqar endpoints),
// kept in the window's settings (QSettings group "connections") without
// their secrets (ConnectionSecrets). Which connections are "production" is
// a setting too, for profiles of the AWS files as well.
//
// Ownership: owns the BrokerConnections; reload() replaces them all (a page
// showing one is closed first by the window). GUI thread.
class ConnectionRegistry final : public QObject {
    Q_OBJECT
public:
    explicit ConnectionRegistry(QObject *parent = nullptr);
    ~ConnectionRegistry() override;

    void reload();
    const std::vector<ConnectionEntry> &entries() const { return m_entries; }
    const ConnectionEntry *find(const QString &id) const;
    ConnectionSecrets &secrets() { return *m_secrets; }
    // Problems reading the AWS files (a line that could not be read), for the status bar.
    const QStringList &problems() const { return m_problems; }

    // Adds (or replaces, same name) a connection; an error in the product's
    // words (and nothing changed) for a bad name, a URL that is not http(s),
    // a Service Bus connection string that does not read or a CA file that cannot be read.
    QString add(const ConnectionSettings &settings);
    // The settings of a connection the window keeps (not those of the AWS files).
    ConnectionSettings settingsOf(const QString &id) const;
    void remove(const QString &id);
    void setProduction(const QString &id, bool production);

signals:
    // After reload(), add(), remove(), setProduction(): the entries changed.
    void changed();

private:
    std::vector<ConnectionEntry> m_entries;
    std::vector<std::unique_ptr<BrokerConnection>> m_owned;
    ConnectionSecrets *m_secrets = nullptr;   // child
    QStringList m_problems;
};

} // namespace relaydesk
