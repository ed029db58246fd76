// SPDX-License-Identifier: MIT
#pragma once
// The input of the targets that fuzz an HTTP API's request as its router
// reads it: "METHOD TARGET", a newline, the Content-Type, a newline, then
// the body (each part may be missing).
#include <QByteArray>
#include <QList>
#include <QString>
#include <QUrl>

#include <cstddef>
#include <cstdint>

namespace relaydesk::fuzz {

struct HttpInput {
    QByteArray method;
    QUrl url;   // `fallbackPath` when the first line has no target
    QByteArray contentType;
    QByteArray body;
};

inline HttpInput httpInput(const std::uint8_t *data, std::size_t size, const char *fallbackPath)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    const QList<QByteArray> parts = input.split('\n');
    HttpInput read;
    const QByteArray requestLine = parts.value(0);
    read.contentType = parts.value(1);
    const qsizetype bodyStart = requestLine.size() + 1 + read.contentType.size() + 1;
    read.body = bodyStart < input.size() ? input.mid(bodyStart) : QByteArray();
    const qsizetype space = requestLine.indexOf(' ');
    read.method = space < 0 ? requestLine : requestLine.first(space);
    read.url = QUrl(QString::fromUtf8(space < 0 ? QByteArray(fallbackPath) : requestLine.mid(space + 1)));
    return read;
}

} // namespace relaydesk::fuzz
