// SPDX-License-Identifier: MIT
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace relaydesk {

// One message attribute as SQS and SNS carry it. `dataType` is "String",
// "Number" or "Binary", optionally with a custom label ("Number.float",
// "Binary.gif"); SNS also has "String.Array" (a JSON array in stringValue).
// Binary values are raw bytes (the protocol layer decodes base64). Plain
// value type.
struct MessageAttributeValue {
    std::string dataType;
    std::string stringValue;   // String, Number, String.Array
    std::string binaryValue;   // Binary: raw bytes

    // The part before the first '.': "String", "Number" or "Binary".
    std::string_view baseType() const { return std::string_view(dataType).substr(0, dataType.find('.')); }
    bool isBinary() const { return baseType() == "Binary"; }
    bool isStringArray() const { return dataType == "String.Array"; }
    bool operator==(const MessageAttributeValue &) const = default;
};

// Name -> value, ordered by name (bytewise), which is the order the MD5
// digest needs.
using MessageAttributes = std::map<std::string, MessageAttributeValue>;

} // namespace relaydesk
