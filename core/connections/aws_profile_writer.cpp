// SPDX-License-Identifier: MIT
#include "connections/aws_profile_writer.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

namespace relaydesk {

namespace {

QString section(const QString &header, const QList<QPair<QString, QString>> &values)
{
    QString text = QLatin1Char('[') + header + QStringLiteral("]\n");
    bool any = false;
    for (const auto &[key, value] : values) {
        if (value.isEmpty())
            continue;
        text += key + QStringLiteral(" = ") + value + QLatin1Char('\n');
        any = true;
    }
    return any ? text : QString();
}

QString appended(const QString &text, const QString &addition)
{
    if (addition.isEmpty())
        return text;
    if (text.isEmpty())
        return addition;
    QString result = text;
    if (!result.endsWith(QLatin1Char('\n')))
        result += QLatin1Char('\n');
    if (!result.endsWith(QStringLiteral("\n\n")))
        result += QLatin1Char('\n');
    return result + addition;
}

QString readFile(const QString &path, QString &error)
{
    QFile file(path);
    if (!file.exists())
        return {};
    if (!file.open(QIODevice::ReadOnly))
        error = QStringLiteral("cannot read %1: %2").arg(path, file.errorString());
    return QString::fromUtf8(file.readAll());
}

QString writeFile(const QString &path, const QString &text, bool ownerOnly)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    file.write(text.toUtf8());
    if (ownerOnly)
        file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    if (!file.commit())
        return QStringLiteral("cannot write %1: %2").arg(path, file.errorString());
    return {};
}

} // namespace

AwsProfileAddition addAwsProfile(const AwsProfileTexts &current, const AwsProfile &profile)
{
    const QString &name = profile.name;
    if (name.isEmpty() || name.contains(QLatin1Char('[')) || name.contains(QLatin1Char(']')) ||
        std::any_of(name.begin(), name.end(), [](QChar c) { return c.isSpace(); }))
        return {current, QStringLiteral("a profile name must be non-empty, without spaces or brackets: \"%1\"").arg(name)};
    if (readAwsProfiles(current.config, current.credentials).find(name))
        return {current, QStringLiteral("the AWS files already have a profile named %1").arg(name)};
    const QString header = name == QLatin1String("default") ? name : QStringLiteral("profile ") + name;
    const QString config = section(header, {{QStringLiteral("region"), profile.region},
                                            {QStringLiteral("endpoint_url"), profile.endpointUrl},
                                            {QStringLiteral("credential_process"), profile.credentialProcess}});
    const QString credentials = section(name, {{QStringLiteral("aws_access_key_id"), profile.accessKeyId},
                                               {QStringLiteral("aws_secret_access_key"), profile.secretAccessKey},
                                               {QStringLiteral("aws_session_token"), profile.sessionToken}});
    return {{appended(current.config, config), appended(current.credentials, credentials)}, {}};
}

QString addAwsProfile(const AwsProfileFiles &files, const AwsProfile &profile)
{
    QString error;
    const AwsProfileTexts current{readFile(files.configPath, error), readFile(files.credentialsPath, error)};
    if (!error.isEmpty())
        return error;
    const AwsProfileAddition addition = addAwsProfile(current, profile);
    if (!addition.error.isEmpty())
        return addition.error;
    if (addition.texts.config != current.config)
        error = writeFile(files.configPath, addition.texts.config, false);
    if (error.isEmpty() && addition.texts.credentials != current.credentials)
        error = writeFile(files.credentialsPath, addition.texts.credentials, true);
    return error;
}

} // namespace relaydesk
