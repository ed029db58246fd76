// SPDX-License-Identifier: MIT
#include "broker/queues/message_text.h"

#include "broker/echoed_value.h"

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>

namespace relaydesk {

namespace {

// Decodes one UTF-8 code point at `i`; nothing when malformed.
std::optional<char32_t> nextCodePoint(std::string_view text, std::size_t &i)
{
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    int length = 0;
    char32_t value = 0;
    if (lead < 0x80) {
        ++i;
        return lead;
    } else if ((lead & 0xE0) == 0xC0) {
        length = 2;
        value = lead & 0x1F;
    } else if ((lead & 0xF0) == 0xE0) {
        length = 3;
        value = lead & 0x0F;
    } else if ((lead & 0xF8) == 0xF0) {
        length = 4;
        value = lead & 0x07;
    } else {
        return std::nullopt;
    }
    if (i + length > text.size())
        return std::nullopt;
    for (int k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80)
            return std::nullopt;
        value = (value << 6) | (byte(i + k) & 0x3F);
    }
    static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (value < kSmallest[length] || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF))
        return std::nullopt;
    i += length;
    return value;
}

bool isAllowedCharacter(char32_t c)
{
    return c == 0x9 || c == 0xA || c == 0xD || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD)
        || (c >= 0x10000 && c <= 0x10FFFF);
}

} // namespace

bool isValidUtf8(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        if (!nextCodePoint(text, i))
            return false;
    }
    return true;
}

bool isSqsMessageText(std::string_view text)
{
    for (std::size_t i = 0; i < text.size();) {
        if (const auto byte = static_cast<unsigned char>(text[i]); byte >= 0x20 && byte < 0x80) {
            ++i;   // printable ASCII, most bodies' every byte: allowed without decoding
            continue;
        }
        const std::optional<char32_t> c = nextCodePoint(text, i);
        if (!c || !isAllowedCharacter(*c))
            return false;
    }
    return true;
}

bool isSqsIdentifier(std::string_view text)
{
    return !text.empty() && text.size() <= kMaxSqsIdentifierLength
        && std::all_of(text.begin(), text.end(), [](char c) { return c >= '!' && c <= '~'; });
}

bool isSqsNumber(std::string_view text)
{
    std::size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+'))
        ++i;
    // The digits of the mantissa, and where the decimal point is in them.
    std::string digits;
    std::size_t integerDigits = 0;
    bool point = false;
    bool anyDigit = false;
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9') {
            anyDigit = true;
            digits.push_back(c);
            if (!point)
                ++integerDigits;
        } else if (c == '.' && !point) {
            point = true;
        } else {
            break;
        }
    }
    if (!anyDigit)
        return false;
    std::int64_t exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool negative = false;
        if (i < text.size() && (text[i] == '-' || text[i] == '+'))
            negative = text[i++] == '-';
        const std::size_t first = i;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            if (exponent < 1'000'000)   // far past any range: stop growing
                exponent = exponent * 10 + (text[i] - '0');
        }
        if (i == first)
            return false;
        if (negative)
            exponent = -exponent;
    }
    if (i != text.size())
        return false;
    // value = 0.<significant digits> x 10^magnitude
    const std::size_t lead = digits.find_first_not_of('0');
    if (lead == std::string::npos)
        return true;   // zero
    const std::size_t last = digits.find_last_not_of('0');
    if (last - lead + 1 > 38)
        return false;
    const std::int64_t magnitude = std::int64_t(integerDigits) - std::int64_t(lead) + exponent;
    // |value| < 10^126  <=>  magnitude <= 126;  |value| >= 10^-128  <=>  magnitude >= -127
    return magnitude <= 126 && magnitude >= -127;
}

Status checkMessageAttributeValues(const MessageAttributes &attributes, BrokerErrorCode code)
{
    for (const auto &[name, value] : attributes) {
        if (value.isBinary())
            continue;
        if (!isSqsMessageText(value.stringValue))
            return BrokerError(code, "Message attribute '" + echoedValue(name) + "' has a value with invalid characters. Valid "
                                     "unicode characters are #x9 | #xA | #xD | #x20 to #xD7FF | #xE000 to #xFFFD | "
                                     "#x10000 to #x10FFFF");
        if (value.baseType() == "Number" && !isSqsNumber(value.stringValue))
            return BrokerError(code, "Message attribute '" + echoedValue(name) + "' of type Number has an invalid value: a number "
                                     "of up to 38 significant digits from -10^126 to 10^126 is expected.");
    }
    return {};
}

} // namespace relaydesk
