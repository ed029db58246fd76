// SPDX-License-Identifier: MIT
#pragma once

#include "mock/mock_endpoints.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace relaydesk {

// One request a mock endpoint received, read-only: a title line (number,
// method, target, broker-clock time, the answer it took), its headers one
// per line and its body, both plain text in monospace (a body is never
// interpreted as rich text; JSON is pretty-printed), and Copy buttons.
// GUI thread.
class MockRequestViewer final : public QWidget {
    Q_OBJECT
public:
    explicit MockRequestViewer(QWidget *parent = nullptr);

    // Shows `request`, or the "select a request" hint for nothing.
    void showRequest(const std::optional<MockRequest> &request);
    const std::optional<MockRequest> &request() const { return m_request; }

private:
    std::optional<MockRequest> m_request;
    QLabel *m_title = nullptr;
    QPlainTextEdit *m_headers = nullptr;
    QPlainTextEdit *m_body = nullptr;
    QPushButton *m_copyHeaders = nullptr;
    QPushButton *m_copyBody = nullptr;
};

} // namespace relaydesk
