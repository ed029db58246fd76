// SPDX-License-Identifier: MIT
#pragma once

#include <QWidget>

class QLineEdit;

namespace relaydesk {

class FieldError;

// The name row of the create dialogs: "&Name" (buddy and accessible name),
// the input, a hint on what a name may hold, and the error line for the
// broker's message. GUI thread only; owns its child widgets.
class EntityNameField final : public QWidget {
    Q_OBJECT
public:
    EntityNameField(const QString &hint, QWidget *parent = nullptr);
    ~EntityNameField() override;
    EntityNameField(const EntityNameField &) = delete;
    EntityNameField &operator=(const EntityNameField &) = delete;

    // The name typed, trimmed; with ".fifo" added when `fifo` and missing.
    QString name(bool fifo) const;
    QLineEdit *input() const { return m_input; }
    void showError(const QString &message);   // empty clears
    QString error() const;

private:
    QLineEdit *m_input = nullptr;
    FieldError *m_error = nullptr;
};

} // namespace relaydesk
