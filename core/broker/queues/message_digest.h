// SPDX-License-Identifier: MIT
#pragma once

#include "message_attributes.h"

#include <string>
#include <string_view>

namespace relaydesk {

// The digests SQS returns and the SDKs verify (docs/behaviour.md §5.1), and the FIFO
// content-based deduplication id (docs/behaviour.md §5.2). Lowercase hexadecimal. Pure
// functions (OpenSSL EVP, no shared state), thread-safe.

// MD5OfMessageBody: MD5 of the body's bytes (UTF-8).
std::string md5OfMessageBody(std::string_view body);

// MD5OfMessageAttributes (and MD5OfMessageSystemAttributes), as AWS computes
// it: for each attribute in name order, the name, the data type and the value,
// each as a 4-byte big-endian length followed by its bytes, with one byte
// between type and value saying how the value travels: 1 for String and
// Number (stringValue), 2 for Binary (binaryValue). MD5 of the concatenation.
// Empty when there are no attributes (SQS then omits the field).
std::string md5OfMessageAttributes(const MessageAttributes &attributes);

// The MessageDeduplicationId of a FIFO message sent with content-based
// deduplication on: SHA-256 of the body's bytes.
std::string contentDeduplicationId(std::string_view body);

} // namespace relaydesk
