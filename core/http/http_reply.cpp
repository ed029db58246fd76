// SPDX-License-Identifier: MIT
#include "http/http_reply.h"

#include "http/http1_server_connection.h"

#include <QHttpServerResponder>
#include <QMetaEnum>

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
    case 408: return "Request Timeout";
    case 411: return "Length Required";
    case 414: return "URI Too Long";
    case 421: return "Misdirected Request";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 501: return "Not Implemented";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: break;
    }
    // Others by Qt's name for them, "ImATeapot" -> "Im A Teapot" (RFC 9110 §15: words).
    const char *name = QMetaEnum::fromType<QHttpServerResponder::StatusCode>().valueToKey(status);
    if (name == nullptr)
        return QByteArray("Status");
    QByteArray phrase;
    for (const char *c = name; *c != '\0'; ++c) {
        if (c != name && *c >= 'A' && *c <= 'Z')
            phrase += ' ';
        phrase += *c;
    }
    return phrase;
}

ReplyChannel::ReplyChannel(Http1ServerConnection *connection, std::uint64_t sequence)
    : m_connection(connection), m_sequence(sequence)
{
}

Http1ServerConnection *ReplyChannel::connection() const
{
    return static_cast<Http1ServerConnection *>(m_connection.data());
}

bool ReplyChannel::connected() const
{
    const Http1ServerConnection *open = connection();
    return open != nullptr && open->isOpen();
}

void ReplyChannel::send(const HttpReply &reply)
{
    if (m_answered || !connected())
        return;
    m_answered = true;
    connection()->answer(m_sequence, reply);
}

void ReplyChannel::abort()
{
    if (m_answered || !connected())
        return;
    m_answered = true;
    connection()->dropAt(m_sequence);
}

} // namespace relaydesk
