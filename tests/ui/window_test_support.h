// SPDX-License-Identifier: MIT
#pragma once
// A real broker for the window's tests: BrokerHost on a database file in a
// temporary folder, port 0 (any free one), virtual clock; and the broker
// calls the tests make, waiting for their replies.

#include "support/call_and_wait.h"
#include "engine/broker_service.h"
#include "host/broker_host.h"

#include <QEventLoop>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QUrl>

#include <memory>
#include <variant>

namespace relaydesk::testing {

// The window's settings (recent files, layout) go to `dir`, not the user's;
// so do the AWS files the tree lists connections from (none there).
inline void keepSettingsIn(const QTemporaryDir &dir)
{
    qputenv("AWS_CONFIG_FILE", dir.filePath(QStringLiteral("aws-config")).toUtf8());
    qputenv("AWS_SHARED_CREDENTIALS_FILE", dir.filePath(QStringLiteral("aws-credentials")).toUtf8());
    QStandardPaths::setTestModeEnabled(true);
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, dir.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir.path());
}

inline ServeOptions testBrokerOptions(const QString &databasePath)
{
    ServeOptions options;
    options.databasePath = databasePath;
    options.port = 0;
    options.portGiven = true;
    options.amqpPort = 0;   // tests run side by side
    options.amqpsPort.reset();
    options.managementPort = 0;
    options.clockMode = ClockMode::Virtual;
    return options;
}

struct TestBroker {
    QTemporaryDir dir;
    std::unique_ptr<BrokerHost> host;

    QString databasePath() const { return dir.filePath(QStringLiteral("broker.db")); }
    bool start()
    {
        auto started = BrokerHost::start(testBrokerOptions(databasePath()));
        if (!std::holds_alternative<std::unique_ptr<BrokerHost>>(started))
            return false;
        host = std::get<std::unique_ptr<BrokerHost>>(std::move(started));
        return true;
    }
    BrokerService &service() { return host->service(); }

    Result<std::string> createQueue(const std::string &name, AttributeMap attributes = {})
    {
        return callAndWait<std::string>([&](auto reply) { service().createQueue(name, attributes, {}, nullptr, reply); });
    }
    Result<std::string> createTopic(const std::string &name)
    {
        return callAndWait<std::string>([&](auto reply) { service().createTopic(name, {}, {}, nullptr, reply); });
    }
    Result<SubscribeReceipt> subscribeQueue(const std::string &topic, const std::string &queue)
    {
        const std::string arn = host->identity().queueArn(queue);
        return callAndWait<SubscribeReceipt>(
            [&](auto reply) { service().subscribe(topic, "sqs", arn, {}, false, nullptr, reply); });
    }
    Result<SendReceipt> send(const std::string &queue, const std::string &body, std::optional<int> delay = {})
    {
        SendRequest request;
        request.body = body;
        request.delaySeconds = delay;
        return callAndWait<SendReceipt>([&](auto reply) { service().sendMessage(queue, request, nullptr, reply); });
    }
    Status deleteQueue(const std::string &name)
    {
        return callAndWaitStatus([&](auto reply) { service().deleteQueue(name, nullptr, reply); });
    }
    Status deleteTopic(const std::string &name)
    {
        return callAndWaitStatus([&](auto reply) { service().deleteTopic(name, nullptr, reply); });
    }
};

// Sends `json` with `method` to the broker's port over real HTTP, with
// `headers`; the HTTP status (0 when no answer). Runs the event loop while it waits.
inline int sendJson(const QByteArray &method, const QString &url, const QByteArray &json,
                    const QList<QPair<QByteArray, QByteArray>> &headers = {})
{
    QNetworkAccessManager manager;
    QNetworkRequest request{QUrl(url)};
    request.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QNetworkReply *reply = manager.sendCustomRequest(request, method, json);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    loop.exec();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    reply->deleteLater();
    return status;
}

// POSTs `json` to the broker's native API (`path` under the endpoint).
inline int postNative(const QString &endpoint, const QString &path, const QByteArray &json)
{
    return sendJson("POST", endpoint + path, json);
}

} // namespace relaydesk::testing
