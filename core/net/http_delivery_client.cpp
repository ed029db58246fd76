// SPDX-License-Identifier: MIT
#include "net/http_delivery_client.h"

#include "broker/wall_time_source.h"

#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QUrl>

#include <memory>

namespace relaydesk {

namespace {

HttpDeliveryResult::Failure failureOf(QNetworkReply::NetworkError error)
{
    switch (error) {
    case QNetworkReply::OperationCanceledError: // the transfer timeout aborts with this
    case QNetworkReply::TimeoutError:
        return HttpDeliveryResult::Failure::Timeout;
    default:
        return HttpDeliveryResult::Failure::ConnectionError;
    }
}

} // namespace

HttpDeliveryClient::HttpDeliveryClient(const WallTimeSource &wall, HttpDeliveryClientOptions options, QObject *parent)
    : QObject(parent), m_wall(wall), m_options(std::move(options)), m_network(new QNetworkAccessManager(this))
{
    m_network->setRedirectPolicy(QNetworkRequest::ManualRedirectPolicy);
}

HttpDeliveryClient::~HttpDeliveryClient()
{
    m_closing = true;
    const auto replies = m_network->findChildren<QNetworkReply *>();
    for (QNetworkReply *reply : replies)
        reply->abort();
}

void HttpDeliveryClient::post(const HttpDeliveryRequest &request, Callback done)
{
    QNetworkRequest http{QUrl(QString::fromStdString(request.url))};
    http.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    http.setTransferTimeout(static_cast<int>(m_options.requestTimeout.count()));
    for (const auto &[name, value] : request.headers)
        http.setRawHeader(QByteArray::fromStdString(name), QByteArray::fromStdString(value));
    if (http.url().scheme() == QLatin1String("https") && !m_options.extraCaFile.empty()) {
        QSslConfiguration tls = QSslConfiguration::defaultConfiguration();
        tls.addCaCertificates(QSslCertificate::fromPath(QString::fromStdString(m_options.extraCaFile)));
        http.setSslConfiguration(tls);
    }
    const auto started = m_wall.steadyNow();
    QNetworkReply *reply = m_network->post(http, QByteArray::fromStdString(request.body));
    ++m_inFlight;
    auto kept = std::make_shared<std::size_t>(0);
    connect(reply, &QNetworkReply::readyRead, this, [this, reply, kept] {
        // Bounded: read everything to keep the connection usable, keep nothing beyond the limit.
        const QByteArray chunk = reply->readAll();
        *kept = std::min(m_options.maxBodyBytes, *kept + static_cast<std::size_t>(chunk.size()));
    });
    connect(reply, &QNetworkReply::finished, this, [this, reply, started, done = std::move(done)] {
        --m_inFlight;
        reply->deleteLater();
        if (m_closing)
            return;
        HttpDeliveryResult result;
        result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(m_wall.steadyNow() - started);
        const QVariant status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
        if (status.isValid() && reply->error() != QNetworkReply::OperationCanceledError
            && reply->error() != QNetworkReply::TimeoutError) {
            result.httpStatus = status.toInt();
        } else {
            result.failure = reply->error() == QNetworkReply::NoError ? HttpDeliveryResult::Failure::ConnectionError
                                                                      : failureOf(reply->error());
            result.errorText = reply->errorString().toStdString();
        }
        done(std::move(result));
    });
}

} // namespace relaydesk
