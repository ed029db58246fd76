// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_browser.h"

#include <QWidget>

#include <optional>

class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

namespace relaydesk {

// One browsed message, read-only: the body as plain text in a monospace
// editor (never rich text or HTML; JSON pretty-printed), the message
// attributes with their types (binary as hex with its length), the system
// attributes, and buttons to copy the id, the body or the whole message as
// JSON (the native API's browse shape). GUI thread.
class MessageViewer final : public QWidget {
    Q_OBJECT
public:
    explicit MessageViewer(QWidget *parent = nullptr);

    // Shows `message`; nothing clears the viewer.
    void showMessage(const std::optional<BrowsedMessage> &message);
    const std::optional<BrowsedMessage> &message() const { return m_message; }
    // The message as JSON text (what "Copy as JSON" copies).
    QString messageJson() const;
    QTreeWidget *attributeTree() const { return m_attributes; }
    // The keyboard to the message's body (Enter on a message row opens it here).
    void focusMessage();

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitAttributeColumns();

    std::optional<BrowsedMessage> m_message;
    QLabel *m_title = nullptr;
    QPlainTextEdit *m_body = nullptr;
    QTreeWidget *m_attributes = nullptr;
    QPushButton *m_copyId = nullptr;
    QPushButton *m_copyBody = nullptr;
    QPushButton *m_copyJson = nullptr;
};

} // namespace relaydesk
