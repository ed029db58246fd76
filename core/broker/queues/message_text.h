// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_attributes.h"
#include "broker/result.h"

#include <cstddef>
#include <string_view>

namespace relaydesk {

// The text rules SQS applies to message bodies and attribute values, shared
// by SendMessage, Publish and the protocol layer. Pure, thread-safe.

// Whether `text` is valid UTF-8 (no overlong forms, surrogates or code
// points past U+10FFFF).
bool isValidUtf8(std::string_view text);

// Whether `text` is valid UTF-8 holding only the characters SQS accepts:
// #x9 #xA #xD #x20–#xD7FF #xE000–#xFFFD #x10000–#x10FFFF.
bool isSqsMessageText(std::string_view text);

// Whether `text` is an SQS identifier (MessageGroupId, MessageDeduplicationId,
// ReceiveRequestAttemptId): 1 to 128 characters, each alphanumeric or
// punctuation (!"#$%&'()*+,-./:;<=>?@[\]^_`{|}~).
inline constexpr std::size_t kMaxSqsIdentifierLength = 128;
bool isSqsIdentifier(std::string_view text);

// Whether `text` is a number as SQS takes a Number attribute: an optional
// sign, digits with an optional fraction, an optional exponent
// ("-1.5e3"); at most 38 significant digits; zero or a magnitude from
// 10^-128 up to (not including) 10^126.
bool isSqsNumber(std::string_view text);

// The value rules of message attributes: String
// and Number values (and String.Array) only of isSqsMessageText characters,
// Number values isSqsNumber. `code` is the error to answer
// (SQS InvalidParameterValue, SNS ParameterValueInvalid); the message names
// the attribute. Names, types and emptiness are the callers' checks.
Status checkMessageAttributeValues(const MessageAttributes &attributes, BrokerErrorCode code);

} // namespace relaydesk
