// SPDX-License-Identifier: MIT
#pragma once
// Test fixture (header-only): the smallest server that owns a port and hands
// /_mock/ to MockEndpoints, as the broker's HTTP server does; anything else
// is answered 202 and counted.

#include "http/http1_server.h"
#include "mock/mock_endpoints.h"

#include <QHostAddress>

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

} // namespace relaydesk::testing
