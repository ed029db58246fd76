// SPDX-License-Identifier: MIT
#pragma once

#include "api/query/query_form.h"

#include <nlohmann/json.hpp>

#include <QByteArray>

#include <string>

namespace relaydesk {

// The query protocol's XML reply for one action's output members (the JSON
// protocol's shape):
//   <ACTIONResponse xmlns=…><ACTIONResult>members</ACTIONResult>
//   <ResponseMetadata><RequestId>…</RequestId></ResponseMetadata></ACTIONResponse>
// SQS flattens: a list repeats its element under the singular name
// (Messages → <Message>, QueueUrls → <QueueUrl>, Successful →
// <ACTION…ResultEntry>, Failed → <BatchResultErrorEntry>); Attributes are
// <Attribute><Name/><Value/></Attribute>, MessageAttributes
// <MessageAttribute><Name/><Value>…</Value></MessageAttribute>, Tags
// <Tag><Key/><Value/></Tag>. SNS wraps: a list is <member> elements inside
// the member's element, a map <entry><key/><value/></entry>. Text the XML
// 1.0 character set cannot hold is escaped as character references by
// QXmlStreamWriter. Pure.
QByteArray queryXmlReply(QueryService service, const std::string &action, const nlohmann::json &result,
                         const QByteArray &requestId);

} // namespace relaydesk
