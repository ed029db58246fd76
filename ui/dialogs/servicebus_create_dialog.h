// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QDialogButtonBox;
class QLineEdit;

namespace relaydesk {

class BrokerService;
class EntityNameField;
class FieldError;
class ServiceBusPropertiesForm;

// "New Service Bus queue / topic / subscription" (docs/window.md "Service
// Bus", docs/behaviour.md §8.6): the name, the entity's properties
// (ServiceBusPropertiesForm) and, for a subscription, an optional default
// filter (a SQL expression; empty: every message, the $Default rule). OK
// builds the emulator's Config.json form and lets the broker's parse judge
// it, then creates the entity through BrokerService; the dialog closes
// only when the broker made it and shows a refusal at its field otherwise
// (an existing name included). Ownership: borrows the service. Thread: GUI.
class ServiceBusCreateDialog final : public QDialog {
    Q_OBJECT
public:
    enum class Kind { Queue, Topic, Subscription };

    // `topic`: the topic of a new subscription (else ignored).
    ServiceBusCreateDialog(BrokerService &service, Kind kind, const QString &topic, QWidget *parent = nullptr);
    ~ServiceBusCreateDialog() override;
    ServiceBusCreateDialog(const ServiceBusCreateDialog &) = delete;
    ServiceBusCreateDialog &operator=(const ServiceBusCreateDialog &) = delete;

    // What was created: the queue's or topic's name, a subscription's queue
    // name "TOPIC/Subscriptions/NAME" (empty until then).
    QString createdName() const { return m_created; }

    EntityNameField *nameField() const { return m_name; }
    ServiceBusPropertiesForm *form() const { return m_form; }
    QLineEdit *filter() const { return m_filter; }   // subscriptions only, else nullptr
    QString filterError() const;
    QString message() const;

    void accept() override;

signals:
    // After each broker answer (created or refused).
    void answered();

private:
    void created(bool isNew, const QString &name);
    void refuse(const QString &text);
    void setBusy(bool busy);

    BrokerService &m_service;
    const Kind m_kind;
    const QString m_topic;
    EntityNameField *m_name = nullptr;
    ServiceBusPropertiesForm *m_form = nullptr;
    QLineEdit *m_filter = nullptr;
    FieldError *m_filterError = nullptr;
    FieldError *m_message = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QString m_created;
};

} // namespace relaydesk
