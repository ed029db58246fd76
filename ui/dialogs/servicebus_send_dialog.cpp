// SPDX-License-Identifier: MIT
#include "dialogs/servicebus_send_dialog.h"

#include "connections/embedded/embedded_messages.h"
#include "broker/clock.h"
#include "dialogs/dialog_form.h"
#include "engine/broker_service.h"
#include "widgets/field_error.h"

#include <QCheckBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QTimeZone>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QLineEdit *lineEdit(const QString &objectName, const QString &placeholder)
{
    auto *edit = new QLineEdit;
    edit->setObjectName(objectName);
    edit->setPlaceholderText(placeholder);
    return edit;
}

QPlainTextEdit *textEdit(const QString &objectName, int lines)
{
    auto *edit = new QPlainTextEdit;
    edit->setObjectName(objectName);
    edit->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    edit->setTabChangesFocus(true);
    edit->setMinimumHeight(edit->fontMetrics().lineSpacing() * lines + 12);
    return edit;
}

} // namespace

ServiceBusSendDialog::ServiceBusSendDialog(BrokerService &service, const QString &entity, bool topic,
                                           const Clock *clock, QWidget *parent)
    : QDialog(parent)
    , m_service(service)
    , m_entity(entity)
    , m_topic(topic)
{
    setObjectName(QStringLiteral("serviceBusSendDialog"));
    setWindowTitle(topic ? tr("Send to Service Bus Topic %1").arg(entity) : tr("Send to Service Bus Queue %1").arg(entity));
    auto *formOwner = new QWidget(this);
    auto *form = new QFormLayout(formOwner);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    m_body = textEdit(QStringLiteral("body"), 6);
    addFormRow(form, tr("&Body:"), m_body);
    m_contentType = lineEdit(QStringLiteral("contentType"), tr("e.g. application/json"));
    addFormRow(form, tr("&Content type:"), m_contentType);
    m_subject = lineEdit(QStringLiteral("subject"), tr("the Label"));
    addFormRow(form, tr("Su&bject:"), m_subject);
    m_sessionId = lineEdit(QStringLiteral("sessionId"), tr("required by a session queue"));
    addFormRow(form, tr("S&ession ID:"), m_sessionId);
    m_messageId = lineEdit(QStringLiteral("messageId"), tr("made by the broker when empty"));
    addFormRow(form, tr("&Message ID:"), m_messageId);
    m_correlationId = lineEdit(QStringLiteral("correlationId"), QString());
    addFormRow(form, tr("Co&rrelation ID:"), m_correlationId);
    m_properties = textEdit(QStringLiteral("applicationProperties"), 3);
    m_properties->setPlaceholderText(tr("one name=value a line"));
    m_propertiesError = addFormRow(form, tr("&Application properties:"), m_properties);

    const ScheduleInputs schedule = makeScheduleInputs(formOwner);
    m_schedule = schedule.schedule;
    m_schedule->setAccessibleName(tr("Schedule the enqueue at (UTC)"));
    m_scheduledTime = schedule.time;
    setScheduleStart(m_scheduledTime, clock);
    form->addRow(QString(), m_schedule);
    addFormRow(form, tr("Scheduled &time:"), m_scheduledTime);

    m_message = new FieldError(nullptr, QStringLiteral("message"), this);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Send"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("send"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &ServiceBusSendDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &ServiceBusSendDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(formOwner, 1);
    layout->addWidget(m_message);
    layout->addWidget(m_buttons);
    m_body->setFocus();
}

QString ServiceBusSendDialog::message() const
{
    return m_message->message();
}

QString ServiceBusSendDialog::propertiesError() const
{
    return m_propertiesError->message();
}

void ServiceBusSendDialog::accept()
{
    if (m_sending)
        return;
    m_message->clearMessage();
    m_propertiesError->clearMessage();
    ServiceBusMessageText text;
    text.body = m_body->toPlainText().toStdString();
    text.contentType = m_contentType->text().trimmed().toStdString();
    text.subject = m_subject->text().toStdString();
    text.sessionId = m_sessionId->text().trimmed().toStdString();
    text.messageId = m_messageId->text().trimmed().toStdString();
    text.correlationId = m_correlationId->text().trimmed().toStdString();
    const QStringList lines = m_properties->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return m_propertiesError->setMessage(tr("\"%1\" is not name=value.").arg(line.trimmed()));
        text.applicationProperties[line.left(equals).trimmed().toStdString()] = line.mid(equals + 1).trimmed().toStdString();
    }
    if (m_schedule->isChecked())
        text.scheduledEnqueueTime = fromEpochMilliseconds(m_scheduledTime->dateTime().toMSecsSinceEpoch());
    Result<ServiceBusSend> send = embedded::serviceBusSend(text);
    if (!send)
        return m_message->setMessage(QString::fromStdString(send.error().message));
    m_sending = true;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    const auto sent = [this](Status status) {
        m_sending = false;
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
        if (!status) {
            m_message->setMessage(QString::fromStdString(status.error().message));
            emit answered();
            return;
        }
        emit answered();
        QDialog::accept();
    };
    if (m_topic)
        m_service.publishServiceBusMessages(m_entity.toStdString(), {send->request}, {send->facts},
                                           embedded::serviceBusRuleCopy(), this, sent);
    else
        m_service.sendServiceBusMessages(m_entity.toStdString(), {send->request}, this, sent);
}

} // namespace relaydesk
