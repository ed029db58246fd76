// SPDX-License-Identifier: MIT
#pragma once
// Test fixture (header-only): the smallest server that owns a port and hands
// /_mock/ to MockEndpoints, as the broker's HTTP server does; anything else
// is answered 202 and counted.

#include "net/mock_endpoints.h"

#include <QAbstractHttpServer>
#include <QHttpServerRequest>
#include <QHttpServerResponder>
#include <QTcpSocket>

namespace relaydesk::testing {

class MockHostServer final : public QAbstractHttpServer {
public:
    explicit MockHostServer(MockEndpoints &endpoints) : m_endpoints(endpoints) {}
    int notMockCount() const { return m_notMock; }

protected:
    bool handleRequest(const QHttpServerRequest &request, QTcpSocket *socket) override
    {
        if (m_endpoints.handle(request, socket))
            return true;
        ++m_notMock;
        makeResponder(request, socket).write(QHttpServerResponder::StatusCode::Accepted);
        return true;
    }
    void missingHandler(const QHttpServerRequest &request, QTcpSocket *socket) override
    {
        makeResponder(request, socket).write(QHttpServerResponder::StatusCode::NotImplemented);
    }

private:
    MockEndpoints &m_endpoints;
    int m_notMock = 0;
};

} // namespace relaydesk::testing
