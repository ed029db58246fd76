// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_error.h"
#include "http/http_reply.h"

#include <QByteArray>

#include <string>

namespace relaydesk {

// An error as a wire protocol shows it: the broker's codes (docs/behaviour.md §10) plus
// the protocol-level ones that never reach the broker (a body that is not
// JSON, an unknown operation). Plain value type.
struct WireError {
    std::string jsonCode;    // SQS JSON __type suffix; native API "error"
    std::string queryCode;   // SQS/SNS query <Code>
    int httpStatus = 400;
    bool senderFault = true;
    std::string message;

    static WireError fromBroker(const BrokerError &error);
    // The body could not be read as the protocol's format.
    static WireError malformedRequest(std::string message);
    // No such action / operation.
    static WireError unknownOperation(std::string message);
    // A request body above the protocol's limit.
    static WireError bodyTooLarge(std::string message);
    // The browser boundary (docs/behaviour.md §8.2.1): a Host the broker does not answer
    // to (421 MisdirectedRequest), an Origin that is not the broker's own (403
    // AccessDenied), a native body that is not declared JSON (415
    // UnsupportedMediaType), a state change asked for by a GET (405 MethodNotAllowed).
    static WireError misdirectedRequest(std::string message);
    static WireError accessDenied(std::string message);
    static WireError unsupportedMediaType(std::string message);
    static WireError methodNotAllowed(std::string message);
    // Credentials (docs/configuration.md "Credentials"): an AWS signature
    // missing or from an unknown access key (403 InvalidClientTokenId), not
    // readable (400 IncompleteSignature), wrong or too old (403
    // SignatureDoesNotMatch), x-amz-content-sha256 not the body's (400
    // XAmzContentSHA256Mismatch); a bearer token missing or wrong (401 Unauthorized).
    static WireError invalidClientTokenId(std::string message);
    static WireError incompleteSignature(std::string message);
    static WireError signatureDoesNotMatch(std::string message);
    static WireError contentSha256Mismatch(std::string message);
    static WireError unauthorized(std::string message);
};

// The reply shapes (x-amzn-RequestId is added to every one):
//   SQS JSON  {"__type": "com.amazonaws.sqs#CODE", "message": …}, header
//             x-amzn-query-error: QUERYCODE;Sender|Receiver
//   SQS query <ErrorResponse xmlns=…queue…><Error><Type/><Code/><Message/><Detail/></Error><RequestId/></ErrorResponse>
//   SNS query the same with the SNS namespace
//   native    {"error": CODE, "message": …}
HttpReply sqsJsonErrorReply(const WireError &error, const QByteArray &requestId);
HttpReply sqsQueryErrorReply(const WireError &error, const QByteArray &requestId);
HttpReply snsQueryErrorReply(const WireError &error, const QByteArray &requestId);
HttpReply nativeErrorReply(const WireError &error);

// A fresh request id (UUID text).
QByteArray newRequestId();

} // namespace relaydesk
