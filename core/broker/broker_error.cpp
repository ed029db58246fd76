// SPDX-License-Identifier: MIT
#include "broker_error.h"

#include "broker/echoed_value.h"

#include <array>

namespace relaydesk {

namespace {

using C = BrokerErrorCode;
using S = ErrorService;

struct Row {
    C code;
    BrokerErrorInfo info;
};

// Codes and statuses are those of the SQS Smithy model (awsQueryError traits)
// and the SNS API reference.
constexpr Row kRows[] = {
    {C::InvalidParameterValue, {"InvalidParameterValue", S::Sqs, "InvalidParameterValue", "InvalidParameterValue", 400, true,
                                "An invalid or out-of-range value was supplied for the input parameter."}},
    {C::InvalidAttributeValue, {"InvalidAttributeValue", S::Sqs, "InvalidAttributeValue", "InvalidAttributeValue", 400, true,
                                "A queue attribute value is invalid."}},
    {C::InvalidAttributeName, {"InvalidAttributeName", S::Sqs, "InvalidAttributeName", "InvalidAttributeName", 400, true,
                               "The specified attribute doesn't exist."}},
    {C::MissingParameter, {"MissingParameter", S::Sqs, "MissingParameter", "MissingParameter", 400, true,
                           "A required parameter is missing."}},
    {C::InvalidAction, {"InvalidAction", S::Sqs, "InvalidAction", "InvalidAction", 400, true,
                        "The action or operation requested is invalid."}},
    {C::QueueDoesNotExist, {"QueueDoesNotExist", S::Sqs, "QueueDoesNotExist", "AWS.SimpleQueueService.NonExistentQueue", 400,
                            true, "The specified queue does not exist."}},
    {C::QueueAlreadyExists, {"QueueAlreadyExists", S::Sqs, "QueueNameExists", "QueueAlreadyExists", 400, true,
                             "A queue with this name already exists with different attributes."}},
    {C::QueueDeletedRecently, {"QueueDeletedRecently", S::Sqs, "QueueDeletedRecently",
                               "AWS.SimpleQueueService.QueueDeletedRecently", 400, true,
                               "You must wait 60 seconds after deleting a queue before you can create another queue with the same name."}},
    {C::ReceiptHandleIsInvalid, {"ReceiptHandleIsInvalid", S::Sqs, "ReceiptHandleIsInvalid", "ReceiptHandleIsInvalid", 404,
                                 true, "The specified receipt handle isn't valid."}},
    {C::MessageNotInflight, {"MessageNotInflight", S::Sqs, "MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight",
                             400, true, "The specified message isn't in flight."}},
    {C::TooManyEntriesInBatchRequest, {"TooManyEntriesInBatchRequest", S::Sqs, "TooManyEntriesInBatchRequest",
                                       "AWS.SimpleQueueService.TooManyEntriesInBatchRequest", 400, true,
                                       "The batch request contains more entries than permissible."}},
    {C::BatchEntryIdsNotDistinct, {"BatchEntryIdsNotDistinct", S::Sqs, "BatchEntryIdsNotDistinct",
                                   "AWS.SimpleQueueService.BatchEntryIdsNotDistinct", 400, true,
                                   "Two or more batch entries in the request have the same Id."}},
    {C::EmptyBatchRequest, {"EmptyBatchRequest", S::Sqs, "EmptyBatchRequest", "AWS.SimpleQueueService.EmptyBatchRequest", 400,
                            true, "The batch request doesn't contain any entries."}},
    {C::InvalidBatchEntryId, {"InvalidBatchEntryId", S::Sqs, "InvalidBatchEntryId",
                              "AWS.SimpleQueueService.InvalidBatchEntryId", 400, true,
                              "The Id of a batch entry in a batch request doesn't abide by the specification."}},
    {C::BatchRequestTooLong, {"BatchRequestTooLong", S::Sqs, "BatchRequestTooLong",
                              "AWS.SimpleQueueService.BatchRequestTooLong", 400, true,
                              "The length of all the messages put together is more than the limit."}},
    {C::InvalidMessageContents, {"InvalidMessageContents", S::Sqs, "InvalidMessageContents", "InvalidMessageContents", 400,
                                 true, "The message contains characters outside the allowed set."}},
    {C::PurgeQueueInProgress, {"PurgeQueueInProgress", S::Sqs, "PurgeQueueInProgress",
                               "AWS.SimpleQueueService.PurgeQueueInProgress", 403, true,
                               "Only one PurgeQueue operation on a queue is allowed every 60 seconds."}},
    {C::UnsupportedOperation, {"UnsupportedOperation", S::Sqs, "UnsupportedOperation",
                               "AWS.SimpleQueueService.UnsupportedOperation", 400, true,
                               "Error code 400. Unsupported operation."}},
    {C::OverLimit, {"OverLimit", S::Sqs, "OverLimit", "OverLimit", 403, true,
                    "The specified action violates a limit."}},
    {C::ResourceNotFound, {"ResourceNotFound", S::Sqs, "ResourceNotFoundException", "ResourceNotFoundException", 404, true,
                           "One or more specified resources don't exist."}},
    {C::SnsInvalidParameter, {"SnsInvalidParameter", S::Sns, "InvalidParameter", "InvalidParameter", 400, true,
                              "Invalid parameter"}},
    {C::SnsInvalidParameterValue, {"SnsInvalidParameterValue", S::Sns, "ParameterValueInvalid", "ParameterValueInvalid", 400,
                                   true, "Invalid parameter value"}},
    {C::SnsNotFound, {"SnsNotFound", S::Sns, "NotFound", "NotFound", 404, true, "Resource does not exist"}},
    {C::SnsAuthorizationError, {"SnsAuthorizationError", S::Sns, "AuthorizationError", "AuthorizationError", 403, true,
                                "Not authorized"}},
    {C::SnsFilterPolicyLimitExceeded, {"SnsFilterPolicyLimitExceeded", S::Sns, "FilterPolicyLimitExceeded",
                                       "FilterPolicyLimitExceeded", 403, true, "Filter policy limit exceeded"}},
    {C::SnsTooManyEntriesInBatchRequest, {"SnsTooManyEntriesInBatchRequest", S::Sns, "TooManyEntriesInBatchRequest",
                                          "TooManyEntriesInBatchRequest", 400, true,
                                          "The batch request contains more entries than permissible."}},
    {C::SnsBatchEntryIdsNotDistinct, {"SnsBatchEntryIdsNotDistinct", S::Sns, "BatchEntryIdsNotDistinct",
                                      "BatchEntryIdsNotDistinct", 400, true,
                                      "Two or more batch entries in the request have the same Id."}},
    {C::SnsEmptyBatchRequest, {"SnsEmptyBatchRequest", S::Sns, "EmptyBatchRequest", "EmptyBatchRequest", 400, true,
                               "The batch request doesn't contain any entries."}},
    {C::SnsInvalidBatchEntryId, {"SnsInvalidBatchEntryId", S::Sns, "InvalidBatchEntryId", "InvalidBatchEntryId", 400, true,
                                 "The Id of a batch entry in a batch request doesn't abide by the specification."}},
    {C::SnsBatchRequestTooLong, {"SnsBatchRequestTooLong", S::Sns, "BatchRequestTooLong", "BatchRequestTooLong", 400, true,
                                 "The length of all the messages put together is more than the limit."}},
    {C::ClockNotVirtual, {"ClockNotVirtual", S::Native, "ClockNotVirtual", "ClockNotVirtual", 409, true,
                          "The clock can only be advanced in virtual mode."}},
    {C::DeliveryInProgress, {"DeliveryInProgress", S::Native, "DeliveryInProgress", "DeliveryInProgress", 409, true,
                             "The message is still being delivered to this subscription."}},
    {C::InternalError, {"InternalError", S::Native, "InternalFailure", "InternalError", 500, false,
                        "The request processing has failed because of an internal error."}},
};

constexpr std::size_t kCodeCount = static_cast<std::size_t>(C::InternalError) + 1;
static_assert(std::size(kRows) == kCodeCount, "one row per BrokerErrorCode");

constexpr bool rowsInEnumOrder()
{
    for (std::size_t i = 0; i < std::size(kRows); ++i) {
        if (static_cast<std::size_t>(kRows[i].code) != i)
            return false;
    }
    return true;
}
static_assert(rowsInEnumOrder(), "kRows must follow the order of BrokerErrorCode");

} // namespace

const BrokerErrorInfo &brokerErrorInfo(BrokerErrorCode code)
{
    const auto index = static_cast<std::size_t>(code);
    return kRows[index < kCodeCount ? index : kCodeCount - 1].info;
}

BrokerError::BrokerError(BrokerErrorCode errorCode, std::string text)
    : code(errorCode), message(text.empty() ? std::string(brokerErrorInfo(errorCode).defaultMessage) : std::move(text))
{
    // The backstop for a client's value echoed in full somewhere: no
    // error message is longer than kMaxErrorMessageBytes.
    if (message.size() > kMaxErrorMessageBytes)
        message = cutText(message, kMaxErrorMessageBytes);
}

} // namespace relaydesk
