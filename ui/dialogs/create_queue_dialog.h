// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QDialogButtonBox;

namespace relaydesk {

class FieldError;

class AttributeForm;
class BrokerService;
class EntityNameField;

// "New queue" (docs/behaviour.md §5, 6, 8.4): the name, standard or FIFO, and every queue
// attribute with its default shown (the attribute editor's AttributeForm).
// OK creates the queue through BrokerService with the attributes that differ
// from their defaults; the dialog closes only when the broker created it.
// A refusal is shown at its field with the broker's message and the dialog
// stays open; an existing name is refused (CreateQueue itself would accept
// it silently when the attributes match).
// Ownership: borrows the service (it outlives the dialog). Thread: GUI
// thread; the reply comes back queued.
class CreateQueueDialog final : public QDialog {
    Q_OBJECT
public:
    CreateQueueDialog(BrokerService &service, QWidget *parent = nullptr);
    ~CreateQueueDialog() override;
    CreateQueueDialog(const CreateQueueDialog &) = delete;
    CreateQueueDialog &operator=(const CreateQueueDialog &) = delete;

    // The name of the queue created (empty until then).
    QString createdName() const { return m_created; }

    AttributeForm *form() const { return m_form; }
    EntityNameField *nameField() const { return m_name; }
    QString message() const;

    // Starts the creation (what OK does).
    void accept() override;

signals:
    // The broker answered (created or refused).
    void answered();

private:
    void create(const QString &name);
    void showRefusal(const QString &text, bool nameProblem);
    void setBusy(bool busy);

    BrokerService &m_service;
    EntityNameField *m_name = nullptr;
    AttributeForm *m_form = nullptr;
    FieldError *m_message = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QString m_created;
};

} // namespace relaydesk
