// SPDX-License-Identifier: MIT
#pragma once

#include "connections/aws_credential_source.h"
#include "connections/aws_xml.h"
#include "connections/connection_call.h"

#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QPair>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

namespace relaydesk {

// Signed requests to SQS and SNS for an AWS profile, over
// QNetworkAccessManager (asynchronous, on the thread that owns the client):
//  - SQS JSON protocol: POST / with X-Amz-Target: AmazonSQS.ACTION and
//    Content-Type application/x-amz-json-1.0; errors from `__type` (the part
//    after '#') and `message`;
//  - the query protocol (SNS, and SQS on a service that speaks only it):
//    a form POST with Action and Version, XML back; errors from
//    <Error><Code> and <Message>.
// Every request is signed (SigV4, aws_request_signer.h) with the profile's
// credentials for the profile's region and the service's name, and given
// 30 s to finish (QNetworkRequest::setTransferTimeout). Cancelling the call
// aborts the request. Answers come as the service's JSON or XML tree, or as
// the ConnectionError its reply says (service "SQS"/"SNS"; "HTTP" for a
// reply in neither shape, "network" for none).
class AwsClient final : public QObject {
    Q_OBJECT
public:
    using Form = QList<QPair<QString, QString>>;
    using JsonReply = std::function<void(ConnectionResult<QJsonObject>)>;
    using XmlReply = std::function<void(ConnectionResult<XmlNode>)>;

    AwsClient(AwsProfile profile, QObject *parent = nullptr);

    const AwsProfile &profile() const { return m_profile; }

    // `call` may be null (no cancel). The reply is not called after a cancel.
    void sqsJson(const QString &action, const QJsonObject &input, ConnectionCall *call, JsonReply reply);
    void query(const QString &service, const QString &action, const Form &form, ConnectionCall *call, XmlReply reply);

    // The reply of a JSON-protocol request that came back as XML or was
    // refused as an unsupported media type (HTTP 415) — a service that
    // speaks only the query protocol, such as sqslite: code
    // "QueryProtocolOnly". AwsConnection then speaks the query protocol.
    static const QString kQueryProtocolOnly;

private:
    using RawReply = std::function<void(int status, const QByteArray &contentType, const QByteArray &body)>;
    void post(const QString &service, QList<QPair<QByteArray, QByteArray>> headers, const QByteArray &body,
              ConnectionCall *call, std::function<void(ConnectionError)> failed, RawReply answered);

    AwsProfile m_profile;
    AwsCredentialSource *m_credentials = nullptr;
    QNetworkAccessManager *m_network = nullptr;
};

} // namespace relaydesk
