// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/queues/message_attributes.h"

#include <optional>
#include <string>

namespace relaydesk {

// One SNS notification as the envelope carries it (docs/behaviour.md §4.1). Plain value type.
struct SnsNotification {
    std::string messageId;
    std::string topicArn;
    std::string subscriptionArn;          // for the UnsubscribeURL
    std::optional<std::string> subject;
    std::string message;
    ClockTime timestamp{};                // clock time of the publish
    MessageAttributes attributes;
};

// The JSON envelope of a notification, keys in AWS's order: Type
// "Notification", MessageId, TopicArn, Subject (only if set), Message,
// Timestamp (ISO 8601 UTC with ms), SignatureVersion "1", Signature "" (the
// delivery worker signs), SigningCertURL (ENDPOINT/SimpleNotificationService.pem),
// UnsubscribeURL (ENDPOINT/?Action=Unsubscribe&SubscriptionArn=ARN) and
// MessageAttributes {Name: {Type, Value}} when there are any (Binary values
// base64). Pure, thread-safe.
std::string writeNotificationEnvelope(const SnsNotification &notification, const BrokerIdentity &identity);

// A SubscriptionConfirmation or UnsubscribeConfirmation (docs/behaviour.md §4.1). Plain value type.
struct SnsConfirmation {
    std::string type;                     // "SubscriptionConfirmation" or "UnsubscribeConfirmation"
    std::string messageId;
    std::string topicArn;
    std::string token;
    std::string message;                  // see confirmationMessage()
    ClockTime timestamp{};
};

// The envelope of a confirmation, keys in AWS's order: Type, MessageId,
// Token, TopicArn, Message, SubscribeURL
// (ENDPOINT/?Action=ConfirmSubscription&TopicArn=ARN&Token=TOKEN), Timestamp,
// SignatureVersion "1", Signature "" (the worker signs), SigningCertURL. Pure.
std::string writeConfirmationEnvelope(const SnsConfirmation &confirmation, const BrokerIdentity &identity);
std::string subscribeUrl(const BrokerIdentity &identity, const std::string &topicArn, const std::string &token);
// The Message text of a confirmation of `type` for the topic/subscription ARN, as AWS words it.
std::string confirmationMessage(const std::string &type, const std::string &arn);

// The URLs of the envelope, for the delivery worker too.
std::string signingCertUrl(const BrokerIdentity &identity);
std::string unsubscribeUrl(const BrokerIdentity &identity, const std::string &subscriptionArn);

} // namespace relaydesk
