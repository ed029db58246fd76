// SPDX-License-Identifier: MIT
#include "host/broker_credentials.h"

#include "api/wire/aws_signature_v4.h"
#include "http/http_request.h"

#include <QFile>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace relaydesk {

namespace {

QString fileProblem(const QString &path, const QString &why)
{
    return QStringLiteral("--credentials %1: %2").arg(path, why);
}

// The strings of member `name` (an array), or why not.
std::variant<std::vector<std::string>, QString> readList(const nlohmann::json &member, const char *name)
{
    std::vector<std::string> values;
    if (!member.is_array())
        return QStringLiteral("\"%1\" must be an array of strings").arg(QLatin1String(name));
    for (const nlohmann::json &value : member) {
        if (!value.is_string() || value.get<std::string>().empty())
            return QStringLiteral("\"%1\" must hold non-empty strings").arg(QLatin1String(name));
        values.push_back(value.get<std::string>());
    }
    return values;
}

// The name -> secret pairs of an object member (non-empty names, without '/' when `noSlash`,
// and non-empty strings), or `problem`.
std::variant<SharedAccessKeys, QString> readSecrets(const nlohmann::json &member, const QString &problem, bool noSlash)
{
    SharedAccessKeys secrets;
    if (!member.is_object())
        return problem;
    for (const auto &[name, secret] : member.items()) {
        if (name.empty() || (noSlash && name.find('/') != std::string::npos) || !secret.is_string() ||
            secret.get<std::string>().empty())
            return problem;
        secrets.emplace(name, secret.get<std::string>());
    }
    return secrets;
}

// Equal, in a time that does not depend on where they differ.
bool sameSecret(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    unsigned char difference = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        difference |= static_cast<unsigned char>(a[i] ^ b[i]);
    return difference == 0;
}

std::string_view view(const QByteArray &bytes) { return {bytes.constData(), static_cast<std::size_t>(bytes.size())}; }

} // namespace

std::variant<BrokerCredentials, QString> readCredentialsFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return fileProblem(path, file.errorString());
    const nlohmann::json root = nlohmann::json::parse(file.readAll().toStdString(), nullptr, false);
    if (root.is_discarded() || !root.is_object())
        return fileProblem(path, QStringLiteral("not a JSON object"));
    BrokerCredentials credentials;
    for (const auto &[name, member] : root.items()) {
        if (name == "accessKeys" || name == "sharedAccessKeys") {
            const bool aws = name == "accessKeys";
            auto secrets = readSecrets(member, aws ? QStringLiteral("\"accessKeys\" must map access key ids (no '/') to "
                                                                    "non-empty secret strings")
                                                   : QStringLiteral("\"sharedAccessKeys\" must map key names to non-empty "
                                                                    "key strings"),
                                       aws);
            if (auto *why = std::get_if<QString>(&secrets))
                return fileProblem(path, *why);
            (aws ? credentials.accessKeys : credentials.sharedAccessKeys) = std::get<SharedAccessKeys>(std::move(secrets));
        } else if (name == "bearerTokens") {
            auto list = readList(member, name.c_str());
            if (auto *why = std::get_if<QString>(&list))
                return fileProblem(path, *why);
            credentials.bearerTokens = std::get<std::vector<std::string>>(std::move(list));
        } else if (name == "sharedAccessKeyNames") {
            return fileProblem(path, QStringLiteral("\"sharedAccessKeyNames\" is no longer read: a key name alone let any "
                                                    "key value in. Give each key name its key: \"sharedAccessKeys\": "
                                                    "{\"NAME\": \"KEY\"} (the connection string's SharedAccessKeyName "
                                                    "and SharedAccessKey)"));
        } else {
            return fileProblem(path, QStringLiteral("unknown member \"%1\" (accessKeys, bearerTokens, sharedAccessKeys)")
                                         .arg(QString::fromStdString(name)));
        }
    }
    return credentials;
}

RequestCredentials::RequestCredentials(std::shared_ptr<const BrokerCredentials> credentials)
    : m_credentials(std::move(credentials)),
      m_sharedAccess(m_credentials ? std::make_shared<const SharedAccessSignatureCheck>(m_credentials->sharedAccessKeys)
                                   : nullptr)
{
}

std::optional<WireError> RequestCredentials::checkSignature(const HttpRequest &request, std::int64_t nowSeconds) const
{
    if (!m_credentials)
        return std::nullopt;
    const auto secrets = [this](std::string_view id) -> std::optional<std::string> {
        const auto found = m_credentials->accessKeys.find(id);
        return found == m_credentials->accessKeys.end() ? std::nullopt : std::optional<std::string>(found->second);
    };
    SignatureCheck check = checkAwsSignatureV4(request, secrets, nowSeconds);
    switch (check.outcome) {
    case SignatureCheck::Outcome::Valid:
        return std::nullopt;
    case SignatureCheck::Outcome::Missing:
    case SignatureCheck::Outcome::UnknownKey:
        return WireError::invalidClientTokenId(std::move(check.message));
    case SignatureCheck::Outcome::Malformed:
        return WireError::incompleteSignature(std::move(check.message));
    case SignatureCheck::Outcome::PayloadMismatch:
        return WireError::contentSha256Mismatch(std::move(check.message));
    case SignatureCheck::Outcome::Expired:
    case SignatureCheck::Outcome::Mismatch:
        return WireError::signatureDoesNotMatch(std::move(check.message));
    }
    return WireError::signatureDoesNotMatch(std::move(check.message));
}

std::optional<WireError> RequestCredentials::checkBearer(const HttpRequest &request) const
{
    if (!m_credentials)
        return std::nullopt;
    constexpr std::string_view kBearer = "bearer ";
    std::string_view token;
    const QByteArray authorizationField = request.value("authorization");
    const QByteArray authTokenField = request.value("x-auth-token");
    const std::string_view authorization = view(authorizationField);
    if (authorization.size() > kBearer.size() &&
        QByteArray(authorization.data(), qsizetype(kBearer.size())).compare(QByteArray("Bearer "), Qt::CaseInsensitive) == 0)
        token = authorization.substr(kBearer.size());
    else
        token = view(authTokenField);
    if (token.empty())
        return WireError::unauthorized("This broker requires a bearer token: send Authorization: Bearer TOKEN with a "
                                       "token of its credentials file.");
    const bool known = std::any_of(m_credentials->bearerTokens.begin(), m_credentials->bearerTokens.end(),
                                   [&](const std::string &accepted) { return sameSecret(accepted, token); });
    if (!known)
        return WireError::unauthorized("The bearer token is not one this broker accepts.");
    return std::nullopt;
}

std::optional<WireError> RequestCredentials::checkSharedAccessSignature(const HttpRequest &request,
                                                                       std::int64_t nowSeconds) const
{
    if (!m_credentials)
        return std::nullopt;
    // The SDKs send Authorization; some send ServiceBusAuthorization (as the service accepts).
    QByteArray authorization = request.value("authorization");
    if (authorization.isEmpty())
        authorization = request.value("servicebusauthorization");
    const std::string_view token = view(authorization);
    if (token.empty())
        return WireError::unauthorized("This broker requires a Shared Access Signature: send Authorization: "
                                       "SharedAccessSignature sr=…&sig=…&se=…&skn=… made with a key of its credentials file.");
    const QByteArray target = request.target();
    const qsizetype question = target.indexOf('?');
    const std::string audience = "https://" + request.value("host").toStdString() +
                                 (question < 0 ? target : target.left(question)).toStdString();
    SasCheck check = m_sharedAccess->check(token, audience, nowSeconds);
    if (check.outcome != SasCheck::Outcome::Valid)
        return WireError::unauthorized(std::move(check.message));
    return std::nullopt;
}

} // namespace relaydesk
