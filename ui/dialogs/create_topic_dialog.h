// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QComboBox;
class QDialogButtonBox;
class QPlainTextEdit;

namespace relaydesk {

class FieldError;

class AttributeForm;
class BrokerService;
class EntityNameField;

// "New topic" (docs/behaviour.md §1, 2, 6, 8.4): the name, standard or FIFO, every topic
// attribute with its default (AttributeForm), and a delivery policy: none
// (the defaults) or a preset in the topic form, editable as JSON (the full
// editor is the topic's Policy tab). OK creates the topic through
// BrokerService; the dialog closes only when the broker created it, and
// shows a refusal at its field otherwise. An existing name is refused.
// Ownership: borrows the service. Thread: GUI thread; replies come back queued.
class CreateTopicDialog final : public QDialog {
    Q_OBJECT
public:
    CreateTopicDialog(BrokerService &service, QWidget *parent = nullptr);
    ~CreateTopicDialog() override;
    CreateTopicDialog(const CreateTopicDialog &) = delete;
    CreateTopicDialog &operator=(const CreateTopicDialog &) = delete;

    // The name of the topic created (empty until then).
    QString createdName() const { return m_created; }

    AttributeForm *form() const { return m_form; }
    EntityNameField *nameField() const { return m_name; }
    QComboBox *presetSelector() const { return m_preset; }
    QPlainTextEdit *deliveryPolicy() const { return m_policy; }
    QString deliveryPolicyError() const;
    QString message() const;

    void accept() override;

signals:
    void answered();

private:
    QWidget *buildPolicyBox();
    void showPreset(int index);
    void create(const QString &name);
    void refuse(const QString &text, QWidget *at);
    void setBusy(bool busy);

    BrokerService &m_service;
    EntityNameField *m_name = nullptr;
    AttributeForm *m_form = nullptr;
    QComboBox *m_preset = nullptr;
    QPlainTextEdit *m_policy = nullptr;
    FieldError *m_policyError = nullptr;
    FieldError *m_message = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QString m_created;
};

} // namespace relaydesk
