// SPDX-License-Identifier: MIT
#include "connections/aws_credential_source.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>

namespace relaydesk {

namespace {

ConnectionError profileError(const QString &code, const QString &message)
{
    return {QStringLiteral("profile"), code, message, 0};
}

} // namespace

AwsCredentialSource::AwsCredentialSource(AwsProfile profile, QObject *parent)
    : QObject(parent), m_profile(std::move(profile))
{
}

void AwsCredentialSource::credentials(Callback callback)
{
    if (m_profile.credentialProcess.isEmpty()) {
        if (m_profile.accessKeyId.isEmpty() || m_profile.secretAccessKey.isEmpty())
            return callback(ConnectionResult<AwsCredentials>::failure(profileError(
                QStringLiteral("NoCredentials"),
                QStringLiteral("Profile %1 has no aws_access_key_id and aws_secret_access_key, and no credential_process.")
                    .arg(m_profile.name))));
        return callback(ConnectionResult<AwsCredentials>::success(
            {m_profile.accessKeyId, m_profile.secretAccessKey, m_profile.sessionToken}));
    }
    const QDateTime renewAt = m_expiration ? m_expiration->addSecs(-5 * 60) : QDateTime();
    if (m_cached && (!m_expiration || QDateTime::currentDateTimeUtc() < renewAt))
        return callback(ConnectionResult<AwsCredentials>::success(*m_cached));
    m_waiting.push_back(std::move(callback));
    if (m_waiting.size() == 1)
        runProcess();
}

ConnectionResult<AwsCredentials> AwsCredentialSource::readProcessOutput(const QByteArray &output,
                                                                       std::optional<QDateTime> *expiration)
{
    const QJsonDocument document = QJsonDocument::fromJson(output);
    const QJsonObject object = document.object();
    if (!document.isObject() || object.value(QStringLiteral("Version")).toInt() != 1 ||
        !object.value(QStringLiteral("AccessKeyId")).isString() ||
        !object.value(QStringLiteral("SecretAccessKey")).isString())
        return ConnectionResult<AwsCredentials>::failure(profileError(
            QStringLiteral("CredentialProcessOutput"),
            QStringLiteral("credential_process printed no JSON object with \"Version\": 1, \"AccessKeyId\" and "
                           "\"SecretAccessKey\".")));
    if (expiration) {
        const QString text = object.value(QStringLiteral("Expiration")).toString();
        *expiration = text.isEmpty() ? std::nullopt : std::optional(QDateTime::fromString(text, Qt::ISODate));
    }
    return ConnectionResult<AwsCredentials>::success({object.value(QStringLiteral("AccessKeyId")).toString(),
                                                      object.value(QStringLiteral("SecretAccessKey")).toString(),
                                                      object.value(QStringLiteral("SessionToken")).toString()});
}

QStringList AwsCredentialSource::commandWords(const QString &command)
{
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    for (qsizetype i = 0; i < command.size(); ++i) {
        const QChar c = command[i];
        if (quote == QLatin1Char('\'')) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
        } else if (quote == QLatin1Char('"')) {
            if (c == quote)
                quote = QChar();
            else if (c == QLatin1Char('\\') && i + 1 < command.size() && QStringLiteral("\"\\$`").contains(command[i + 1]))
                word += command[++i];
            else
                word += c;
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
            inWord = true;
        } else if (c == QLatin1Char('\\') && i + 1 < command.size()) {
            word += command[++i];
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

void AwsCredentialSource::runProcess()
{
    QStringList words = commandWords(m_profile.credentialProcess);
    if (words.isEmpty())
        return finish(ConnectionResult<AwsCredentials>::failure(
            profileError(QStringLiteral("CredentialProcessFailed"), QStringLiteral("credential_process is empty."))));
    auto *process = new QProcess(this);
    const QString program = words.takeFirst();
    connect(process, &QProcess::errorOccurred, this, [this, process, program](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return;
        process->deleteLater();
        finish(ConnectionResult<AwsCredentials>::failure(profileError(
            QStringLiteral("CredentialProcessFailed"),
            QStringLiteral("credential_process %1 did not start: %2").arg(program, process->errorString()))));
    });
    connect(process, &QProcess::finished, this, [this, process](int exitCode, QProcess::ExitStatus status) {
        process->deleteLater();
        if (status != QProcess::NormalExit || exitCode != 0) {
            const QString said = QString::fromUtf8(process->readAllStandardError()).trimmed();
            return finish(ConnectionResult<AwsCredentials>::failure(profileError(
                QStringLiteral("CredentialProcessFailed"),
                QStringLiteral("credential_process exited with status %1%2").arg(exitCode).arg(said.isEmpty() ? QString() : QStringLiteral(": ") + said))));
        }
        std::optional<QDateTime> expiration;
        ConnectionResult<AwsCredentials> result = readProcessOutput(process->readAllStandardOutput(), &expiration);
        if (result.ok) {
            m_cached = result.value;
            m_expiration = expiration;
        }
        finish(std::move(result));
    });
    process->start(program, words);
}

void AwsCredentialSource::finish(ConnectionResult<AwsCredentials> result)
{
    std::vector<Callback> waiting = std::move(m_waiting);
    m_waiting.clear();
    for (const Callback &callback : waiting)
        callback(result);
}

} // namespace relaydesk
