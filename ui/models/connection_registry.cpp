// SPDX-License-Identifier: MIT
#include "models/connection_registry.h"

#include "connections/aws_connection.h"
#include "connections/aws_profile_writer.h"
#include "connections/aws_profiles.h"
#include "connections/relaydesk_connection.h"

#include <QRegularExpression>
#include <QSettings>
#include <QUrl>

namespace relaydesk {

namespace {

const QString kGroup = QStringLiteral("connections");
const QString kProduction = QStringLiteral("production");

QSettings settings() { return QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")); }

QString windowId(const QString &name) { return QStringLiteral("window:") + name; }

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
            ids << entry.id << entry.id + QStringLiteral("/token");
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
        if (s.kind == ConnectionSettings::Kind::Relaydesk) {
            RelaydeskConnection::Settings r{s.name, QUrl(s.endpointUrl), {s.accessKeyId, m_secrets->find(id), {}},
                                            m_secrets->find(id + QStringLiteral("/token"))};
            connection = std::make_unique<RelaydeskConnection>(r);
        } else {
            ConnectionSettings withSecret = s;
            withSecret.secretAccessKey = m_secrets->find(id);
            connection = std::make_unique<AwsConnection>(profileOf(withSecret));
            detail = s.region;
        }
        m_entries.push_back({id, s.name, detail,
                             s.kind == ConnectionSettings::Kind::Relaydesk ? tr("Relaydesk") : tr("AWS profile"),
                             production.contains(id), false, connection.get()});
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
    s.kind = store.value(QStringLiteral("kind")).toString() == QLatin1String("relaydesk") ? ConnectionSettings::Kind::Relaydesk
                                                                                           : ConnectionSettings::Kind::AwsProfile;
    s.name = id.mid(7);
    s.region = store.value(QStringLiteral("region")).toString();
    s.endpointUrl = store.value(QStringLiteral("url")).toString();
    s.accessKeyId = store.value(QStringLiteral("accessKeyId")).toString();
    s.credentialProcess = store.value(QStringLiteral("credentialProcess")).toString();
    s.production = find(id) && find(id)->production;
    return s;
}

QString ConnectionRegistry::add(const ConnectionSettings &s)
{
    static const QRegularExpression bad(QStringLiteral("[\\s\\[\\]/\\\\]"));
    if (s.name.isEmpty() || s.name.contains(bad))
        return tr("A connection's name cannot be empty or contain spaces, brackets or slashes.");
    const QUrl url(s.endpointUrl, QUrl::StrictMode);
    const bool needsUrl = s.kind == ConnectionSettings::Kind::Relaydesk || !s.endpointUrl.isEmpty();
    if (needsUrl && (!url.isValid() || (url.scheme() != QLatin1String("http") && url.scheme() != QLatin1String("https")) ||
                     url.host().isEmpty()))
        return tr("The URL must be http:// or https:// with a host, as http://localhost:9324.");
    QString id = windowId(s.name);
    if (s.kind == ConnectionSettings::Kind::AwsProfile && s.writeAwsFiles) {
        if (const QString error = addAwsProfile(AwsProfileFiles::fromEnvironment(), profileOf(s)); !error.isEmpty())
            return error;
        id = QStringLiteral("aws:") + s.name;
    } else {
        QSettings store = settings();
        store.beginGroup(kGroup + QLatin1Char('/') + s.name);
        store.setValue(QStringLiteral("kind"),
                       s.kind == ConnectionSettings::Kind::Relaydesk ? QStringLiteral("relaydesk") : QStringLiteral("aws"));
        store.setValue(QStringLiteral("region"), s.region);
        store.setValue(QStringLiteral("url"), s.endpointUrl);
        store.setValue(QStringLiteral("accessKeyId"), s.accessKeyId);
        store.setValue(QStringLiteral("credentialProcess"), s.credentialProcess);
        // Edit Connection… shows no secret: an empty field keeps the one kept.
        if (!s.secretAccessKey.isEmpty())
            m_secrets->store(id, s.secretAccessKey);
        if (!s.bearerToken.isEmpty())
            m_secrets->store(id + QStringLiteral("/token"), s.bearerToken);
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
