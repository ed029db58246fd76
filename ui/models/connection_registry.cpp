// SPDX-License-Identifier: MIT
#include "models/connection_registry.h"

#include "connections/aws_connection.h"
#include "connections/aws_profile_writer.h"
#include "connections/aws_profiles.h"
#include "connections/relaydesk_connection.h"
#include "connections/servicebus_connection.h"
#include "connections/zaqar_connection.h"

#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QUrl>

namespace relaydesk {

namespace {

const QString kGroup = QStringLiteral("connections");
const QString kProduction = QStringLiteral("production");

QSettings settings() { return QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")); }

QString windowId(const QString &name) { return QStringLiteral("window:") + name; }

// The kinds as the settings name them (group "connections/NAME", key "kind").
constexpr std::pair<ConnectionSettings::Kind, const char *> kKindNames[] = {
    {ConnectionSettings::Kind::AwsProfile, "aws"},
    {ConnectionSettings::Kind::Relaydesk, "relaydesk"},
    {ConnectionSettings::Kind::ServiceBus, "servicebus"},
    {ConnectionSettings::Kind::Zaqar, "zaqar"},
};

QString kindName(ConnectionSettings::Kind kind)
{
    for (const auto &[k, name] : kKindNames)
        if (k == kind)
            return QLatin1String(name);
    return QStringLiteral("aws");
}

ConnectionSettings::Kind kindNamed(const QString &name)
{
    for (const auto &[k, known] : kKindNames)
        if (name == QLatin1String(known))
            return k;
    return ConnectionSettings::Kind::AwsProfile;
}

// Zaqar's authentication as the settings name it (key "auth"; none: "token", as before there was a choice).
constexpr const char *kZaqarAuthNames[] = {"none", "token", "keystone"};

// An http:// or https:// URL with a host.
bool isHttpUrl(const QString &text)
{
    const QUrl url(text, QUrl::StrictMode);
    return url.isValid() && (url.scheme() == QLatin1String("http") || url.scheme() == QLatin1String("https")) &&
           !url.host().isEmpty();
}

AwsProfile profileOf(const ConnectionSettings &s)
{
    AwsProfile profile;
    profile.name = s.name;
    profile.region = s.region.isEmpty() ? QStringLiteral("us-east-1") : s.region;
    profile.endpointUrl = s.endpointUrl;
    profile.accessKeyId = s.accessKeyId;
    profile.secretAccessKey = s.secretAccessKey;
    profile.credentialProcess = s.credentialProcess;
    return profile;
}

} // namespace

ConnectionRegistry::ConnectionRegistry(QObject *parent) : QObject(parent), m_secrets(new ConnectionSecrets(this))
{
    reload();
    // The window's connections get their secrets when the secret service answers.
    QStringList ids;
    for (const ConnectionEntry &entry : m_entries)
        if (!entry.inAwsFiles)
            ids << entry.id << entry.id + QStringLiteral("/token") << entry.id + QStringLiteral("/password");
    if (!ids.isEmpty())
        m_secrets->load(ids, [this] { reload(); });
}

ConnectionRegistry::~ConnectionRegistry() = default;

const ConnectionEntry *ConnectionRegistry::find(const QString &id) const
{
    for (const ConnectionEntry &entry : m_entries)
        if (entry.id == id)
            return &entry;
    return nullptr;
}

void ConnectionRegistry::reload()
{
    m_entries.clear();
    m_owned.clear();
    QSettings store = settings();
    const QStringList production = store.value(kGroup + QLatin1Char('/') + kProduction).toStringList();
    const AwsProfileList profiles = readAwsProfiles(AwsProfileFiles::fromEnvironment());
    m_problems = profiles.problems;
    for (const AwsProfile &profile : profiles.profiles) {
        auto connection = std::make_unique<AwsConnection>(profile);
        const QString id = QStringLiteral("aws:") + profile.name;
        m_entries.push_back({id, profile.name, profile.region, tr("AWS profile"), production.contains(id), true,
                             connection.get()});
        m_owned.push_back(std::move(connection));
    }
    store.beginGroup(kGroup);
    for (const QString &name : store.childGroups()) {
        const ConnectionSettings s = settingsOf(windowId(name));
        const QString id = windowId(name);
        std::unique_ptr<BrokerConnection> connection;
        QString detail = s.endpointUrl;
        QString word;
        switch (s.kind) {
        case ConnectionSettings::Kind::Relaydesk:
            connection = std::make_unique<RelaydeskConnection>(RelaydeskConnection::Settings{
                s.name, QUrl(s.endpointUrl), {s.accessKeyId, m_secrets->find(id), {}}, m_secrets->find(id + QStringLiteral("/token"))});
            word = tr("Relaydesk");
            break;
        case ConnectionSettings::Kind::ServiceBus:
            // Until the secret service answers the string is empty: the connection then says so on every call.
            connection = std::make_unique<ServiceBusConnection>(
                ServiceBusConnection::Settings{s.name, m_secrets->find(id), QUrl(s.endpointUrl), s.caFile});
            detail = store.value(s.name + QStringLiteral("/host")).toString();
            word = tr("Service Bus");
            break;
        case ConnectionSettings::Kind::Zaqar: {
            using Auth = ConnectionSettings::ZaqarAuth;
            KeystoneCredentials keystone;
            if (s.zaqarAuth == Auth::Keystone)
                keystone = {QUrl(s.keystoneUrl), s.keystoneUser, m_secrets->find(id + QStringLiteral("/password")),
                            s.keystoneUserDomain, s.keystoneProject, s.keystoneProjectDomain};
            connection = std::make_unique<ZaqarConnection>(ZaqarConnection::Settings{
                s.name, QUrl(s.endpointUrl), s.projectId,
                s.zaqarAuth == Auth::Token ? m_secrets->find(id + QStringLiteral("/token")) : QString(), keystone});
            word = tr("Zaqar");
            break;
        }
        case ConnectionSettings::Kind::AwsProfile: {
            ConnectionSettings withSecret = s;
            withSecret.secretAccessKey = m_secrets->find(id);
            connection = std::make_unique<AwsConnection>(profileOf(withSecret));
            detail = s.region;
            word = tr("AWS profile");
            break;
        }
        }
        m_entries.push_back({id, s.name, detail, word, production.contains(id), false, connection.get()});
        m_owned.push_back(std::move(connection));
    }
    emit changed();
}

ConnectionSettings ConnectionRegistry::settingsOf(const QString &id) const
{
    ConnectionSettings s;
    if (!id.startsWith(QStringLiteral("window:")))
        return s;
    QSettings store = settings();
    store.beginGroup(kGroup + QLatin1Char('/') + id.mid(7));
    s.kind = kindNamed(store.value(QStringLiteral("kind")).toString());
    s.name = id.mid(7);
    s.region = store.value(QStringLiteral("region")).toString();
    s.endpointUrl = store.value(QStringLiteral("url")).toString();
    s.accessKeyId = store.value(QStringLiteral("accessKeyId")).toString();
    s.credentialProcess = store.value(QStringLiteral("credentialProcess")).toString();
    s.projectId = store.value(QStringLiteral("projectId")).toString();
    s.caFile = store.value(QStringLiteral("caFile")).toString();
    const QString auth = store.value(QStringLiteral("auth"), QStringLiteral("token")).toString();
    for (int i = 0; i < 3; ++i)
        if (auth == QLatin1String(kZaqarAuthNames[i]))
            s.zaqarAuth = static_cast<ConnectionSettings::ZaqarAuth>(i);
    s.keystoneUrl = store.value(QStringLiteral("keystoneUrl")).toString();
    s.keystoneUser = store.value(QStringLiteral("keystoneUser")).toString();
    s.keystoneUserDomain = store.value(QStringLiteral("keystoneUserDomain")).toString();
    s.keystoneProject = store.value(QStringLiteral("keystoneProject")).toString();
    s.keystoneProjectDomain = store.value(QStringLiteral("keystoneProjectDomain")).toString();
    s.production = find(id) && find(id)->production;
    return s;
}

QString ConnectionRegistry::add(const ConnectionSettings &s)
{
    static const QRegularExpression bad(QStringLiteral("[\\s\\[\\]/\\\\]"));
    if (s.name.isEmpty() || s.name.contains(bad))
        return tr("A connection's name cannot be empty or contain spaces, brackets or slashes.");
    const bool needsUrl = s.kind == ConnectionSettings::Kind::Relaydesk || s.kind == ConnectionSettings::Kind::Zaqar ||
                          !s.endpointUrl.isEmpty();
    if (needsUrl && !isHttpUrl(s.endpointUrl))
        return tr("The URL must be http:// or https:// with a host, as http://localhost:9324.");
    QString id = windowId(s.name);
    const bool keystone = s.kind == ConnectionSettings::Kind::Zaqar && s.zaqarAuth == ConnectionSettings::ZaqarAuth::Keystone;
    if (keystone && !isHttpUrl(s.keystoneUrl))
        return tr("The Keystone URL must be http:// or https:// with a host, as http://keystone:5000/v3.");
    // Edit Connection… shows no secret: an empty password keeps the one kept.
    const bool passwordKept = !m_secrets->find(id + QStringLiteral("/password")).isEmpty();
    if (keystone && (s.keystoneUser.isEmpty() || (s.keystonePassword.isEmpty() && !passwordKept)))
        return tr("Keystone credentials need a user name and a password.");
    ServiceBusConnectionString string;
    if (s.kind == ConnectionSettings::Kind::ServiceBus) {
        // Edit Connection… shows no secret: an empty string keeps the one kept.
        if (s.connectionString.isEmpty() && m_secrets->find(id).isEmpty())
            return tr("A Service Bus connection needs its connection string (Endpoint=sb://…;SharedAccessKeyName=…;SharedAccessKey=…).");
        string = readServiceBusConnectionString(s.connectionString.isEmpty() ? m_secrets->find(id) : s.connectionString);
        if (!string.error.isEmpty())
            return tr("The connection string: %1.").arg(string.error);
        if (const QFileInfo ca(s.caFile); !s.caFile.isEmpty() && !(ca.isFile() && ca.isReadable()))
            return tr("The CA file %1 cannot be read: choose a PEM file, or leave it empty.").arg(s.caFile);
    }
    if (s.kind == ConnectionSettings::Kind::AwsProfile && s.writeAwsFiles) {
        if (const QString error = addAwsProfile(AwsProfileFiles::fromEnvironment(), profileOf(s)); !error.isEmpty())
            return error;
        id = QStringLiteral("aws:") + s.name;
    } else {
        QSettings store = settings();
        store.beginGroup(kGroup + QLatin1Char('/') + s.name);
        store.setValue(QStringLiteral("kind"), kindName(s.kind));
        store.setValue(QStringLiteral("region"), s.region);
        store.setValue(QStringLiteral("url"), s.endpointUrl);
        store.setValue(QStringLiteral("accessKeyId"), s.accessKeyId);
        store.setValue(QStringLiteral("credentialProcess"), s.credentialProcess);
        store.setValue(QStringLiteral("projectId"), s.projectId);
        store.setValue(QStringLiteral("caFile"), s.caFile);
        store.setValue(QStringLiteral("host"), string.host);   // the tree's detail of a Service Bus namespace
        store.setValue(QStringLiteral("auth"), QLatin1String(kZaqarAuthNames[static_cast<int>(s.zaqarAuth)]));
        store.setValue(QStringLiteral("keystoneUrl"), s.keystoneUrl);
        store.setValue(QStringLiteral("keystoneUser"), s.keystoneUser);
        store.setValue(QStringLiteral("keystoneUserDomain"), s.keystoneUserDomain);
        store.setValue(QStringLiteral("keystoneProject"), s.keystoneProject);
        store.setValue(QStringLiteral("keystoneProjectDomain"), s.keystoneProjectDomain);
        // Edit Connection… shows no secret: an empty field keeps the one kept.
        if (!s.secretAccessKey.isEmpty())
            m_secrets->store(id, s.secretAccessKey);
        if (!s.connectionString.isEmpty())
            m_secrets->store(id, s.connectionString);
        if (!s.bearerToken.isEmpty())
            m_secrets->store(id + QStringLiteral("/token"), s.bearerToken);
        if (!s.keystonePassword.isEmpty())
            m_secrets->store(id + QStringLiteral("/password"), s.keystonePassword);
    }
    setProduction(id, s.production);   // reloads
    return {};
}

void ConnectionRegistry::remove(const QString &id)
{
    if (!id.startsWith(QStringLiteral("window:")))
        return;   // a profile of the AWS files is removed there
    QSettings store = settings();
    store.remove(kGroup + QLatin1Char('/') + id.mid(7));
    m_secrets->forget(id);
    m_secrets->forget(id + QStringLiteral("/token"));
    m_secrets->forget(id + QStringLiteral("/password"));
    setProduction(id, false);
}

void ConnectionRegistry::setProduction(const QString &id, bool production)
{
    QSettings store = settings();
    const QString key = kGroup + QLatin1Char('/') + kProduction;
    QStringList list = store.value(key).toStringList();
    list.removeAll(id);
    if (production)
        list << id;
    store.setValue(key, list);
    store.sync();
    reload();
}

} // namespace relaydesk
