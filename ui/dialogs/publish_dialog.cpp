// SPDX-License-Identifier: MIT
#include "dialogs/publish_dialog.h"

#include "dialogs/dialog_form.h"
#include "widgets/field_error.h"
#include "dialogs/message_attributes_editor.h"
#include "engine/broker_service.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

namespace relaydesk {

PublishDialog::PublishDialog(BrokerService &service, const QString &topicName, QWidget *parent)
    : QDialog(parent), m_service(&service), m_topicName(topicName), m_fifo(topicName.endsWith(QLatin1String(".fifo")))
{
    setWindowTitle(tr("Publish to %1").arg(topicName));
    setObjectName(QStringLiteral("publishDialog"));
    auto *formOwner = new QWidget(this);
    auto *form = new QFormLayout(formOwner);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

    m_message = new QPlainTextEdit;
    m_message->setObjectName(QStringLiteral("message"));
    m_message->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_message->setTabChangesFocus(true);
    m_message->setPlaceholderText(tr("The message (plain text); with structure json: {\"default\": \"…\"}"));
    m_messageError = addFormRow(form, tr("&Message:"), m_message);

    m_subject = new QLineEdit;
    m_subject->setObjectName(QStringLiteral("subject"));
    m_subject->setPlaceholderText(tr("optional, one line, up to 100 characters"));
    m_subjectError = addFormRow(form, tr("&Subject:"), m_subject);

    m_structure = new QComboBox;
    m_structure->setObjectName(QStringLiteral("structure"));
    m_structure->addItem(tr("Plain message"), QString());
    m_structure->addItem(tr("json (the \"default\" member is published)"), QStringLiteral("json"));
    m_structureError = addFormRow(form, tr("Message s&tructure:"), m_structure);

    m_attributes = new MessageAttributesEditor;
    m_attributes->setObjectName(QStringLiteral("attributes"));
    m_attributesError = addFormRow(form, tr("A&ttributes:"), m_attributes);

    const FifoIdRows ids = addFifoIdRows(form, m_fifo, tr("topic"));
    m_groupId = ids.groupId;
    m_groupIdError = ids.groupIdError;
    m_deduplicationId = ids.deduplicationId;
    m_deduplicationIdError = ids.deduplicationIdError;

    m_timeToLive = addTimeToLiveRow(form, tr("topic default"), &m_timeToLiveError);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Publish"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("publish"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &PublishDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &PublishDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(formOwner);
    layout->addWidget(m_buttons);
    resize(620, 520);
    m_message->setFocus();
}

PublishDialog::~PublishDialog() = default;

void PublishDialog::accept()
{
    if (m_publishing)
        return;
    for (FieldError *line : {m_messageError, m_subjectError, m_structureError, m_attributesError, m_groupIdError,
                                 m_deduplicationIdError, m_timeToLiveError})
        line->clearMessage();
    PublishRequest request;
    request.message = m_message->toPlainText().toStdString();
    if (m_structure->currentData().toString() == QLatin1String("json")) {
        Result<std::string> plain = defaultMessageOfJsonStructure(request.message);
        if (!plain)
            return m_structureError->setMessage(QString::fromStdString(plain.error().message));
        request.message = std::move(plain).value();
    }
    if (!m_subject->text().isEmpty())
        request.subject = m_subject->text().toStdString();
    QString problem;
    std::optional<MessageAttributes> attributes = m_attributes->attributes(&problem);
    if (!attributes)
        return m_attributesError->setMessage(problem);
    request.attributes = std::move(*attributes);
    if (m_fifo && !m_groupId->text().isEmpty())
        request.groupId = m_groupId->text().toStdString();
    if (m_fifo && !m_deduplicationId->text().isEmpty())
        request.deduplicationId = m_deduplicationId->text().toStdString();
    if (m_timeToLive->value() > 0)
        request.timeToLiveSeconds = m_timeToLive->value();

    m_publishing = true;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_service->publish(m_topicName.toStdString(), std::move(request), this, [this](Result<PublishReceipt> published) {
        m_publishing = false;
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
        if (!published)
            return showRefusal(QString::fromStdString(published.error().message));
        m_publishedMessageId = QString::fromStdString(published->messageId);
        QDialog::accept();
    });
}

void PublishDialog::showRefusal(const QString &message)
{
    FieldError *line = lineForRefusal(message,
                                          {{"MessageGroupId", m_groupIdError},
                                           {"MessageDeduplicationId", m_deduplicationIdError},
                                           {"ContentBasedDeduplication", m_deduplicationIdError},
                                           {"Subject", m_subjectError},
                                           {"TimeToLive", m_timeToLiveError},
                                           {"attribute", m_attributesError}},
                                          m_messageError);
    line->setMessage(message);
}

} // namespace relaydesk
