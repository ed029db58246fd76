// SPDX-License-Identifier: MIT
#include "connections/aws_profiles.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>

#include <map>

namespace relaydesk {

namespace {

// One `[section]` of an INI text: its header's name and its `key = value`
// lines; an indented line under a key with an empty value belongs to that
// key's sub-section ("sqs.endpoint_url").
struct Section {
    QString name;
    QMap<QString, QString> values;
};

std::vector<Section> readSections(const QString &text, const QString &file, QStringList &problems)
{
    std::vector<Section> sections;
    QString subSection;
    const QStringList lines = text.split(QLatin1Char('\n'));
    for (int number = 0; number < lines.size(); ++number) {
        const QString raw = lines[number];
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')) || line.startsWith(QLatin1Char(';')))
            continue;
        if (line.startsWith(QLatin1Char('['))) {
            if (!line.endsWith(QLatin1Char(']'))) {
                problems << QStringLiteral("%1:%2: a section header without ]").arg(file).arg(number + 1);
                continue;
            }
            sections.push_back({line.mid(1, line.size() - 2).trimmed(), {}});
            subSection.clear();
            continue;
        }
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        if (sections.empty() || equals < 0) {
            problems << QStringLiteral("%1:%2: not `key = value` in a section").arg(file).arg(number + 1);
            continue;
        }
        const QString key = line.left(equals).trimmed();
        const QString value = line.mid(equals + 1).trimmed();
        const bool indented = raw.startsWith(QLatin1Char(' ')) || raw.startsWith(QLatin1Char('\t'));
        if (indented && !subSection.isEmpty()) {
            sections.back().values.insert(subSection + QLatin1Char('.') + key, value);
            continue;
        }
        subSection = value.isEmpty() ? key : QString();
        if (!value.isEmpty())
            sections.back().values.insert(key, value);
    }
    return sections;
}

AwsProfile &profileNamed(std::vector<AwsProfile> &profiles, const QString &name)
{
    for (AwsProfile &profile : profiles)
        if (profile.name == name)
            return profile;
    profiles.push_back({});
    profiles.back().name = name;
    return profiles.back();
}

void apply(AwsProfile &profile, const QMap<QString, QString> &values)
{
    const auto take = [&values](const char *key, QString &into) {
        const auto found = values.constFind(QLatin1String(key));
        if (found != values.constEnd())
            into = *found;
    };
    take("region", profile.region);
    take("endpoint_url", profile.endpointUrl);
    take("aws_access_key_id", profile.accessKeyId);
    take("aws_secret_access_key", profile.secretAccessKey);
    take("aws_session_token", profile.sessionToken);
    take("credential_process", profile.credentialProcess);
}

QString readFile(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

QString AwsProfile::endpointFor(const QString &service) const
{
    if (const auto own = serviceEndpoints.constFind(service); own != serviceEndpoints.constEnd())
        return *own;
    if (!endpointUrl.isEmpty())
        return endpointUrl;
    return QStringLiteral("https://%1.%2.amazonaws.com").arg(service, region.isEmpty() ? QStringLiteral("us-east-1") : region);
}

AwsProfileFiles AwsProfileFiles::fromEnvironment()
{
    const QString home = QDir::homePath();
    const QString config = qEnvironmentVariable("AWS_CONFIG_FILE");
    const QString credentials = qEnvironmentVariable("AWS_SHARED_CREDENTIALS_FILE");
    return {config.isEmpty() ? home + QStringLiteral("/.aws/config") : config,
            credentials.isEmpty() ? home + QStringLiteral("/.aws/credentials") : credentials};
}

const AwsProfile *AwsProfileList::find(const QString &name) const
{
    for (const AwsProfile &profile : profiles)
        if (profile.name == name)
            return &profile;
    return nullptr;
}

AwsProfileList readAwsProfiles(const QString &configText, const QString &credentialsText)
{
    AwsProfileList list;
    std::map<QString, QMap<QString, QString>> services;   // [services NAME] → its values
    std::vector<std::pair<QString, QString>> servicesOf;   // profile → services NAME
    for (const Section &section : readSections(configText, QStringLiteral("config"), list.problems)) {
        static const QRegularExpression named(QStringLiteral("^(profile|services|sso-session)\\s+(\\S+)$"));
        const QRegularExpressionMatch match = named.match(section.name);
        if (section.name == QLatin1String("default") || (match.hasMatch() && match.captured(1) == QLatin1String("profile"))) {
            AwsProfile &profile = profileNamed(list.profiles, match.hasMatch() ? match.captured(2) : section.name);
            apply(profile, section.values);
            if (section.values.contains(QStringLiteral("services")))
                servicesOf.emplace_back(profile.name, section.values.value(QStringLiteral("services")));
        } else if (match.hasMatch() && match.captured(1) == QLatin1String("services")) {
            services[match.captured(2)] = section.values;
        }
    }
    for (const Section &section : readSections(credentialsText, QStringLiteral("credentials"), list.problems))
        apply(profileNamed(list.profiles, section.name), section.values);
    for (const auto &[profileName, servicesName] : servicesOf) {
        const auto found = services.find(servicesName);
        if (found == services.end()) {
            list.problems << QStringLiteral("config: profile %1 names services %2, which has no section")
                                 .arg(profileName, servicesName);
            continue;
        }
        AwsProfile &profile = profileNamed(list.profiles, profileName);
        for (auto value = found->second.constBegin(); value != found->second.constEnd(); ++value)
            if (value.key().endsWith(QLatin1String(".endpoint_url")))
                profile.serviceEndpoints.insert(value.key().section(QLatin1Char('.'), 0, 0), value.value());
    }
    return list;
}

AwsProfileList readAwsProfiles(const AwsProfileFiles &files)
{
    return readAwsProfiles(readFile(files.configPath), readFile(files.credentialsPath));
}

} // namespace relaydesk
