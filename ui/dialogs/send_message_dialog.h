// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QDialogButtonBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace relaydesk {

class BrokerService;
class Clock;
class FieldError;
class MessageAttributesEditor;
struct SendRequest;

// Send a message to one queue with every option of SendMessage (docs/behaviour.md §5, 6):
// body, typed attributes, message group id and deduplication id (FIFO
// queues), delay, time-to-live and a scheduled enqueue time. Send sends
// through BrokerService (asynchronous; the dialog stays responsive) and
// closes on success; a refusal is shown at the field it concerns with the
// broker's own message, and the dialog stays open with nothing sent. The
// last kSavedSends sends are remembered (QSettings "messages/sendTemplates")
// and offered as templates.
// Ownership: borrows the service (it outlives the dialog). GUI thread.
class SendMessageDialog final : public QDialog {
    Q_OBJECT
public:
    static constexpr int kSavedSends = 5;

    SendMessageDialog(BrokerService &service, const QString &queueName, QWidget *parent = nullptr);
    ~SendMessageDialog() override;

    // The broker clock, for the scheduled time's default (now + 1 min) and
    // to show "now"; without one the wall clock. Borrowed.
    void setClock(const Clock *clock);
    // The MessageId of the message sent (after accept()).
    const QString &sentMessageId() const { return m_sentMessageId; }

    // Fills body, attributes, group id and deduplication id from `request`
    // (Edit and Resend); the rest keeps its defaults.
    // `title` names it in the Template box instead of "New message".
    void setMessage(const SendRequest &request, const QString &title = {});

    void accept() override;

private:
    void loadTemplate(int index);
    void rememberSend();
    void showRefusal(const QString &message);
    void clearErrors();

    BrokerService *m_service = nullptr;
    const Clock *m_clock = nullptr;
    QString m_queueName;
    bool m_fifo = false;
    bool m_sending = false;
    QString m_sentMessageId;
    QComboBox *m_template = nullptr;
    QPlainTextEdit *m_body = nullptr;
    MessageAttributesEditor *m_attributes = nullptr;
    QLineEdit *m_groupId = nullptr;
    QLineEdit *m_deduplicationId = nullptr;
    QSpinBox *m_delay = nullptr;
    QSpinBox *m_timeToLive = nullptr;
    QCheckBox *m_schedule = nullptr;
    QDateTimeEdit *m_scheduledTime = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    FieldError *m_bodyError = nullptr;
    FieldError *m_attributesError = nullptr;
    FieldError *m_groupIdError = nullptr;
    FieldError *m_deduplicationIdError = nullptr;
    FieldError *m_delayError = nullptr;
    FieldError *m_timeToLiveError = nullptr;
    FieldError *m_scheduleError = nullptr;
};

} // namespace relaydesk
