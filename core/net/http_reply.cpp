// SPDX-License-Identifier: MIT
#include "net/http_reply.h"

#include <QHttpServerResponder>
#include <QMetaEnum>
#include <QTcpSocket>

namespace relaydesk {

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: break;
    }
    const char *name = QMetaEnum::fromType<QHttpServerResponder::StatusCode>().valueToKey(status);
    return name != nullptr ? QByteArray(name) : QByteArray("Status");
}

bool ReplyChannel::connected() const
{
    return m_socket && m_socket->state() == QAbstractSocket::ConnectedState;
}

void ReplyChannel::send(const HttpReply &reply)
{
    if (m_answered || !connected())
        return;
    m_answered = true;
    QByteArray head;
    head.reserve(256 + reply.body.size());
    head += "HTTP/1.1 " + QByteArray::number(reply.status) + ' ' + reasonPhrase(reply.status) + "\r\n";
    if (!reply.contentType.isEmpty())
        head += "Content-Type: " + reply.contentType + "\r\n";
    head += "Content-Length: " + QByteArray::number(reply.body.size()) + "\r\n";
    for (const auto &[name, value] : reply.headers)
        head += name + ": " + value + "\r\n";
    head += "\r\n";
    head += reply.body;
    m_socket->write(head);
}

void ReplyChannel::abort()
{
    if (m_answered)
        return;
    m_answered = true;
    if (m_socket)
        m_socket->abort();
}

} // namespace relaydesk
