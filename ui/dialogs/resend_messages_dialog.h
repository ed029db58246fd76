// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QComboBox;
class QPushButton;

namespace relaydesk {

class BrokerService;

// Asks where Resend sends the selected messages (docs/window.md "Messages"):
// the broker's queues, the current one first. Only the choice: the caller
// sends after Resend is pressed. Borrows the service. GUI thread.
class ResendMessagesDialog final : public QDialog {
    Q_OBJECT
public:
    ResendMessagesDialog(BrokerService &service, const QString &queueName, int count, QWidget *parent = nullptr);

    QString destination() const;

private:
    QComboBox *m_destination = nullptr;
    QPushButton *m_resend = nullptr;
};

} // namespace relaydesk
