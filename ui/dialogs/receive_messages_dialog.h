// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QSpinBox;

namespace relaydesk {

// Asks how a receive from the Messages tab takes messages, as a consumer's
// ReceiveMessage would (docs/window.md "Messages"): how many (1–10) and the
// visibility timeout (0–43 200 s; starts at the queue's). Only the choice:
// the caller receives after Receive is pressed. GUI thread.
class ReceiveMessagesDialog final : public QDialog {
    Q_OBJECT
public:
    ReceiveMessagesDialog(const QString &queueName, int count, int visibilityTimeout, QWidget *parent = nullptr);

    int count() const;
    int visibilityTimeout() const;

private:
    QSpinBox *m_count = nullptr;
    QSpinBox *m_timeout = nullptr;
};

} // namespace relaydesk
