// SPDX-License-Identifier: MIT
#pragma once

#include "http/http_reply.h"
#include "api/sns/sns_actions.h"
#include "api/sqs/sqs_actions.h"

#include <QByteArray>

namespace relaydesk {

// The query protocol of SQS and SNS (docs/behaviour.md §8.2): `Action=…` and flattened
// parameters, form-encoded in a POST body or in the URL of a GET (SNS's
// SubscribeURL / UnsubscribeURL are such GETs); XML replies.
// The action decides the service (the two services' action names do not
// overlap); an unknown action is answered InvalidAction in the shape of the
// service the request was signed for (Authorization credential scope), SQS
// when unsigned. An SQS request without QueueUrl posted to a queue's path
// (/ACCOUNT/NAME, older SDKs) names that queue.
// Thread: the HTTP server's; answers on `channel` when the broker replied.
void answerQuery(const QByteArray &form, const QByteArray &path, const QByteArray &authorization,
                 const SqsActionContext &sqs, const SnsActionContext &sns, ReplyChannel channel);

} // namespace relaydesk
