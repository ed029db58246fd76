// SPDX-License-Identifier: MIT
#pragma once

#include "http/http_reply.h"
#include "api/sqs/sqs_actions.h"
#include "api/wire/wire_error.h"

#include <QByteArray>

#include <nlohmann/json.hpp>

#include <string>
#include <variant>

namespace relaydesk {

// The SQS JSON protocol (docs/behaviour.md §8.2): POST with `X-Amz-Target:
// AmazonSQS.ACTION` and an `application/x-amz-json-1.0` body holding the
// action's members; the reply is the output members as JSON, or an error in
// the JSON protocol's shape (wire_error.h). A body that is not a JSON object
// is a SerializationException, an unknown action an
// UnknownOperationException; neither reaches the broker.
// Thread: the HTTP server's; answers on `channel` when the broker replied.
void answerSqsJson(const QByteArray &target, const QByteArray &body, const SqsActionContext &context,
                   ReplyChannel channel);

// One JSON-protocol request as the broker gets it: the action named by the
// target and the body's members.
struct SqsJsonCall {
    std::string action;
    nlohmann::json parameters;   // an object
};

// Reads `target` (the X-Amz-Target header) and `body` as answerSqsJson does
// before anything reaches the broker, or the refusal: a target without
// "AmazonSQS." or naming no SQS action is UnknownOperationException, a body
// that is not a JSON object SerializationException (an empty body is {}).
// Pure, thread-safe.
std::variant<SqsJsonCall, WireError> readSqsJsonCall(const QByteArray &target, const QByteArray &body);

} // namespace relaydesk
