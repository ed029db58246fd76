// SPDX-License-Identifier: MIT
#include "api/wire/shared_access_signature.h"

#include "api/wire/hmac_sha256.h"

#include <QByteArray>
#include <QDateTime>

#include <openssl/crypto.h>

#include <charconv>
#include <optional>

namespace relaydesk {

namespace {

constexpr std::string_view kScheme = "SharedAccessSignature ";

std::string lower(std::string text)
{
    for (char &c : text)
        if (c >= 'A' && c <= 'Z')
            c = char(c - 'A' + 'a');
    return text;
}

std::string decoded(std::string_view text)
{
    return QByteArray::fromPercentEncoding(QByteArray(text.data(), qsizetype(text.size()))).toStdString();
}

// Decoded, lower case, without "scheme://", a query and a trailing '/':
// "host:port/path". (The management SDKs sign the request's whole URL,
// "…/orders?api-version=2021-05"; the query names no entity.)
std::string normalised(std::string_view uri)
{
    std::string text = lower(decoded(uri));
    if (const std::size_t scheme = text.find("://"); scheme != std::string::npos)
        text.erase(0, scheme + 3);
    if (const std::size_t query = text.find('?'); query != std::string::npos)
        text.erase(query);
    while (!text.empty() && text.back() == '/')
        text.pop_back();
    return text;
}

// `inner` is `outer` or lies below it ("a/b" within "a", not within "a/bc" nor "ab").
bool within(std::string_view inner, std::string_view outer)
{
    if (outer.empty())
        return true;
    return inner.substr(0, outer.size()) == outer && (inner.size() == outer.size() || inner[outer.size()] == '/');
}

struct Fields {
    std::string_view resource;   // as sent (still URL-encoded: what was signed)
    std::string_view signature;
    std::string_view expiry;
    std::string_view keyName;
};

// The four fields of a token, each exactly once; nothing when it is not one.
std::optional<Fields> readFields(std::string_view token)
{
    if (token.substr(0, kScheme.size()) != kScheme)
        return std::nullopt;
    token.remove_prefix(kScheme.size());
    Fields fields;
    int seen = 0;
    while (!token.empty()) {
        const std::size_t end = token.find('&');
        const std::string_view pair = token.substr(0, end);
        token = end == std::string_view::npos ? std::string_view() : token.substr(end + 1);
        const std::size_t equals = pair.find('=');
        if (equals == std::string_view::npos)
            return std::nullopt;
        const std::string_view name = pair.substr(0, equals);
        std::string_view *slot = name == "sr" ? &fields.resource : name == "sig" ? &fields.signature
                               : name == "se" ? &fields.expiry : name == "skn" ? &fields.keyName : nullptr;
        if (!slot)
            continue;   // other fields (the SDKs send none) are not signed and change nothing
        if (!slot->empty() || equals + 1 == pair.size())
            return std::nullopt;
        *slot = pair.substr(equals + 1);
        ++seen;
    }
    if (seen != 4)
        return std::nullopt;
    return fields;
}

SasCheck refused(SasCheck::Outcome outcome, std::string message)
{
    SasCheck check;
    check.outcome = outcome;
    check.message = std::move(message);
    return check;
}

} // namespace

std::string SharedAccessSignatureCheck::sign(std::string_view key, std::string_view resource, std::string_view expiry)
{
    const std::string mac = hmacSha256(key, std::string(resource) + "\n" + std::string(expiry));
    return QByteArray(mac.data(), qsizetype(mac.size())).toBase64().toStdString();
}

SasCheck SharedAccessSignatureCheck::check(std::string_view token, std::string_view audience, std::int64_t nowSeconds) const
{
    const std::optional<Fields> fields = readFields(token);
    if (!fields)
        return refused(SasCheck::Outcome::Malformed,
                       "The token is not a Shared Access Signature: it must read "
                       "'SharedAccessSignature sr=RESOURCE&sig=SIGNATURE&se=EXPIRY&skn=KEYNAME'.");
    std::int64_t expiry = 0;
    const auto [end, error] = std::from_chars(fields->expiry.data(), fields->expiry.data() + fields->expiry.size(), expiry);
    if (error != std::errc() || end != fields->expiry.data() + fields->expiry.size() || expiry < 0)
        return refused(SasCheck::Outcome::Malformed, "The token's expiry (se) must be a time in seconds since 1970.");
    const std::string keyName = decoded(fields->keyName);
    const auto key = m_keys.find(keyName);
    if (key == m_keys.end())
        return refused(SasCheck::Outcome::UnknownKey, "Unauthorized: the shared access key name '" + keyName +
                                                          "' is not one this broker accepts (check SharedAccessKeyName).");
    const QByteArray given = QByteArray::fromBase64Encoding(QByteArray::fromStdString(decoded(fields->signature)),
                                                            QByteArray::AbortOnBase64DecodingErrors)
                                 .decoded;
    const std::string expected = hmacSha256(key->second, std::string(fields->resource) + "\n" + std::string(fields->expiry));
    if (std::size_t(given.size()) != expected.size() || CRYPTO_memcmp(given.constData(), expected.data(), expected.size()) != 0)
        return refused(SasCheck::Outcome::Mismatch, "InvalidSignature: the token has an invalid signature: it was not made "
                                                    "with the key of '" + keyName + "' (check SharedAccessKey).");
    if (expiry <= nowSeconds)
        return refused(SasCheck::Outcome::Expired,
                       "ExpiredToken: the token expired at " +
                           QDateTime::fromSecsSinceEpoch(expiry, Qt::UTC).toString(Qt::ISODate).toStdString() +
                           "; the broker's wall clock reads " +
                           QDateTime::fromSecsSinceEpoch(nowSeconds, Qt::UTC).toString(Qt::ISODate).toStdString() + ".");
    const std::string scope = normalised(fields->resource);
    if (scope.empty() || !within(normalised(audience), scope))
        return refused(SasCheck::Outcome::OutOfScope, "InvalidAudience: the token's resource '" + decoded(fields->resource) +
                                                          "' does not cover '" + std::string(audience) + "'.");
    SasCheck valid;
    valid.outcome = SasCheck::Outcome::Valid;
    valid.scope = scope;
    valid.expiresAt = expiry;
    return valid;
}

bool SharedAccessSignatureCheck::scopeCoversEntity(std::string_view scope, std::string_view address)
{
    const std::size_t slash = scope.find('/');
    const std::string_view scopePath = slash == std::string_view::npos ? std::string_view() : scope.substr(slash + 1);
    std::string path = lower(std::string(address));
    if (const std::size_t scheme = path.find("://"); scheme != std::string::npos) {
        const std::size_t hostEnd = path.find('/', scheme + 3);
        path.erase(0, hostEnd == std::string::npos ? path.size() : hostEnd);
    }
    while (!path.empty() && path.front() == '/')
        path.erase(0, 1);
    while (!path.empty() && path.back() == '/')
        path.pop_back();
    return within(path, scopePath);
}

} // namespace relaydesk
