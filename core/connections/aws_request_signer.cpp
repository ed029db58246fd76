// SPDX-License-Identifier: MIT
#include "connections/aws_request_signer.h"

#include "api/wire/aws_signature_v4.h"
#include "http/http_request.h"

#include <QCryptographicHash>

#include <algorithm>

namespace relaydesk {

namespace {

QByteArray sha256Hex(const QByteArray &data)
{
    return QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
}

QByteArray headerValue(const AwsHeaders &headers, const QByteArray &name)
{
    for (const auto &[key, value] : headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

} // namespace

QByteArray awsAuthorization(const AwsSigningInput &input, const AwsCredentials &credentials, const QString &region,
                            const QString &service)
{
    QList<QByteArray> names;
    HttpRequest::Headers headers;
    for (const auto &[name, value] : input.headers) {
        if (!names.contains(name.toLower()))
            names.append(name.toLower());
        headers.emplace_back(name, value);
    }
    std::sort(names.begin(), names.end());
    const QByteArray signedHeaders = names.join(';');
    HttpRequest request(input.method, input.target, false, headers);
    request.setBody(input.body);
    const std::string canonical =
        awsCanonicalRequest(request, signedHeaders.toStdString(), sha256Hex(input.body).toStdString());

    const QByteArray amzDate = headerValue(input.headers, "x-amz-date");
    const QByteArray date = amzDate.left(8);
    const QByteArray scope = date + '/' + region.toUtf8() + '/' + service.toUtf8() + "/aws4_request";
    const QByteArray stringToSign = "AWS4-HMAC-SHA256\n" + amzDate + '\n' + scope + '\n' +
                                    sha256Hex(QByteArray::fromStdString(canonical));
    const std::string signature = awsSignature(credentials.secretAccessKey.toStdString(), date.toStdString(),
                                               region.toStdString(), service.toStdString(), stringToSign.toStdString());
    return "AWS4-HMAC-SHA256 Credential=" + credentials.accessKeyId.toUtf8() + '/' + scope +
           ", SignedHeaders=" + signedHeaders + ", Signature=" + QByteArray::fromStdString(signature);
}

AwsHeaders signAwsRequest(const QByteArray &method, const QUrl &url, AwsHeaders headers, const QByteArray &body,
                          const AwsCredentials &credentials, const QString &region, const QString &service,
                          const QDateTime &when)
{
    // The Host header as QNetworkAccessManager sends it: the port only when not the scheme's own.
    QByteArray host = url.host(QUrl::FullyEncoded).toUtf8();
    const int defaultPort = url.scheme() == QLatin1String("https") ? 443 : 80;
    if (url.port(defaultPort) != defaultPort)
        host += ':' + QByteArray::number(url.port());
    headers.prepend({"Host", host});
    headers.append({"X-Amz-Date", when.toUTC().toString(QStringLiteral("yyyyMMdd'T'HHmmss'Z'")).toLatin1()});
    headers.append({"X-Amz-Content-SHA256", sha256Hex(body)});
    if (!credentials.sessionToken.isEmpty())
        headers.append({"X-Amz-Security-Token", credentials.sessionToken.toUtf8()});
    QByteArray target = url.path(QUrl::FullyEncoded).toUtf8();
    if (target.isEmpty())
        target = "/";
    if (url.hasQuery())
        target += '?' + url.query(QUrl::FullyEncoded).toUtf8();
    const QByteArray authorization = awsAuthorization({method, target, headers, body}, credentials, region, service);
    headers.append({"Authorization", authorization});
    return headers;
}

} // namespace relaydesk
