// SPDX-License-Identifier: MIT
#pragma once

#include "connections/aws_client.h"

#include <QJsonObject>

namespace relaydesk {

// The SQS query protocol spoken in the JSON protocol's shapes, so that
// AwsConnection has one set of SQS calls for a service that speaks only the
// query protocol (sqslite):
//  - sqsQueryForm: a JSON-protocol input as form parameters — strings and
//    numbers as they are; `Attributes` as Attribute.N.Name/Value; a list
//    `XNames` as XName.N; `MessageAttributes` as MessageAttribute.N.Name,
//    .Value.DataType, .Value.StringValue;
//  - sqsQueryAnswer: the XML answer of ACTION as its JSON-protocol output —
//    QueueUrls (ListQueues) or QueueUrl, NextToken, MessageId, Attributes
//    (GetQueueAttributes), Messages (ReceiveMessage: MessageId,
//    ReceiptHandle, Body, Attributes, MessageAttributes' string values).
// Pure.
AwsClient::Form sqsQueryForm(const QJsonObject &input);
QJsonObject sqsQueryAnswer(const QString &action, const XmlNode &answer);

} // namespace relaydesk
