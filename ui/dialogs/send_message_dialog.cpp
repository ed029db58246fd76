// SPDX-License-Identifier: MIT
#include "dialogs/send_message_dialog.h"

#include "broker/clock.h"
#include "dialogs/dialog_form.h"
#include "widgets/field_error.h"
#include "dialogs/message_attributes_editor.h"
#include "engine/broker_service.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSpinBox>
#include <QTimeZone>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

const char *const kTemplatesKey = "messages/sendTemplates";

QStringList savedSends()
{
    return QSettings().value(QLatin1String(kTemplatesKey)).toStringList();
}

QString templateTitle(const QJsonObject &saved)
{
    QString body = saved.value(QLatin1String("body")).toString().simplified();
    if (body.size() > 48)
        body = body.left(48) + QStringLiteral(" …");
    return body.isEmpty() ? QStringLiteral("(empty body)") : body;
}

} // namespace

SendMessageDialog::SendMessageDialog(BrokerService &service, const QString &queueName, QWidget *parent)
    : QDialog(parent), m_service(&service), m_queueName(queueName), m_fifo(queueName.endsWith(QLatin1String(".fifo")))
{
    setWindowTitle(tr("Send a message to %1").arg(queueName));
    setObjectName(QStringLiteral("sendMessageDialog"));
    auto *form = new QFormLayout;
    auto *formOwner = new QWidget(this);
    formOwner->setLayout(form);
    form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);

    m_template = new QComboBox;
    m_template->setObjectName(QStringLiteral("template"));
    m_template->addItem(tr("New message"));
    for (const QString &saved : savedSends())
        m_template->addItem(templateTitle(QJsonDocument::fromJson(saved.toUtf8()).object()));
    addFormRow(form, tr("&Template:"), m_template);
    connect(m_template, &QComboBox::activated, this, &SendMessageDialog::loadTemplate);

    m_body = new QPlainTextEdit;
    m_body->setObjectName(QStringLiteral("body"));
    m_body->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_body->setTabChangesFocus(true);
    m_body->setPlaceholderText(tr("The message body (plain text, e.g. JSON)"));
    m_bodyError = addFormRow(form, tr("&Body:"), m_body);

    m_attributes = new MessageAttributesEditor;
    m_attributes->setObjectName(QStringLiteral("attributes"));
    m_attributesError = addFormRow(form, tr("A&ttributes:"), m_attributes);

    const FifoIdRows ids = addFifoIdRows(form, m_fifo, tr("queue"));
    m_groupId = ids.groupId;
    m_groupIdError = ids.groupIdError;
    m_deduplicationId = ids.deduplicationId;
    m_deduplicationIdError = ids.deduplicationIdError;

    m_delay = new QSpinBox;
    m_delay->setObjectName(QStringLiteral("delaySeconds"));
    m_delay->setRange(-1, 900);
    m_delay->setSpecialValueText(tr("queue default"));
    m_delay->setValue(-1);
    m_delay->setSuffix(tr(" s"));
    m_delay->setEnabled(!m_fifo);   // FIFO: per queue only (docs/behaviour.md §10)
    m_delay->setToolTip(tr("0–900 seconds before the message can be received."));
    m_delayError = addFormRow(form, tr("De&lay:"), m_delay);

    m_timeToLive = addTimeToLiveRow(form, tr("queue default"), &m_timeToLiveError);

    const ScheduleInputs schedule = makeScheduleInputs(formOwner);
    m_schedule = schedule.schedule;
    m_scheduledTime = schedule.time;
    auto *scheduleRow = new QWidget;
    auto *scheduleLayout = new QHBoxLayout(scheduleRow);
    scheduleLayout->setContentsMargins(0, 0, 0, 0);
    scheduleLayout->addWidget(m_schedule);
    scheduleLayout->addWidget(m_scheduledTime, 1);
    m_scheduleError = addFormRow(form, tr("Scheduled &time:"), scheduleRow);
    m_scheduledTime->setAccessibleName(tr("Scheduled time"));
    setClock(nullptr);

    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Send"));
    m_buttons->button(QDialogButtonBox::Ok)->setObjectName(QStringLiteral("send"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SendMessageDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SendMessageDialog::reject);

    // An error under a field takes a reserved line: nothing below it moves.
    for (FieldError *error : {m_bodyError, m_attributesError, m_groupIdError, m_deduplicationIdError, m_delayError,
                              m_timeToLiveError, m_scheduleError})
        error->reserveLine();

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(formOwner);
    layout->addWidget(m_buttons);
    resize(620, 560);
    m_body->setFocus();
}

SendMessageDialog::~SendMessageDialog() = default;

void SendMessageDialog::setClock(const Clock *clock)
{
    m_clock = clock;
    setScheduleStart(m_scheduledTime, clock);
}

void SendMessageDialog::clearErrors()
{
    for (FieldError *line : {m_bodyError, m_attributesError, m_groupIdError, m_deduplicationIdError, m_delayError,
                                 m_timeToLiveError, m_scheduleError})
        line->clearMessage();
}

void SendMessageDialog::accept()
{
    if (m_sending)
        return;
    clearErrors();
    SendRequest request;
    request.body = m_body->toPlainText().toStdString();
    QString problem;
    std::optional<MessageAttributes> attributes = m_attributes->attributes(&problem);
    if (!attributes)
        return m_attributesError->setMessage(problem);
    request.attributes = std::move(*attributes);
    if (m_fifo && !m_groupId->text().isEmpty())
        request.groupId = m_groupId->text().toStdString();
    if (m_fifo && !m_deduplicationId->text().isEmpty())
        request.deduplicationId = m_deduplicationId->text().toStdString();
    if (m_delay->isEnabled() && m_delay->value() >= 0)
        request.delaySeconds = m_delay->value();
    if (m_timeToLive->value() > 0)
        request.timeToLiveSeconds = m_timeToLive->value();
    if (m_schedule->isChecked())
        request.scheduledEnqueueTime = fromEpochMilliseconds(m_scheduledTime->dateTime().toMSecsSinceEpoch());

    m_sending = true;
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_service->sendMessage(m_queueName.toStdString(), std::move(request), this, [this](Result<SendReceipt> sent) {
        m_sending = false;
        m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
        if (!sent)
            return showRefusal(QString::fromStdString(sent.error().message));
        m_sentMessageId = QString::fromStdString(sent->messageId);
        rememberSend();
        QDialog::accept();
    });
}

// The broker names the parameter it refuses; the refusal goes to that field.
void SendMessageDialog::showRefusal(const QString &message)
{
    FieldError *line = lineForRefusal(message,
                                          {{"MessageGroupId", m_groupIdError},
                                           {"MessageDeduplicationId", m_deduplicationIdError},
                                           {"ContentBasedDeduplication", m_deduplicationIdError},
                                           {"DelaySeconds", m_delayError},
                                           {"TimeToLive", m_timeToLiveError},
                                           {"Scheduled", m_scheduleError},
                                           {"attribute", m_attributesError}},
                                          m_bodyError);
    line->setMessage(message);
}

void SendMessageDialog::rememberSend()
{
    QJsonObject saved;
    saved.insert(QStringLiteral("body"), m_body->toPlainText());
    QJsonArray attributes;
    QString ignored;
    for (const auto &[name, value] : m_attributes->attributes(&ignored).value_or(MessageAttributes{}))
        attributes.append(QJsonObject{
            {QStringLiteral("name"), QString::fromStdString(name)},
            {QStringLiteral("type"), QString::fromStdString(value.dataType)},
            {QStringLiteral("value"), value.isBinary()
                                          ? QString::fromLatin1(QByteArray::fromStdString(value.binaryValue).toBase64())
                                          : QString::fromStdString(value.stringValue)}});
    saved.insert(QStringLiteral("attributes"), attributes);
    saved.insert(QStringLiteral("groupId"), m_groupId->text());
    saved.insert(QStringLiteral("deduplicationId"), m_deduplicationId->text());
    saved.insert(QStringLiteral("delaySeconds"), m_delay->value());
    saved.insert(QStringLiteral("timeToLive"), m_timeToLive->value());
    const QString text = QString::fromUtf8(QJsonDocument(saved).toJson(QJsonDocument::Compact));
    QStringList sends = savedSends();
    sends.removeAll(text);
    sends.prepend(text);
    while (sends.size() > kSavedSends)
        sends.removeLast();
    QSettings().setValue(QLatin1String(kTemplatesKey), sends);
}

void SendMessageDialog::setMessage(const SendRequest &request, const QString &title)
{
    if (!title.isEmpty())
        m_template->setItemText(0, title);
    m_body->setPlainText(QString::fromStdString(request.body));
    m_attributes->setAttributes(request.attributes);
    m_groupId->setText(QString::fromStdString(request.groupId.value_or(std::string())));
    m_deduplicationId->setText(QString::fromStdString(request.deduplicationId.value_or(std::string())));
}

void SendMessageDialog::loadTemplate(int index)
{
    const QStringList sends = savedSends();
    if (index < 1 || index > sends.size())
        return;
    const QJsonObject saved = QJsonDocument::fromJson(sends.at(index - 1).toUtf8()).object();
    m_body->setPlainText(saved.value(QLatin1String("body")).toString());
    m_attributes->setAttributes({});
    for (const QJsonValue &attribute : saved.value(QLatin1String("attributes")).toArray()) {
        const QJsonObject item = attribute.toObject();
        m_attributes->addAttribute(item.value(QLatin1String("name")).toString(),
                                   item.value(QLatin1String("type")).toString(),
                                   item.value(QLatin1String("value")).toString());
    }
    m_groupId->setText(saved.value(QLatin1String("groupId")).toString());
    m_deduplicationId->setText(saved.value(QLatin1String("deduplicationId")).toString());
    m_delay->setValue(saved.value(QLatin1String("delaySeconds")).toInt(-1));
    m_timeToLive->setValue(saved.value(QLatin1String("timeToLive")).toInt(0));
}

} // namespace relaydesk
