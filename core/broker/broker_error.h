// SPDX-License-Identifier: MIT
#pragma once

#include <string>
#include <string_view>

namespace relaydesk {

// Every error the broker rules can report (docs/behaviour.md §10). Each code carries the
// service's own strings so that core/net only maps them to a wire shape:
//   SQS JSON protocol   {"__type": "com.amazonaws.sqs#<jsonCode>", "message": ...}
//                       plus header x-amzn-query-error: <queryCode>;Sender
//   SQS query protocol  <Error><Type>Sender</Type><Code><queryCode></Code>...
//   SNS query protocol  <Error><Type>Sender</Type><Code><queryCode></Code>...
//   native API          {"error": "<name>", "message": ...}
// Codes prefixed `Sns` belong to SNS; the unprefixed service codes to SQS.
enum class BrokerErrorCode {
    // SQS
    InvalidParameterValue,          // a parameter or attribute value out of range or malformed
    InvalidAttributeValue,          // an attribute value out of range (docs/behaviour.md §10: retention)
    InvalidAttributeName,           // unknown or not settable attribute name
    MissingParameter,               // a required parameter is absent
    InvalidAction,                  // unknown action
    QueueDoesNotExist,              // query: AWS.SimpleQueueService.NonExistentQueue
    QueueAlreadyExists,             // same name, different attributes (JSON: QueueNameExists)
    QueueDeletedRecently,
    ReceiptHandleIsInvalid,
    MessageNotInflight,
    TooManyEntriesInBatchRequest,
    BatchEntryIdsNotDistinct,
    EmptyBatchRequest,
    InvalidBatchEntryId,
    BatchRequestTooLong,
    InvalidMessageContents,
    PurgeQueueInProgress,
    UnsupportedOperation,
    OverLimit,
    ResourceNotFound,               // message move tasks
    // SNS
    SnsInvalidParameter,
    SnsInvalidParameterValue,       // code ParameterValueInvalid (message attributes)
    SnsNotFound,
    SnsAuthorizationError,
    SnsFilterPolicyLimitExceeded,
    SnsTooManyEntriesInBatchRequest,
    SnsBatchEntryIdsNotDistinct,
    SnsEmptyBatchRequest,
    SnsInvalidBatchEntryId,
    SnsBatchRequestTooLong,
    // Relaydesk's own (native API; also what an SQS/SNS request gets if it hits one)
    ClockNotVirtual,                // advancing a clock that is not in virtual mode
    DeliveryInProgress,             // redelivering a message whose delivery is still pending
    InternalError,                  // storage failure or a bug: the operation changed nothing
};

enum class ErrorService { Sqs, Sns, Native };

// The wire facts of one code. All strings are static.
struct BrokerErrorInfo {
    std::string_view name;            // stable identifier of the code, e.g. "QueueDoesNotExist" / "SnsNotFound"
    ErrorService service = ErrorService::Native;
    std::string_view jsonCode;        // SQS JSON protocol __type suffix (also used by the native API)
    std::string_view queryCode;       // SQS/SNS query protocol <Code>
    int httpStatus = 400;
    bool senderFault = true;          // <Type>Sender</Type> vs Receiver
    std::string_view defaultMessage;  // the service's usual sentence
};

// Total over BrokerErrorCode. Pure, thread-safe.
const BrokerErrorInfo &brokerErrorInfo(BrokerErrorCode code);

// One error value: the code and the message a client sees. Plain value type.
struct BrokerError {
    BrokerErrorCode code = BrokerErrorCode::InternalError;
    std::string message;

    BrokerError() = default;
    // An empty message takes the code's default message.
    explicit BrokerError(BrokerErrorCode errorCode, std::string text = {});

    const BrokerErrorInfo &info() const { return brokerErrorInfo(code); }
    bool operator==(const BrokerError &) const = default;
};

} // namespace relaydesk
