// SPDX-License-Identifier: MIT
#include "api/wire/aws_signature_v4.h"

#include "api/wire/hmac_sha256.h"
#include "http/http_request.h"

#include <QByteArray>

#include <openssl/crypto.h>
#include <openssl/sha.h>

#include <algorithm>
#include <array>
#include <utility>
#include <variant>
#include <vector>

namespace relaydesk {

namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";
constexpr std::string_view kUnsignedPayload = "UNSIGNED-PAYLOAD";
constexpr std::int64_t kMaxPresignedSeconds = 7 * 24 * 3600;

std::string hex(const unsigned char *bytes, std::size_t size)
{
    return QByteArray(reinterpret_cast<const char *>(bytes), static_cast<qsizetype>(size)).toHex().toStdString();
}

std::string sha256Hex(std::string_view data)
{
    std::array<unsigned char, SHA256_DIGEST_LENGTH> digest{};
    SHA256(reinterpret_cast<const unsigned char *>(data.data()), data.size(), digest.data());
    return hex(digest.data(), digest.size());
}

bool isUnreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' ||
           c == '_' || c == '~';
}

// Every byte but the unreserved ones (and '/' when kept) as %XX, upper case.
std::string awsEncode(std::string_view text, bool keepSlash)
{
    static constexpr char kDigits[] = "0123456789ABCDEF";
    std::string out;
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (isUnreserved(c) || (keepSlash && c == '/')) {
            out += ch;
        } else {
            out += '%';
            out += kDigits[c >> 4];
            out += kDigits[c & 0xF];
        }
    }
    return out;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// %XX decoded; anything else (a '+' included) as it is.
std::string percentDecode(std::string_view text)
{
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] == '%' && i + 2 < text.size() && hexValue(text[i + 1]) >= 0 && hexValue(text[i + 2]) >= 0) {
            out += static_cast<char>(hexValue(text[i + 1]) * 16 + hexValue(text[i + 2]));
            i += 2;
        } else {
            out += text[i];
        }
    }
    return out;
}

std::vector<std::string_view> split(std::string_view text, char separator)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        const std::size_t end = text.find(separator, start);
        parts.push_back(text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos)
            return parts;
        start = end + 1;
    }
}

std::string_view trim(std::string_view text)
{
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t'))
        text.remove_suffix(1);
    return text;
}

std::string lower(std::string_view text)
{
    std::string out(text);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; });
    return out;
}

std::string_view view(const QByteArray &bytes) { return {bytes.constData(), static_cast<std::size_t>(bytes.size())}; }

std::pair<std::string_view, std::string_view> pathAndQuery(const HttpRequest &request)
{
    const std::string_view target = view(request.target());
    const std::size_t question = target.find('?');
    if (question == std::string_view::npos)
        return {target, {}};
    return {target.substr(0, question), target.substr(question + 1)};
}

// The path without empty and "." segments, ".." taking the one before; a
// trailing '/' kept; then encoded (docs in the header).
std::string canonicalPath(std::string_view path)
{
    std::vector<std::string_view> segments;
    for (const std::string_view segment : split(path, '/')) {
        if (segment.empty() || segment == ".")
            continue;
        if (segment == "..") {
            if (!segments.empty())
                segments.pop_back();
            continue;
        }
        segments.push_back(segment);
    }
    std::string normal;
    for (const std::string_view segment : segments)
        normal += "/" + std::string(segment);
    if (normal.empty())
        normal = "/";
    else if (path.size() > 1 && path.back() == '/')
        normal += '/';
    return awsEncode(normal, true);
}

// The query's pairs, decoded, in the order sent.
std::vector<std::pair<std::string, std::string>> queryPairs(std::string_view query)
{
    std::vector<std::pair<std::string, std::string>> pairs;
    if (query.empty())
        return pairs;
    for (const std::string_view part : split(query, '&')) {
        if (part.empty())
            continue;
        const std::size_t equals = part.find('=');
        pairs.emplace_back(percentDecode(part.substr(0, equals)),
                           equals == std::string_view::npos ? std::string() : percentDecode(part.substr(equals + 1)));
    }
    return pairs;
}

std::string canonicalQuery(std::string_view query)
{
    std::vector<std::pair<std::string, std::string>> encoded;
    for (const auto &[name, value] : queryPairs(query)) {
        if (name != "X-Amz-Signature")
            encoded.emplace_back(awsEncode(name, false), awsEncode(value, false));
    }
    std::sort(encoded.begin(), encoded.end());
    std::string out;
    for (const auto &[name, value] : encoded)
        out += (out.empty() ? "" : "&") + name + "=" + value;
    return out;
}

// Every field named `name`, each with runs of spaces made one, joined with ','.
std::string canonicalValue(const HttpRequest &request, std::string_view name)
{
    std::string joined;
    bool first = true;
    for (const auto &[field, value] : request.headers()) {
        if (lower(view(field)) != name)
            continue;
        std::string collapsed;
        for (const char c : trim(view(value))) {
            if (c == ' ' && !collapsed.empty() && collapsed.back() == ' ')
                continue;
            collapsed += c;
        }
        joined += (first ? "" : ",") + collapsed;
        first = false;
    }
    return joined;
}

// "YYYYMMDDTHHMMSSZ" as seconds since the epoch.
std::optional<std::int64_t> readAmzDate(std::string_view text)
{
    if (text.size() != 16 || text[8] != 'T' || text[15] != 'Z')
        return std::nullopt;
    auto number = [&](std::size_t at, std::size_t length) -> std::optional<int> {
        int value = 0;
        for (std::size_t i = at; i < at + length; ++i) {
            if (text[i] < '0' || text[i] > '9')
                return std::nullopt;
            value = value * 10 + (text[i] - '0');
        }
        return value;
    };
    const auto year = number(0, 4), month = number(4, 2), day = number(6, 2);
    const auto hour = number(9, 2), minute = number(11, 2), second = number(13, 2);
    if (!year || !month || !day || !hour || !minute || !second || *month < 1 || *month > 12 || *day < 1 ||
        *day > 31 || *hour > 23 || *minute > 59 || *second > 60)
        return std::nullopt;
    // Days from 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
    const int y = *year - (*month <= 2 ? 1 : 0);
    const int era = y / 400;
    const int yearOfEra = y - era * 400;
    const int dayOfYear = (153 * (*month + (*month > 2 ? -3 : 9)) + 2) / 5 + *day - 1;
    const int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
    const std::int64_t days = std::int64_t(era) * 146097 + dayOfEra - 719468;
    return days * 86400 + *hour * 3600 + *minute * 60 + *second;
}

// What a signed request names, from its Authorization header or its query.
struct Claim {
    std::string accessKeyId;
    std::string date;      // scope date, YYYYMMDD
    std::string region;
    std::string service;
    std::string signedHeaders;
    std::string signature;
    std::string amzDate;
    std::optional<std::int64_t> expires;   // presigned only
};

SignatureCheck result(SignatureCheck::Outcome outcome, std::string message, std::string accessKeyId = {})
{
    return SignatureCheck{outcome, std::move(message), std::move(accessKeyId)};
}

// "AKID/DATE/REGION/SERVICE/aws4_request" into `claim`.
bool readCredential(std::string_view credential, Claim &claim)
{
    const std::vector<std::string_view> parts = split(credential, '/');
    if (parts.size() != 5 || parts[4] != "aws4_request" || parts[0].empty() || parts[1].size() != 8)
        return false;
    claim.accessKeyId = std::string(parts[0]);
    claim.date = std::string(parts[1]);
    claim.region = std::string(parts[2]);
    claim.service = std::string(parts[3]);
    return true;
}

std::variant<Claim, SignatureCheck> readHeaderClaim(const HttpRequest &request, std::string_view authorization)
{
    Claim claim;
    std::string_view rest = trim(authorization.substr(kAlgorithm.size()));
    for (const std::string_view item : split(rest, ',')) {
        const std::string_view field = trim(item);
        const std::size_t equals = field.find('=');
        if (equals == std::string_view::npos)
            continue;
        const std::string_view name = field.substr(0, equals);
        const std::string_view value = field.substr(equals + 1);
        if (name == "Credential") {
            if (!readCredential(value, claim))
                return result(SignatureCheck::Outcome::Malformed,
                              "The Credential of the Authorization header is not ACCESS_KEY_ID/DATE/REGION/SERVICE/aws4_request.");
        } else if (name == "SignedHeaders") {
            claim.signedHeaders = std::string(value);
        } else if (name == "Signature") {
            claim.signature = std::string(value);
        }
    }
    if (claim.accessKeyId.empty() || claim.signedHeaders.empty() || claim.signature.empty())
        return result(SignatureCheck::Outcome::Malformed,
                      "The Authorization header needs Credential, SignedHeaders and Signature.");
    claim.amzDate = std::string(trim(view(request.value("x-amz-date"))));
    return claim;
}

std::variant<Claim, SignatureCheck> readQueryClaim(std::string_view query)
{
    Claim claim;
    std::string algorithm;
    std::string credential;
    std::string expires;
    for (const auto &[name, value] : queryPairs(query)) {
        if (name == "X-Amz-Algorithm")
            algorithm = value;
        else if (name == "X-Amz-Credential")
            credential = value;
        else if (name == "X-Amz-Date")
            claim.amzDate = value;
        else if (name == "X-Amz-Expires")
            expires = value;
        else if (name == "X-Amz-SignedHeaders")
            claim.signedHeaders = value;
        else if (name == "X-Amz-Signature")
            claim.signature = value;
    }
    if (algorithm != kAlgorithm || !readCredential(credential, claim) || claim.signedHeaders.empty() ||
        claim.signature.empty())
        return result(SignatureCheck::Outcome::Malformed,
                      "A presigned request needs X-Amz-Algorithm=AWS4-HMAC-SHA256, X-Amz-Credential, X-Amz-Date, "
                      "X-Amz-SignedHeaders and X-Amz-Signature.");
    if (!expires.empty()) {
        if (expires.size() > 7 || !std::all_of(expires.begin(), expires.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
            std::stoll(expires) > kMaxPresignedSeconds)
            return result(SignatureCheck::Outcome::Malformed, "X-Amz-Expires must be a number of seconds up to 604800.");
        claim.expires = std::stoll(expires);
    }
    return claim;
}

std::string stringToSign(const Claim &claim, const std::string &canonicalRequest)
{
    std::string text(kAlgorithm);
    text.append("\n").append(claim.amzDate).append("\n");
    text.append(claim.date).append("/").append(claim.region).append("/").append(claim.service);
    return text.append("/aws4_request\n").append(sha256Hex(canonicalRequest));
}

bool sameSignature(const std::string &expected, const std::string &given)
{
    return expected.size() == given.size() && CRYPTO_memcmp(expected.data(), given.data(), expected.size()) == 0;
}

} // namespace

std::string awsCanonicalRequest(const HttpRequest &request, std::string_view signedHeaders, std::string_view payloadHash)
{
    const auto [path, query] = pathAndQuery(request);
    std::string headers;
    for (const std::string_view name : split(signedHeaders, ';'))
        headers += std::string(name) + ":" + canonicalValue(request, name) + "\n";
    return std::string(view(request.method())) + "\n" + canonicalPath(path) + "\n" + canonicalQuery(query) + "\n" +
           headers + "\n" + std::string(signedHeaders) + "\n" + std::string(payloadHash);
}

std::string awsSignature(std::string_view secret, std::string_view date, std::string_view region, std::string_view service,
                         std::string_view stringToSign)
{
    const std::string key =
        hmacSha256(hmacSha256(hmacSha256(hmacSha256("AWS4" + std::string(secret), date), region), service), "aws4_request");
    const std::string signature = hmacSha256(key, stringToSign);
    return hex(reinterpret_cast<const unsigned char *>(signature.data()), signature.size());
}

SignatureCheck checkAwsSignatureV4(const HttpRequest &request, const SecretLookup &secrets, std::int64_t nowSeconds)
{
    const std::string_view authorization = trim(view(request.value("authorization")));
    const std::string_view query = pathAndQuery(request).second;
    const bool presigned = authorization.empty() && query.find("X-Amz-Signature=") != std::string_view::npos;
    std::variant<Claim, SignatureCheck> read;
    if (authorization.substr(0, kAlgorithm.size()) == kAlgorithm && authorization.size() > kAlgorithm.size() &&
        authorization[kAlgorithm.size()] == ' ')
        read = readHeaderClaim(request, authorization);
    else if (presigned)
        read = readQueryClaim(query);
    else
        return result(SignatureCheck::Outcome::Missing,
                      "The request carries no AWS Signature Version 4 (an Authorization: AWS4-HMAC-SHA256 header or "
                      "X-Amz-Signature parameters); this broker requires one from a known access key.");
    if (auto *refused = std::get_if<SignatureCheck>(&read))
        return *refused;
    const Claim &claim = std::get<Claim>(read);
    const std::vector<std::string_view> signedNames = split(claim.signedHeaders, ';');
    if (std::find(signedNames.begin(), signedNames.end(), "host") == signedNames.end())
        return result(SignatureCheck::Outcome::Malformed,
                      "'Host' or ':authority' must be a 'SignedHeader' in the AWS Authorization.", claim.accessKeyId);

    const std::optional<std::string> secret = secrets(claim.accessKeyId);
    if (!secret)
        return result(SignatureCheck::Outcome::UnknownKey,
                      "The security token included in the request is invalid: the access key id is not one this broker "
                      "knows.",
                      claim.accessKeyId);
    const std::optional<std::int64_t> signedAt = readAmzDate(claim.amzDate);
    if (!signedAt || claim.amzDate.compare(0, 8, claim.date) != 0)
        return result(SignatureCheck::Outcome::Malformed,
                      "X-Amz-Date must be YYYYMMDDTHHMMSSZ and fall on the credential scope's date.", claim.accessKeyId);
    const std::int64_t skew = nowSeconds - *signedAt;
    if (claim.expires ? (skew < -kAllowedSkewSeconds || skew > *claim.expires) : (skew < -kAllowedSkewSeconds || skew > kAllowedSkewSeconds))
        return result(SignatureCheck::Outcome::Expired,
                      "Signature expired: " + claim.amzDate + " is not within " +
                          (claim.expires ? "X-Amz-Expires" : std::string("15 minutes")) +
                          " of the broker's time (check the clock of the client).",
                      claim.accessKeyId);

    // The body is what was signed: a declared hash must be the body's, and only a
    // presigned request without a body may have signed UNSIGNED-PAYLOAD.
    const std::string bodyHash = sha256Hex(view(request.body()));
    std::vector<std::string> payloadHashes;
    if (const QByteArray declared = request.value("x-amz-content-sha256"); !declared.isEmpty()) {
        if (lower(view(declared)) != bodyHash)
            return result(SignatureCheck::Outcome::PayloadMismatch,
                          "The provided 'x-amz-content-sha256' header does not match what was computed: it must be the "
                          "hex SHA-256 of the body (this service takes no UNSIGNED-PAYLOAD).",
                          claim.accessKeyId);
        payloadHashes.emplace_back(view(declared));
    } else {
        payloadHashes.push_back(bodyHash);
    }
    if (presigned && request.body().isEmpty())
        payloadHashes.emplace_back(kUnsignedPayload);
    for (const std::string &payloadHash : payloadHashes) {
        const std::string canonical = awsCanonicalRequest(request, claim.signedHeaders, payloadHash);
        const std::string expected = awsSignature(*secret, claim.date, claim.region, claim.service, stringToSign(claim, canonical));
        if (sameSignature(expected, lower(claim.signature)))
            return result(SignatureCheck::Outcome::Valid, {}, claim.accessKeyId);
    }
    return result(SignatureCheck::Outcome::Mismatch,
                  "The request signature we calculated does not match the signature you provided. Check your AWS "
                  "Secret Access Key and signing method.",
                  claim.accessKeyId);
}

} // namespace relaydesk
