// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QCheckBox;
class QDateTimeEdit;
class QDialogButtonBox;
class QLineEdit;
class QPlainTextEdit;

namespace relaydesk {

class BrokerService;
class Clock;
class FieldError;

// "Send Service Bus Message" (docs/window.md "Service Bus"): body, content
// type, subject (Label), session id, message id, correlation id,
// application properties (one "name=value" a line, as text) and an
// optional scheduled enqueue time (UTC, on the broker clock). The message is
// encoded as an SDK sends it (serviceBusSend) and sent to the queue, or to
// the topic (each subscription whose rules match takes a copy). Stays open
// on a refusal, showing it at the field it names; closes once sent.
// Ownership: borrows the service and clock. Thread: GUI.
class ServiceBusSendDialog final : public QDialog {
    Q_OBJECT
public:
    // `topic` true: `entity` is a Service Bus topic, else a queue.
    ServiceBusSendDialog(BrokerService &service, const QString &entity, bool topic, const Clock *clock,
                         QWidget *parent = nullptr);

    QPlainTextEdit *body() const { return m_body; }
    QLineEdit *contentType() const { return m_contentType; }
    QLineEdit *subject() const { return m_subject; }
    QLineEdit *sessionId() const { return m_sessionId; }
    QLineEdit *messageId() const { return m_messageId; }
    QPlainTextEdit *applicationProperties() const { return m_properties; }
    QCheckBox *schedule() const { return m_schedule; }
    QDateTimeEdit *scheduledTime() const { return m_scheduledTime; }
    QString message() const;   // the refusal shown (empty when none)
    QString propertiesError() const;

    void accept() override;

signals:
    void answered();

private:
    BrokerService &m_service;
    const QString m_entity;
    const bool m_topic;
    QPlainTextEdit *m_body = nullptr;
    QLineEdit *m_contentType = nullptr;
    QLineEdit *m_subject = nullptr;
    QLineEdit *m_sessionId = nullptr;
    QLineEdit *m_messageId = nullptr;
    QLineEdit *m_correlationId = nullptr;
    QPlainTextEdit *m_properties = nullptr;
    FieldError *m_propertiesError = nullptr;
    QCheckBox *m_schedule = nullptr;
    QDateTimeEdit *m_scheduledTime = nullptr;
    FieldError *m_message = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    bool m_sending = false;
};

} // namespace relaydesk
