// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <QByteArray>

#include <string>

namespace relaydesk {

// The query protocol's flattened parameters (`Attribute.1.Name=…`,
// `MessageAttribute.1.Value.StringValue=…`, `Attributes.entry.1.key=…`,
// `Tags.member.1.Key=…`) turned into the JSON protocol's shape
// ({"Attributes": {…}, "MessageAttributes": {…}, "Tags": […]}), so one action
// table serves both protocols. Every scalar stays a string (ActionInput reads
// numbers and booleans from text). Indexes order lists; gaps are skipped.
// "Action" and "Version" are left out. Keys that match no rule are kept as
// plain members. Pure, thread-safe.
enum class QueryService { Sqs, Sns };

// `form` is an application/x-www-form-urlencoded body or URL query.
// `action` receives the Action parameter (empty if none).
nlohmann::json queryFormToJson(const QByteArray &form, QueryService service, std::string &action);

// Whether `form` has a '%' not followed by two hexadecimal digits (such a
// request is refused whole: it would otherwise decode to arbitrary bytes).
bool hasMalformedPercentEscape(const QByteArray &form);

} // namespace relaydesk
