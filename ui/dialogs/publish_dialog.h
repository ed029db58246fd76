// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QString>

class QComboBox;
class QDialogButtonBox;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

namespace relaydesk {

class BrokerService;
class FieldError;
class MessageAttributesEditor;

// Publish to one topic with every option of SNS Publish: message, subject,
// typed attributes, message structure ("json": the message is an object
// whose "default" member is published), time-to-live, and message group and
// deduplication ids (FIFO topics). Publish goes through BrokerService
// (asynchronous) and closes on success; a refusal is shown at its field
// with the broker's own message, the dialog stays open, nothing published.
// Ownership: borrows the service. GUI thread.
class PublishDialog final : public QDialog {
    Q_OBJECT
public:
    PublishDialog(BrokerService &service, const QString &topicName, QWidget *parent = nullptr);
    ~PublishDialog() override;

    // The MessageId of the message published (after accept()).
    const QString &publishedMessageId() const { return m_publishedMessageId; }

    void accept() override;

private:
    void showRefusal(const QString &message);

    BrokerService *m_service = nullptr;
    QString m_topicName;
    bool m_fifo = false;
    bool m_publishing = false;
    QString m_publishedMessageId;
    QPlainTextEdit *m_message = nullptr;
    QLineEdit *m_subject = nullptr;
    QComboBox *m_structure = nullptr;
    MessageAttributesEditor *m_attributes = nullptr;
    QLineEdit *m_groupId = nullptr;
    QLineEdit *m_deduplicationId = nullptr;
    QSpinBox *m_timeToLive = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    FieldError *m_messageError = nullptr;
    FieldError *m_subjectError = nullptr;
    FieldError *m_structureError = nullptr;
    FieldError *m_attributesError = nullptr;
    FieldError *m_groupIdError = nullptr;
    FieldError *m_deduplicationIdError = nullptr;
    FieldError *m_timeToLiveError = nullptr;
};

} // namespace relaydesk
