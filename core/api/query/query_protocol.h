// SPDX-License-Identifier: MIT
#pragma once

#include "api/wire/wire_error.h"
#include "http/http_reply.h"
#include "api/sns/sns_actions.h"
#include "api/sqs/sqs_actions.h"

#include <QByteArray>

#include <string>

namespace relaydesk {

// The query protocol of SQS and SNS (docs/behaviour.md §8.2): `Action=…` and flattened
// parameters, form-encoded in a POST body or in the URL of a GET (SNS's
// SubscribeURL / UnsubscribeURL are such GETs); XML replies.
// The action decides the service (the two services' action names do not
// overlap); an unknown action is answered InvalidAction in the shape of the
// service the request was signed for (Authorization credential scope), SQS
// when unsigned. An SQS request without QueueUrl posted to a queue's path
// (/ACCOUNT/NAME, older SDKs) names that queue.
// `inUrl`: the parameters came in a GET's URL. A GET carries only the actions
// that change nothing, and the two a subscriber GETs from a notification
// (queryActionAllowedInUrl); any other is refused 405 MethodNotAllowed with
// `Allow: POST` before the broker is reached (docs/behaviour.md §8.2.1: an <img> tag
// on any web page sends such a GET).
// Thread: the HTTP server's; answers on `channel` when the broker replied.
void answerQuery(const QByteArray &form, bool inUrl, const QByteArray &path, const QByteArray &authorization,
                 const SqsActionContext &sqs, const SnsActionContext &sns, ReplyChannel channel);

// Whether `action` may come in a GET's URL: the List… and Get… actions of
// both services, and SNS's ConfirmSubscription and Unsubscribe (the
// SubscribeURL and UnsubscribeURL of a notification, each needing a secret a
// web page does not have: the token, the subscription's id). AWS takes every
// action by GET; Relaydesk, on a developer's machine that browses the web,
// does not. Pure.
bool queryActionAllowedInUrl(const std::string &action);

// `error` in the shape of the service `form`'s action belongs to (an unknown
// action: the service the request was signed for, SQS when unsigned), for a
// request refused before its action is run. Pure.
HttpReply queryErrorReplyFor(const QByteArray &form, const QByteArray &authorization, const WireError &error);

} // namespace relaydesk
