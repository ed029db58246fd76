// SPDX-License-Identifier: MIT
#pragma once

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <array>
#include <string>
#include <string_view>

namespace relaydesk {

// The raw HMAC-SHA256 of `data` under `key` (OpenSSL): the step both request
// signatures of api/wire are made of (aws_signature_v4.cpp, shared_access_signature.cpp).
inline std::string hmacSha256(std::string_view key, std::string_view data)
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char *>(data.data()),
         data.size(), digest.data(), &size);
    return std::string(reinterpret_cast<const char *>(digest.data()), size);
}

} // namespace relaydesk
