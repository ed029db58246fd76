// SPDX-License-Identifier: MIT
#pragma once

#include "http/http_reply.h"
#include "api/sqs/sqs_actions.h"

#include <QByteArray>

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

} // namespace relaydesk
