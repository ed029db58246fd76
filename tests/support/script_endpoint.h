// SPDX-License-Identifier: MIT
#pragma once
// Test fixture (header-only): a real HTTP/1.1 endpoint on loopback, on its
// own thread (so a test thread blocked in advanceClockAndWait does not block
// it), answering each POST from a script and recording what it received with
// the broker clock's time. Keep-alive; one request at a time per connection.

#include "broker/clock.h"
#include "engine/sanitizer_handoff.h"

#include <QHostAddress>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace relaydesk::testing {

struct ScriptStep {
    enum class Kind { Respond, Hang, Close };
    Kind kind = Kind::Respond;
    int status = 200;
    std::string location;          // a Location header (redirect tests)
    std::size_t bodyBytes = 2;     // response body size
};

inline ScriptStep respond(int status) { return ScriptStep{ScriptStep::Kind::Respond, status, {}, 2}; }
inline ScriptStep hang() { return ScriptStep{ScriptStep::Kind::Hang, 0, {}, 0}; }

struct ReceivedRequest {
    ClockTime at{};
    std::string path;
    std::map<std::string, std::string> headers; // names lowercased
    std::string body;
};

class ScriptEndpoint final {
public:
    // `clock` stamps the requests (may be null: epoch).
    explicit ScriptEndpoint(const Clock *clock) : m_clock(clock)
    {
        m_thread.start();
        m_server = new QTcpServer;
        m_server->moveToThread(&m_thread);
        sanitizer_handoff::queueAndWait(m_server, [this] {
            QObject::connect(m_server, &QTcpServer::newConnection, m_server, [this] { accept(); });
            m_server->listen(QHostAddress::LocalHost, 0);
            m_port = m_server->serverPort();
        });
    }
    ~ScriptEndpoint()
    {
        sanitizer_handoff::queueAndWait(m_server, [this] { delete m_server; });
        m_thread.quit();
        m_thread.wait();
    }
    ScriptEndpoint(const ScriptEndpoint &) = delete;
    ScriptEndpoint &operator=(const ScriptEndpoint &) = delete;

    // The clock that stamps requests from now on (after a broker restart).
    void setClock(const Clock *clock) { m_clock.store(clock); }

    std::string url(const std::string &path = "/hook") const
    {
        return "http://127.0.0.1:" + std::to_string(m_port) + path;
    }
    // The steps answer requests in order; the last one repeats.
    void setScript(std::vector<ScriptStep> steps)
    {
        std::lock_guard lock(m_mutex);
        m_script = std::move(steps);
        m_next = 0;
    }
    std::vector<ReceivedRequest> received() const
    {
        std::lock_guard lock(m_mutex);
        return m_received;
    }
    std::size_t count() const
    {
        std::lock_guard lock(m_mutex);
        return m_received.size();
    }
    // TCP connections accepted so far (keep-alive reuse shows as fewer
    // connections than requests).
    std::size_t connectionCount() const { return m_connections.load(); }

private:
    void accept()
    {
        while (QTcpSocket *socket = m_server->nextPendingConnection()) {
            socket->setParent(m_server);
            ++m_connections;
            auto buffer = std::make_shared<QByteArray>();
            QObject::connect(socket, &QTcpSocket::readyRead, socket, [this, socket, buffer] {
                buffer->append(socket->readAll());
                serve(socket, *buffer);
            });
            QObject::connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    }

    void serve(QTcpSocket *socket, QByteArray &buffer)
    {
        for (;;) {
            const qsizetype end = buffer.indexOf("\r\n\r\n");
            if (end < 0)
                return;
            const QList<QByteArray> lines = buffer.left(end).split('\n');
            ReceivedRequest request;
            std::size_t length = 0;
            for (qsizetype i = 0; i < lines.size(); ++i) {
                const QByteArray line = lines[i].trimmed();
                if (i == 0) {
                    const QList<QByteArray> parts = line.split(' ');
                    request.path = parts.size() > 1 ? parts[1].toStdString() : std::string();
                    continue;
                }
                const qsizetype colon = line.indexOf(':');
                if (colon < 0)
                    continue;
                const std::string name = line.left(colon).trimmed().toLower().toStdString();
                const std::string value = line.mid(colon + 1).trimmed().toStdString();
                request.headers[name] = value;
                if (name == "content-length")
                    length = std::stoul(value);
            }
            const qsizetype total = end + 4 + static_cast<qsizetype>(length);
            if (buffer.size() < total)
                return;
            request.body = buffer.mid(end + 4, static_cast<qsizetype>(length)).toStdString();
            buffer.remove(0, total);
            const Clock *clock = m_clock.load();
            request.at = clock ? clock->now() : ClockTime{};
            ScriptStep step;
            {
                std::lock_guard lock(m_mutex);
                m_received.push_back(request);
                if (!m_script.empty()) {
                    step = m_script[std::min(m_next, m_script.size() - 1)];
                    ++m_next;
                }
            }
            if (step.kind == ScriptStep::Kind::Hang)
                return; // never answers; the client times out
            if (step.kind == ScriptStep::Kind::Close) {
                socket->abort();
                return;
            }
            QByteArray reply = "HTTP/1.1 " + QByteArray::number(step.status) + " Scripted\r\n";
            if (!step.location.empty())
                reply += "Location: " + QByteArray::fromStdString(step.location) + "\r\n";
            reply += "Content-Length: " + QByteArray::number(qsizetype(step.bodyBytes)) + "\r\nConnection: keep-alive\r\n\r\n";
            reply += QByteArray(qsizetype(step.bodyBytes), 'x');
            socket->write(reply);
        }
    }

    std::atomic<const Clock *> m_clock{nullptr};
    QThread m_thread;
    QTcpServer *m_server = nullptr; // lives on m_thread
    quint16 m_port = 0;
    mutable std::mutex m_mutex;
    std::vector<ScriptStep> m_script;
    std::size_t m_next = 0;
    std::vector<ReceivedRequest> m_received;
    std::atomic<std::size_t> m_connections{0};
};

} // namespace relaydesk::testing
