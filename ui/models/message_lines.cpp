// SPDX-License-Identifier: MIT
#include "models/message_lines.h"

#include "connections/embedded/embedded_messages.h"

#include <nlohmann/json.hpp>

namespace relaydesk::message_lines {

QByteArray write(const BrowsedMessage &message)
{
    nlohmann::json system = {{"SentTimestamp", std::to_string(toEpochMilliseconds(message.sent))},
                             {"ApproximateReceiveCount", std::to_string(message.receiveCount)}};
    if (message.firstReceive)
        system["ApproximateFirstReceiveTimestamp"] = std::to_string(toEpochMilliseconds(*message.firstReceive));
    if (message.sequenceNumber)
        system["SequenceNumber"] = std::to_string(*message.sequenceNumber);
    nlohmann::json line = {{"MessageId", message.messageId},
                           {"Body", message.body},
                           {"Attributes", std::move(system)},
                           {"MessageAttributes", embedded::sqsMessageAttributes(message.attributes)}};
    if (message.groupId)
        line["MessageGroupId"] = *message.groupId;
    if (message.deduplicationId)
        line["MessageDeduplicationId"] = *message.deduplicationId;
    line["SentTime"] = formatIso8601(message.sent);
    return QByteArray::fromStdString(line.dump());
}

SendRequest resendRequest(const BrowsedMessage &message, bool fifoDestination)
{
    SendRequest request;
    request.body = message.body;
    request.attributes = message.attributes;
    if (fifoDestination) {
        request.groupId = message.groupId.value_or("default");
        request.deduplicationId = message.deduplicationId.value_or(message.messageId);
    }
    return request;
}

namespace {

// A line is a SendMessage request whose body is named as a received message's.
Result<SendRequest> readLine(nlohmann::json object)
{
    if (!object.contains("Body"))
        return BrokerError(BrokerErrorCode::MissingParameter, "The line must contain the member Body.");
    nlohmann::json body = object["Body"];
    object["MessageBody"] = std::move(body);
    object.erase("DelaySeconds");   // not part of the format: a line is sent as it is, at once
    return embedded::sqsSendRequest(std::move(object));
}

} // namespace

ImportFile read(const QByteArray &contents)
{
    ImportFile file;
    const QList<QByteArray> lines = contents.split('\n');
    for (int index = 0; index < lines.size(); ++index) {
        const QByteArray text = lines.at(index).trimmed();
        if (text.isEmpty())
            continue;
        const int number = index + 1;
        const nlohmann::json object = nlohmann::json::parse(text.constBegin(), text.constEnd(), nullptr, false);
        if (object.is_discarded() || !object.is_object()) {
            file.errors << QStringLiteral("line %1: not a JSON object").arg(number);
            continue;
        }
        Result<SendRequest> request = readLine(object);
        if (!request) {
            file.errors << QStringLiteral("line %1: %2").arg(number).arg(QString::fromStdString(request.error().message));
            continue;
        }
        file.messages.push_back({number, std::move(request).value()});
    }
    return file;
}

} // namespace relaydesk::message_lines
