// SPDX-License-Identifier: MIT
#pragma once
// AWS's published Signature Version 4 test suite (tests/core/api/data/aws_sigv4_suite.json),
// read once, and its requests as text split into their parts: shared by the
// broker's check (tests/core/api) and the connections' signer (tests/core/connections).
// A runner that uses it defines RELAYDESK_SIGV4_SUITE, the file's path.

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QPair>
#include <QtGlobal>

#include <nlohmann/json.hpp>

namespace relaydesk::test {

inline const nlohmann::json &sigv4Suite()
{
    static const nlohmann::json loaded = [] {
        QFile file(QStringLiteral(RELAYDESK_SIGV4_SUITE));
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", RELAYDESK_SIGV4_SUITE);
        return nlohmann::json::parse(file.readAll().toStdString());
    }();
    return loaded;
}

// A request as the suite writes it: "METHOD TARGET HTTP/1.1", "Name:value"
// lines (values trimmed), an empty line, the body.
struct SuiteRequest {
    QByteArray method;
    QByteArray target;
    QList<QPair<QByteArray, QByteArray>> headers;
    QByteArray body;
};

inline SuiteRequest suiteRequest(const std::string &text)
{
    const QList<QByteArray> lines = QByteArray::fromStdString(text).split('\n');
    const QList<QByteArray> start = lines.first().split(' ');
    SuiteRequest request{start[0], start[1], {}, {}};
    qsizetype line = 1;
    for (; line < lines.size() && !lines[line].isEmpty(); ++line) {
        const qsizetype colon = lines[line].indexOf(':');
        request.headers.append({lines[line].left(colon), lines[line].mid(colon + 1).trimmed()});
    }
    request.body = line + 1 < lines.size() ? lines.mid(line + 1).join('\n') : QByteArray();
    return request;
}

} // namespace relaydesk::test
