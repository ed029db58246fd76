// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QLineEdit;
class QPushButton;

namespace relaydesk {

// Asks before a destructive action (purge, delete, move, redrive) on an
// entity of another connection (docs/window.md "Connections", "Production").
// On a connection marked "production" the user must type the entity's name:
// the accepting button stays disabled until the field holds it exactly.
// Elsewhere it is a plain confirmation. Shown with open() (window-modal);
// accepted() runs the action. GUI thread.
class ConfirmNameDialog final : public QDialog {
    Q_OBJECT
public:
    // `question`: "Purge every message of queue orders?"; `action`: the button ("Purge").
    ConfirmNameDialog(const QString &question, const QString &action, const QString &entityName, bool production,
                      QWidget *parent = nullptr);

    QLineEdit *nameField() const { return m_name; }
    QPushButton *acceptButton() const { return m_accept; }

private:
    QLineEdit *m_name = nullptr;   // production only
    QPushButton *m_accept = nullptr;
};

} // namespace relaydesk
