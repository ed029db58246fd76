// SPDX-License-Identifier: MIT
#include "broker/queues/receipt_handle.h"

#include "broker/hex_text.h"
#include "broker/store_calls.h"

#include <openssl/evp.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <charconv>
#include <mutex>

namespace relaydesk {

namespace {

constexpr char kSealMark = '~';
constexpr std::size_t kSealBytes = 16; // of the 32-byte HMAC-SHA256
constexpr std::size_t kSealDigits = 2 * kSealBytes;
constexpr std::size_t kKeyBytes = 32;
constexpr const char *kKeySetting = "receipt.seal_key";

// HMAC-SHA256 of `text` under `key` through one context kept for the process
// (never freed) and keyed again only when the key changes: OpenSSL 3's
// one-shot HMAC() fetches the algorithm and derives the key's pads on every
// call, a third of a receive's seal work. Thread-safe (one mutex; the broker
// thread is practically its only caller).
std::string sealOf(std::string_view key, std::string_view text)
{
    static std::mutex mutex;
    static EVP_MAC_CTX *context = nullptr;
    static std::string contextKey;
    const std::lock_guard<std::mutex> lock(mutex);
    if (context == nullptr) {
        EVP_MAC *hmac = EVP_MAC_fetch(nullptr, "HMAC", nullptr);
        context = hmac ? EVP_MAC_CTX_new(hmac) : nullptr;
        EVP_MAC_free(hmac); // the context keeps its own reference
        if (context == nullptr)
            return std::string(); // checks nothing
    }
    bool ready = false;
    if (key == contextKey && !contextKey.empty()) {
        ready = EVP_MAC_init(context, nullptr, 0, nullptr) == 1; // the same key again
    } else {
        char digest[] = "SHA256";
        const OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, digest, 0),
                                     OSSL_PARAM_construct_end()};
        ready = EVP_MAC_init(context, reinterpret_cast<const unsigned char *>(key.data()), key.size(), params) == 1;
        contextKey = ready ? std::string(key) : std::string();
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    std::size_t size = 0;
    if (!ready || EVP_MAC_update(context, reinterpret_cast<const unsigned char *>(text.data()), text.size()) != 1
        || EVP_MAC_final(context, digest, &size, sizeof digest) != 1 || size < kSealBytes)
        return std::string(); // checks nothing
    return hexOfBytes(std::string_view(reinterpret_cast<const char *>(digest), kSealBytes));
}

// Compares in time independent of where the strings first differ.
bool sameSeal(std::string_view a, std::string_view b)
{
    if (a.size() != b.size() || a.empty())
        return false;
    unsigned char difference = 0;
    for (std::size_t i = 0; i < a.size(); ++i)
        difference |= static_cast<unsigned char>(a[i] ^ b[i]);
    return difference == 0;
}

} // namespace

std::string makeReceiptHandle(std::string_view key, std::int64_t queueId, std::int64_t messageRowId,
                              std::string_view token)
{
    std::string handle = "q" + std::to_string(queueId) + "m" + std::to_string(messageRowId) + "-" + std::string(token);
    const std::string seal = sealOf(key, handle);
    handle += kSealMark;
    handle += seal;
    return handle;
}

bool isSealedReceiptHandle(std::string_view handle)
{
    return handle.size() > kSealDigits && handle[handle.size() - kSealDigits - 1] == kSealMark;
}

// "q<queue row id>m<message row id>-<token>[~<seal>]" -> the message row id,
// when the handle is of this shape, its seal (if any) checks, and it names
// `queueId`.
std::optional<std::int64_t> receiptHandleMessageRow(std::string_view key, std::string_view handle,
                                                    std::int64_t queueId)
{
    if (isSealedReceiptHandle(handle)) {
        const std::string_view body = handle.substr(0, handle.size() - kSealDigits - 1);
        if (!sameSeal(handle.substr(handle.size() - kSealDigits), sealOf(key, body)))
            return std::nullopt;
        handle = body;
    }
    const auto number = [&](std::size_t &at, char lead) -> std::optional<std::int64_t> {
        if (at >= handle.size() || handle[at] != lead)
            return std::nullopt;
        std::int64_t value = 0;
        const auto [end, error] = std::from_chars(handle.data() + at + 1, handle.data() + handle.size(), value);
        if (error != std::errc() || end == handle.data() + at + 1)
            return std::nullopt;
        at = static_cast<std::size_t>(end - handle.data());
        return value;
    };
    std::size_t at = 0;
    const std::optional<std::int64_t> queue = number(at, 'q');
    const std::optional<std::int64_t> row = queue ? number(at, 'm') : std::nullopt;
    if (!row || at + 1 >= handle.size() || handle[at] != '-' || *queue != queueId)
        return std::nullopt;
    return row;
}

Result<std::string> receiptSealKey(Database &db)
{
    std::unordered_map<std::string, std::string> &memo = db.memo();
    if (const auto kept = memo.find(kKeySetting); kept != memo.end())
        return kept->second;
    Result<CachedStatement> read = prepareBound(db, "SELECT value FROM settings WHERE key = ?", std::string(kKeySetting));
    if (!read)
        return read.error();
    Result<bool> row = nextRow(**read);
    if (!row)
        return row.error();
    if (*row) {
        // Made by the schema (migration 16), so committed: kept for the connection.
        std::string key = (*read)->columnText(0);
        memo.emplace(kKeySetting, key);
        return key;
    }
    // A database whose key was removed: a new one, read again by the next call
    // (this unit may still roll back).
    unsigned char bytes[kKeyBytes];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        return BrokerError(BrokerErrorCode::InternalError, "no random bytes for the receipt handle seal key");
    const std::string key = hexOfBytes(std::string_view(reinterpret_cast<const char *>(bytes), sizeof bytes));
    if (Status stored = executeStatement(db, "INSERT INTO settings (key, value) VALUES (?, ?)", std::string(kKeySetting), key);
        !stored)
        return stored.error();
    return key;
}

} // namespace relaydesk
