// SPDX-License-Identifier: MIT
#pragma once
// Test fixture (header-only): the smallest server that owns a port and hands
// /_mock/ to MockEndpoints, as the broker's HTTP server does; anything else
// is answered 202 and counted.

#include "http/http1_server.h"
#include "mock/mock_endpoints.h"

#include <QHostAddress>
#include <QObject>
#include <QThread>

#include <memory>

namespace relaydesk::testing {

class MockHostServer final {
public:
    explicit MockHostServer(MockEndpoints &endpoints)
        : m_endpoints(endpoints), m_server(Http1Server::Options{}, [this](const HttpRequest &request, ReplyChannel channel) {
              if (m_endpoints.handle(request, channel))
                  return;
              ++m_notMock;
              channel.send(HttpReply{202, {}, {}, {}});
          })
    {
    }
    int notMockCount() const { return m_notMock; }
    // Listens on `address` (port 0: any); the port, 0 when it could not.
    quint16 listen(const QHostAddress &address, quint16 port)
    {
        auto *listener = new HttpListener;
        if (!listener->listen(address, port)) {
            delete listener;
            return 0;
        }
        m_server.bind(listener);
        return listener->serverPort();
    }

private:
    MockEndpoints &m_endpoints;
    int m_notMock = 0;
    Http1Server m_server;
};

// A MockHostServer on 127.0.0.1 served by a thread of its own, so that its
// requests are answered while the test's thread waits (for a clock advance,
// say). Made and ended on its thread; the destructor ends it there and stops
// the thread, also when a test returns early on a failed check.
class MockHostThread final {
public:
    explicit MockHostThread(MockEndpoints &endpoints)
    {
        m_thread.start();
        m_anchor.moveToThread(&m_thread);
        QMetaObject::invokeMethod(
            &m_anchor,
            [&] {
                m_server = std::make_unique<MockHostServer>(endpoints);
                m_port = m_server->listen(QHostAddress::LocalHost, 0);
            },
            Qt::BlockingQueuedConnection);
    }
    ~MockHostThread()
    {
        QMetaObject::invokeMethod(&m_anchor, [this] { m_server.reset(); }, Qt::BlockingQueuedConnection);
        m_thread.quit();
        m_thread.wait();
    }
    MockHostThread(const MockHostThread &) = delete;
    MockHostThread &operator=(const MockHostThread &) = delete;

    // The port it listens on; 0 when it could not listen.
    quint16 port() const { return m_port; }

private:
    QThread m_thread;
    QObject m_anchor;
    std::unique_ptr<MockHostServer> m_server;
    quint16 m_port = 0;
};

} // namespace relaydesk::testing
