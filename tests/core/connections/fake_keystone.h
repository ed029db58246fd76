// SPDX-License-Identifier: MIT
#pragma once

// A stand-in for OpenStack Keystone's POST /v3/auth/tokens, in the test's own
// event loop: one user and password; it answers 201 with the token in
// X-Subject-Token and the project it scoped it to (the scope's id, or its
// name as the id), or 401 with Keystone's error body. It counts the requests
// it answered (a connection asks once, and again after a 401).
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTcpSocket>

namespace relaydesk::test {

class FakeKeystone final : public QObject {
public:
    FakeKeystone(QString user, QString password, QString token)
        : m_user(std::move(user)), m_password(std::move(password)), m_token(std::move(token))
    {
        m_server.listen(QHostAddress::LocalHost, 0);
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket *socket = m_server.nextPendingConnection())
                connect(socket, &QTcpSocket::readyRead, socket, [this, socket] { read(socket); });
        });
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1/v3").arg(m_server.serverPort()); }
    int answered() const { return m_answered; }
    // The token it gives from now on.
    void setToken(const QString &token) { m_token = token; }

private:
    void read(QTcpSocket *socket)
    {
        // A request may come in several reads: kept per socket until whole.
        // Then it is taken out of the map before it is read (a reference into
        // the map would dangle once the entry is removed).
        QByteArray &buffer = m_buffers[socket];
        buffer += socket->readAll();
        const qsizetype end = buffer.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        qsizetype length = 0;
        for (const QByteArray &line : buffer.left(end).split('\n'))
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        if (buffer.size() < end + 4 + length)
            return;
        const QByteArray request = m_buffers.take(socket);
        const QJsonObject auth = QJsonDocument::fromJson(request.mid(end + 4, length))
                                     .object()
                                     .value(QStringLiteral("auth")).toObject();
        const QJsonObject project = auth.value(QStringLiteral("scope")).toObject().value(QStringLiteral("project")).toObject();
        const QJsonObject user = auth.value(QStringLiteral("identity")).toObject()
                                     .value(QStringLiteral("password")).toObject()
                                     .value(QStringLiteral("user")).toObject();
        // The project's id is its id, or its name when scoped by name.
        const QString projectId =
            project.value(project.contains(QStringLiteral("id")) ? QStringLiteral("id") : QStringLiteral("name")).toString();
        ++m_answered;
        const bool known = request.startsWith("POST /v3/auth/tokens ") &&
                           user.value(QStringLiteral("name")).toString() == m_user &&
                           user.value(QStringLiteral("password")).toString() == m_password;
        const QByteArray body =
            known ? QJsonDocument(QJsonObject{{QStringLiteral("token"),
                                               QJsonObject{{QStringLiteral("methods"), QJsonArray{QStringLiteral("password")}},
                                                           {QStringLiteral("project"), QJsonObject{{QStringLiteral("id"), projectId}}}}}})
                        .toJson(QJsonDocument::Compact)
                  : QByteArray(R"({"error": {"code": 401, "title": "Unauthorized", "message": "The request you have made requires authentication."}})");
        socket->write((known ? "HTTP/1.1 201 Created\r\nX-Subject-Token: " + m_token.toUtf8() + "\r\n"
                             : QByteArray("HTTP/1.1 401 Unauthorized\r\n")) +
                      "Content-Type: application/json\r\nConnection: close\r\nContent-Length: " +
                      QByteArray::number(body.size()) + "\r\n\r\n" + body);
        socket->disconnectFromHost();
    }

    QTcpServer m_server;
    QString m_user;
    QString m_password;
    QString m_token;
    int m_answered = 0;
    QHash<QTcpSocket *, QByteArray> m_buffers;
};

} // namespace relaydesk::test
