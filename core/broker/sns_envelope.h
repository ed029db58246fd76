// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/message_attributes.h"

#include <optional>
#include <string>

namespace relaydesk {

// One SNS notification as the envelope carries it (SPEC 4.1). Plain value type.
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

// The URLs of the envelope, for the delivery worker too.
std::string signingCertUrl(const BrokerIdentity &identity);
std::string unsubscribeUrl(const BrokerIdentity &identity, const std::string &subscriptionArn);

} // namespace relaydesk
