// SPDX-License-Identifier: MIT
#include "message_digest.h"

#include "broker/hex_text.h"

#include <openssl/evp.h>

#include <cstdint>
#include <memory>

namespace relaydesk {

namespace {

// The algorithms, fetched once for the process and never freed: EVP_md5()
// and EVP_sha256() make OpenSSL 3 look the implementation up again on every
// EVP_DigestInit_ex (a tenth of a send's digest time). Thread-safe.
const EVP_MD *md5Algorithm()
{
    static EVP_MD *const algorithm = EVP_MD_fetch(nullptr, "MD5", nullptr);
    return algorithm;
}

const EVP_MD *sha256Algorithm()
{
    static EVP_MD *const algorithm = EVP_MD_fetch(nullptr, "SHA256", nullptr);
    return algorithm;
}

// Incremental digest over OpenSSL's EVP interface.
class Digest final {
public:
    explicit Digest(const EVP_MD *type) : m_context(EVP_MD_CTX_new(), &EVP_MD_CTX_free)
    {
        EVP_DigestInit_ex(m_context.get(), type, nullptr);
    }

    void add(std::string_view bytes) { EVP_DigestUpdate(m_context.get(), bytes.data(), bytes.size()); }
    void addByte(unsigned char byte) { EVP_DigestUpdate(m_context.get(), &byte, 1); }
    void addLengthPrefixed(std::string_view bytes)
    {
        const auto length = static_cast<uint32_t>(bytes.size());
        const unsigned char prefix[4] = {static_cast<unsigned char>(length >> 24), static_cast<unsigned char>(length >> 16),
                                         static_cast<unsigned char>(length >> 8), static_cast<unsigned char>(length)};
        EVP_DigestUpdate(m_context.get(), prefix, sizeof prefix);
        add(bytes);
    }

    std::string hex()
    {
        unsigned char bytes[EVP_MAX_MD_SIZE];
        unsigned length = 0;
        EVP_DigestFinal_ex(m_context.get(), bytes, &length);
        return hexOfBytes(std::string_view(reinterpret_cast<const char *>(bytes), length));
    }

private:
    std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> m_context;
};

constexpr unsigned char kStringTransport = 1;
constexpr unsigned char kBinaryTransport = 2;

} // namespace

std::string md5OfMessageBody(std::string_view body)
{
    Digest digest(md5Algorithm());
    digest.add(body);
    return digest.hex();
}

std::string md5OfMessageAttributes(const MessageAttributes &attributes)
{
    if (attributes.empty())
        return {};
    Digest digest(md5Algorithm());
    for (const auto &[name, value] : attributes) {
        digest.addLengthPrefixed(name);
        digest.addLengthPrefixed(value.dataType);
        if (value.isBinary()) {
            digest.addByte(kBinaryTransport);
            digest.addLengthPrefixed(value.binaryValue);
        } else {
            digest.addByte(kStringTransport);
            digest.addLengthPrefixed(value.stringValue);
        }
    }
    return digest.hex();
}

std::string contentDeduplicationId(std::string_view body)
{
    Digest digest(sha256Algorithm());
    digest.add(body);
    return digest.hex();
}

} // namespace relaydesk
