// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QNetworkReply;

namespace relaydesk {

// What went wrong on a connection, in the remote service's own words
// (docs/architecture.md §10): the window shows `code` and `message` beside
// the action that caused them, as the service sent them, never rephrased.
//
//  - service: who said it — "SQS", "SNS", "Relaydesk" (the native API),
//    "Service Bus", "Zaqar", "HTTP" (a reply that is not the service's
//    shape), "network" (no reply at all), "profile" (the AWS files or a
//    credential_process), "connection" (the boundary itself: Cancelled,
//    Unsupported);
//  - code: the service's code as sent: an AWS error code
//    ("InvalidClientTokenId", "AWS.SimpleQueueService.NonExistentQueue"), a
//    Service Bus condition ("amqp:unauthorized-access"), a native API error
//    name ("Unauthorized"), a Qt network error name for "network";
//  - message: the service's sentence;
//  - httpStatus: the HTTP status when there was one, else 0.
struct ConnectionError {
    QString service;
    QString code;
    QString message;
    int httpStatus = 0;

    // "SQS InvalidClientTokenId (HTTP 403): The security token included in the request is invalid."
    QString text() const;

    static ConnectionError cancelled();
    // A request that got no HTTP answer: service "network", the
    // QNetworkReply::NetworkError's name, Qt's sentence.
    static ConnectionError network(const QNetworkReply &reply);
    static ConnectionError unsupported(const QString &reason);
};

// The outcome of one call: a value or an error, never both.
template <class T>
struct ConnectionResult {
    T value{};
    bool ok = false;
    ConnectionError error;

    static ConnectionResult success(T v) { return {std::move(v), true, {}}; }
    static ConnectionResult failure(ConnectionError e) { return {T{}, false, std::move(e)}; }
};

// The value of a call that answers nothing but success.
struct Done {};

} // namespace relaydesk
