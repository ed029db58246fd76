// SPDX-License-Identifier: MIT
#include "broker/deliveries/notification_signer.h"

#include "json/bounded_json.h"

#include "broker/deliveries/signature_cache.h"
#include "broker/store_calls.h"
#include "store/database.h"

#include <nlohmann/json.hpp>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>

#include <array>
#include <ctime>
#include <optional>
#include <vector>

namespace relaydesk {

// The private key's owner, outside the anonymous namespace: NotificationSigner::Key
// (a class with linkage) holds one, which a unity build would otherwise refuse.
struct NotificationSignerKeyFree { void operator()(EVP_PKEY *key) const { EVP_PKEY_free(key); } };

namespace {

using Code = BrokerErrorCode;
using Json = nlohmann::ordered_json;

constexpr int kKeyBits = 2048;
constexpr long kValiditySeconds = 10L * 365 * 24 * 3600;

struct X509Free { void operator()(X509 *cert) const { X509_free(cert); } };
struct BioFree { void operator()(BIO *bio) const { BIO_free(bio); } };
struct MdCtxFree { void operator()(EVP_MD_CTX *ctx) const { EVP_MD_CTX_free(ctx); } };
using PkeyPtr = std::unique_ptr<EVP_PKEY, NotificationSignerKeyFree>;
using X509Ptr = std::unique_ptr<X509, X509Free>;
using BioPtr = std::unique_ptr<BIO, BioFree>;
using MdCtxPtr = std::unique_ptr<EVP_MD_CTX, MdCtxFree>;

BrokerError cryptoFailure(std::string_view what)
{
    return BrokerError(Code::InternalError, "notification signing key: " + std::string(what) + " failed");
}

BrokerError malformed(std::string_view why)
{
    return BrokerError(Code::InvalidParameterValue, "SNS envelope: " + std::string(why));
}

// ---- envelope ----------------------------------------------------------

struct ParsedEnvelope {
    Json json;
    const EVP_MD *digest = nullptr;
    std::string canonical;
};

Result<ParsedEnvelope> parseEnvelope(std::string_view text)
{
    ParsedEnvelope parsed;
    parsed.json = parseBoundedJson<Json>(text);
    if (parsed.json.is_discarded() || !parsed.json.is_object())
        return malformed("not a JSON object");
    const Json &envelope = parsed.json;

    std::string version = "1";
    if (const auto found = envelope.find("SignatureVersion"); found != envelope.end()) {
        if (!found->is_string())
            return malformed("SignatureVersion is not a string");
        version = found->get<std::string>();
    }
    if (version == "1")
        parsed.digest = EVP_sha1();
    else if (version == "2")
        parsed.digest = EVP_sha256();
    else
        return malformed("unknown SignatureVersion \"" + version + "\" (1 or 2)");

    const auto type = envelope.find("Type");
    if (type == envelope.end() || !type->is_string())
        return malformed("Type is missing");
    static constexpr std::array<std::string_view, 6> kNotificationKeys{
        "Message", "MessageId", "Subject", "Timestamp", "TopicArn", "Type"};
    static constexpr std::array<std::string_view, 7> kConfirmationKeys{
        "Message", "MessageId", "SubscribeURL", "Timestamp", "Token", "TopicArn", "Type"};
    const std::string typeName = type->get<std::string>();
    const bool notification = typeName == "Notification";
    if (!notification && typeName != "SubscriptionConfirmation" && typeName != "UnsubscribeConfirmation")
        return malformed("unknown Type \"" + typeName + "\"");

    const auto append = [&](std::string_view key) -> Status {
        const auto value = envelope.find(std::string(key));
        if (value == envelope.end()) {
            if (notification && key == "Subject")
                return {};
            return malformed(std::string(key) + " is missing");
        }
        if (!value->is_string())
            return malformed(std::string(key) + " is not a string");
        parsed.canonical.append(key).append("\n").append(value->get<std::string>()).append("\n");
        return {};
    };
    if (notification) {
        for (std::string_view key : kNotificationKeys)
            if (Status added = append(key); !added)
                return added.error();
    } else {
        for (std::string_view key : kConfirmationKeys)
            if (Status added = append(key); !added)
                return added.error();
    }
    return parsed;
}

// ---- base64 -------------------------------------------------------------

std::string encodeBase64(const std::vector<unsigned char> &bytes)
{
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int length = EVP_EncodeBlock(reinterpret_cast<unsigned char *>(out.data()), bytes.data(),
                                       static_cast<int>(bytes.size()));
    out.resize(static_cast<std::size_t>(length));
    return out;
}

std::optional<std::vector<unsigned char>> decodeBase64(std::string_view text)
{
    if (text.empty() || text.size() % 4 != 0)
        return std::nullopt;
    std::vector<unsigned char> out(text.size() / 4 * 3);
    const int length = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char *>(text.data()),
                                       static_cast<int>(text.size()));
    if (length < 0)
        return std::nullopt;
    std::size_t padding = 0;
    for (auto it = text.rbegin(); it != text.rend() && *it == '=' && padding < 2; ++it)
        ++padding;
    out.resize(static_cast<std::size_t>(length) - padding);
    return out;
}

// ---- PEM ----------------------------------------------------------------

std::string readBio(BIO *bio)
{
    char *data = nullptr;
    const long length = BIO_get_mem_data(bio, &data);
    return std::string(data, static_cast<std::size_t>(length));
}

BioPtr bioOf(std::string_view pem)
{
    return BioPtr(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
}

X509Ptr parseCertificate(std::string_view pem)
{
    BioPtr bio = bioOf(pem);
    return X509Ptr(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

struct GeneratedKey {
    std::string privateKeyPem;
    std::string certificatePem;
};

Result<GeneratedKey> generateKey(ClockTime now)
{
    PkeyPtr key(EVP_RSA_gen(kKeyBits));
    if (!key)
        return cryptoFailure("RSA key generation");
    X509Ptr cert(X509_new());
    if (!cert)
        return cryptoFailure("X509_new");
    const std::time_t start = static_cast<std::time_t>(toEpochMilliseconds(now) / 1000);
    X509_NAME *name = X509_get_subject_name(cert.get());
    const auto text = [](const char *value) { return reinterpret_cast<const unsigned char *>(value); };
    const bool built = X509_set_version(cert.get(), 2) == 1
        && ASN1_INTEGER_set(X509_get_serialNumber(cert.get()), static_cast<long>(start)) == 1
        && ASN1_TIME_set(X509_getm_notBefore(cert.get()), start) != nullptr
        && ASN1_TIME_set(X509_getm_notAfter(cert.get()), start + kValiditySeconds) != nullptr
        && X509_set_pubkey(cert.get(), key.get()) == 1
        && X509_NAME_add_entry_by_txt(name, "O", MBSTRING_ASC, text("Relaydesk"), -1, -1, 0) == 1
        && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, text("relaydesk"), -1, -1, 0) == 1
        && X509_set_issuer_name(cert.get(), name) == 1
        && X509_sign(cert.get(), key.get(), EVP_sha256()) > 0;
    if (!built)
        return cryptoFailure("building the certificate");
    BioPtr keyBio(BIO_new(BIO_s_mem()));
    BioPtr certBio(BIO_new(BIO_s_mem()));
    if (!keyBio || !certBio
        || PEM_write_bio_PrivateKey(keyBio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1
        || PEM_write_bio_X509(certBio.get(), cert.get()) != 1)
        return cryptoFailure("writing PEM");
    return GeneratedKey{readBio(keyBio.get()), readBio(certBio.get())};
}

constexpr std::size_t kCachedSignatures = 8192;

// SHA-256 of the digest's name and the canonical string: the cache key.
std::optional<std::string> cacheKeyOf(const ParsedEnvelope &parsed)
{
    const std::string input = std::string(EVP_MD_get0_name(parsed.digest)) + '\n' + parsed.canonical;
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    if (EVP_Digest(input.data(), input.size(), digest.data(), &length, EVP_sha256(), nullptr) != 1)
        return std::nullopt;
    return std::string(reinterpret_cast<const char *>(digest.data()), length);
}

} // namespace

struct NotificationSigner::Key {
    PkeyPtr privateKey;
    SignatureCache signatures{kCachedSignatures};
};

NotificationSigner::NotificationSigner(std::unique_ptr<Key> key, std::string certificatePem)
    : m_key(std::move(key)), m_certificatePem(std::move(certificatePem))
{
}

NotificationSigner::~NotificationSigner() = default;

Result<std::unique_ptr<NotificationSigner>> NotificationSigner::loadOrCreate(Database &db, ClockTime now)
{
    Result<std::optional<CachedStatement>> row = selectRow(
        db, "SELECT private_key_pem, certificate_pem FROM broker_keys WHERE purpose = 'signing'");
    if (!row)
        return row.error();
    GeneratedKey stored;
    if (row->has_value()) {
        stored.privateKeyPem = (**row)->columnText(0);
        stored.certificatePem = (**row)->columnText(1);
        row->reset();
    } else {
        row->reset();
        Result<GeneratedKey> generated = generateKey(now);
        if (!generated)
            return generated.error();
        stored = std::move(*generated);
        if (Status inserted = executeStatement(
                db, "INSERT INTO broker_keys (purpose, private_key_pem, certificate_pem, created_ms) "
                    "VALUES ('signing', ?, ?, ?)",
                stored.privateKeyPem, stored.certificatePem, toEpochMilliseconds(now));
            !inserted)
            return inserted.error();
    }

    BioPtr keyBio = bioOf(stored.privateKeyPem);
    auto key = std::make_unique<Key>();
    key->privateKey.reset(keyBio ? PEM_read_bio_PrivateKey(keyBio.get(), nullptr, nullptr, nullptr) : nullptr);
    X509Ptr cert = parseCertificate(stored.certificatePem);
    if (!key->privateKey || !cert)
        return cryptoFailure("reading the stored PEM");
    if (X509_check_private_key(cert.get(), key->privateKey.get()) != 1)
        return cryptoFailure("matching the stored certificate and key");
    return std::unique_ptr<NotificationSigner>(new NotificationSigner(std::move(key), std::move(stored.certificatePem)));
}

Result<std::string> NotificationSigner::signEnvelope(std::string_view envelopeJson) const
{
    Result<ParsedEnvelope> parsed = parseEnvelope(envelopeJson);
    if (!parsed)
        return parsed.error();
    const std::optional<std::string> cacheKey = cacheKeyOf(*parsed);
    if (cacheKey) {
        if (std::optional<std::string> cached = m_key->signatures.find(*cacheKey)) {
            parsed->json["Signature"] = std::move(*cached);
            return parsed->json.dump();
        }
    }
    MdCtxPtr ctx(EVP_MD_CTX_new());
    std::size_t length = 0;
    const auto *data = reinterpret_cast<const unsigned char *>(parsed->canonical.data());
    if (!ctx || EVP_DigestSignInit(ctx.get(), nullptr, parsed->digest, nullptr, m_key->privateKey.get()) != 1
        || EVP_DigestSign(ctx.get(), nullptr, &length, data, parsed->canonical.size()) != 1)
        return cryptoFailure("EVP_DigestSign");
    std::vector<unsigned char> signature(length);
    if (EVP_DigestSign(ctx.get(), signature.data(), &length, data, parsed->canonical.size()) != 1)
        return cryptoFailure("EVP_DigestSign");
    signature.resize(length);
    std::string encoded = encodeBase64(signature);
    if (cacheKey)
        m_key->signatures.insert(*cacheKey, encoded);
    parsed->json["Signature"] = std::move(encoded);
    return parsed->json.dump();
}

Result<std::string> canonicalSigningString(std::string_view envelopeJson)
{
    Result<ParsedEnvelope> parsed = parseEnvelope(envelopeJson);
    if (!parsed)
        return parsed.error();
    return std::move(parsed->canonical);
}

bool verifyEnvelopeSignature(std::string_view envelopeJson, std::string_view certificatePem)
{
    Result<ParsedEnvelope> parsed = parseEnvelope(envelopeJson);
    if (!parsed)
        return false;
    const auto field = parsed->json.find("Signature");
    if (field == parsed->json.end() || !field->is_string())
        return false;
    const std::optional<std::vector<unsigned char>> signature = decodeBase64(field->get<std::string>());
    X509Ptr cert = parseCertificate(certificatePem);
    if (!signature || !cert)
        return false;
    EVP_PKEY *publicKey = X509_get0_pubkey(cert.get()); // owned by cert
    MdCtxPtr ctx(EVP_MD_CTX_new());
    const bool verified = publicKey && ctx
        && EVP_DigestVerifyInit(ctx.get(), nullptr, parsed->digest, nullptr, publicKey) == 1
        && EVP_DigestVerify(ctx.get(), signature->data(), signature->size(),
                            reinterpret_cast<const unsigned char *>(parsed->canonical.data()),
                            parsed->canonical.size()) == 1;
    ERR_clear_error(); // a failed verification leaves its reasons on this thread's queue
    return verified;
}

} // namespace relaydesk
