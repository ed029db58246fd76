// SPDX-License-Identifier: MIT
#pragma once

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPair>
#include <QString>
#include <QUrl>

namespace relaydesk {

// An AWS key pair, and the session token of temporary credentials.
struct AwsCredentials {
    QString accessKeyId;
    QString secretAccessKey;
    QString sessionToken;   // sent as X-Amz-Security-Token and signed, when set
};

using AwsHeaders = QList<QPair<QByteArray, QByteArray>>;

// One request to sign, as it will be sent: the method, the target as on the
// request line (the path and query, percent-encoded as sent) and every header
// to sign — Host and X-Amz-Date among them.
struct AwsSigningInput {
    QByteArray method;
    QByteArray target;
    AwsHeaders headers;
    QByteArray body;
};

// The Authorization header (AWS Signature Version 4) of `input` under
// `credentials` for REGION and SERVICE, the date taken from its X-Amz-Date.
// Every header of `input` is signed. The canonical request is the broker's
// own (api/wire/aws_signature_v4.h, the code that checks signatures), so what
// this signs the broker verifies by construction; tests/core/connections
// checks it against AWS's published test suite too. Pure.
QByteArray awsAuthorization(const AwsSigningInput &input, const AwsCredentials &credentials, const QString &region,
                            const QString &service);

// The headers to send with a request to `url` signed at `when`: `headers`
// plus Host, X-Amz-Date, X-Amz-Security-Token (with a session token),
// X-Amz-Content-SHA256 (SNS/SQS accept it; it pins the body) and Authorization.
AwsHeaders signAwsRequest(const QByteArray &method, const QUrl &url, AwsHeaders headers, const QByteArray &body,
                          const AwsCredentials &credentials, const QString &region, const QString &service,
                          const QDateTime &when);

} // namespace relaydesk
