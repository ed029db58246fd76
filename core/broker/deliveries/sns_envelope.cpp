// SPDX-License-Identifier: MIT
#include "broker/deliveries/sns_envelope.h"

#include <nlohmann/json.hpp>
#include <openssl/evp.h>

#include <vector>

namespace relaydesk {

namespace {

std::string base64(const std::string &bytes)
{
    std::vector<unsigned char> out(4 * ((bytes.size() + 2) / 3) + 1);
    const int length = EVP_EncodeBlock(out.data(), reinterpret_cast<const unsigned char *>(bytes.data()),
                                       static_cast<int>(bytes.size()));
    return std::string(reinterpret_cast<const char *>(out.data()), static_cast<std::size_t>(length));
}

} // namespace

std::string signingCertUrl(const BrokerIdentity &identity)
{
    return identity.endpoint + "/SimpleNotificationService.pem";
}

std::string unsubscribeUrl(const BrokerIdentity &identity, const std::string &subscriptionArn)
{
    return identity.endpoint + "/?Action=Unsubscribe&SubscriptionArn=" + subscriptionArn;
}

std::string subscribeUrl(const BrokerIdentity &identity, const std::string &topicArn, const std::string &token)
{
    return identity.endpoint + "/?Action=ConfirmSubscription&TopicArn=" + topicArn + "&Token=" + token;
}

std::string confirmationMessage(const std::string &type, const std::string &arn)
{
    if (type == "UnsubscribeConfirmation")
        return "You have chosen to deactivate subscription " + arn
            + ".\nTo cancel this operation and restore the subscription, visit the SubscribeURL included in this message.";
    return "You have chosen to subscribe to the topic " + arn
        + ".\nTo confirm the subscription, visit the SubscribeURL included in this message.";
}

std::string writeConfirmationEnvelope(const SnsConfirmation &confirmation, const BrokerIdentity &identity)
{
    nlohmann::ordered_json envelope = nlohmann::ordered_json::object();
    envelope["Type"] = confirmation.type;
    envelope["MessageId"] = confirmation.messageId;
    envelope["Token"] = confirmation.token;
    envelope["TopicArn"] = confirmation.topicArn;
    envelope["Message"] = confirmation.message;
    envelope["SubscribeURL"] = subscribeUrl(identity, confirmation.topicArn, confirmation.token);
    envelope["Timestamp"] = formatIso8601(confirmation.timestamp);
    envelope["SignatureVersion"] = "1";
    envelope["Signature"] = "";
    envelope["SigningCertURL"] = signingCertUrl(identity);
    return envelope.dump();
}

std::string writeNotificationEnvelope(const SnsNotification &notification, const BrokerIdentity &identity)
{
    nlohmann::ordered_json envelope = nlohmann::ordered_json::object();
    envelope["Type"] = "Notification";
    envelope["MessageId"] = notification.messageId;
    envelope["TopicArn"] = notification.topicArn;
    if (notification.subject)
        envelope["Subject"] = *notification.subject;
    envelope["Message"] = notification.message;
    envelope["Timestamp"] = formatIso8601(notification.timestamp);
    envelope["SignatureVersion"] = "1";
    envelope["Signature"] = "";
    envelope["SigningCertURL"] = signingCertUrl(identity);
    envelope["UnsubscribeURL"] = unsubscribeUrl(identity, notification.subscriptionArn);
    if (!notification.attributes.empty()) {
        nlohmann::ordered_json attributes = nlohmann::ordered_json::object();
        for (const auto &[name, value] : notification.attributes)
            attributes[name] = nlohmann::ordered_json{
                {"Type", value.dataType},
                {"Value", value.isBinary() ? base64(value.binaryValue) : value.stringValue}};
        envelope["MessageAttributes"] = attributes;
    }
    return envelope.dump();
}

} // namespace relaydesk
