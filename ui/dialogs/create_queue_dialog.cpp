// SPDX-License-Identifier: MIT
#include "dialogs/create_queue_dialog.h"

#include "dialogs/entity_name_field.h"
#include "dialogs/create_dialog_frame.h"
#include "widgets/field_error.h"
#include "engine/broker_service.h"
#include "widgets/attribute_form.h"
#include "models/entity_attribute_calls.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>

namespace relaydesk {

CreateQueueDialog::CreateQueueDialog(BrokerService &service, QWidget *parent)
    : QDialog(parent)
    , m_service(service)
{
    setObjectName(QStringLiteral("createQueueDialog"));
    setWindowTitle(tr("New Queue"));
    m_name = new EntityNameField(tr("1–80 letters, digits, '-' or '_'. A FIFO queue's name ends in .fifo (added for "
                                    "you)."),
                                 this);
    m_form = new AttributeForm(queueAttributeDescriptions(), AttributeForm::Mode::Create, this);
    m_form->setValues({});   // the defaults
    const CreateDialogFrame frame = buildCreateDialogFrame(this, m_name, m_form);
    m_message = frame.message;
    m_buttons = frame.buttons;
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Create"));
    loadQueueChoices(m_service, this, [this](Result<QueueChoices> queues) {
        if (queues)
            m_form->setQueueChoices(queues.value());
    });
}

CreateQueueDialog::~CreateQueueDialog() = default;

QString CreateQueueDialog::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

void CreateQueueDialog::accept()
{
    const QString name = m_name->name(m_form->isFifo());
    m_name->showError({});
    m_form->clearErrors();
    m_message->clearMessage();
    // Every field is checked before anything is sent; every refusal shows at
    // once, in form order, the keyboard on the first.
    const int refused = m_form->checkRanges() + (name.isEmpty() ? 1 : 0);
    if (name.isEmpty())
        m_name->showError(tr("Give the queue a name.")); // first in the form: the keyboard goes there
    if (refused > 0) {
        m_message->setMessage(tr("%n field(s) to correct before the queue can be created.", nullptr, refused));
        emit answered();
        return;
    }
    setBusy(true);
    // CreateQueue answers an existing name with the same attributes as a success; a new queue is what is asked.
    m_service.getQueueUrl(name.toStdString(), this, [this, name](Result<std::string> url) {
        if (url) {
            showRefusal(tr("A queue named %1 already exists.").arg(name), true);
            return;
        }
        create(name);
    });
}

void CreateQueueDialog::create(const QString &name)
{
    AttributeMap attributes;
    const AttributeValues values = m_form->nonDefaultValues();
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        attributes[it.key().toStdString()] = it.value().toStdString();
    m_service.createQueue(name.toStdString(), attributes, {}, this, [this, name, values](Result<std::string> url) {
        if (!url) {
            const QString text = QString::fromStdString(url.error().message);
            const bool named = url.error().code == BrokerErrorCode::QueueAlreadyExists;
            if (named || !m_form->showBrokerError(text, values.keys()))
                showRefusal(text, true);
            else
                showRefusal(tr("The queue was not created: the broker refused a value."), false);
            return;
        }
        m_created = name;
        setBusy(false);
        emit answered();
        QDialog::accept();
    });
}

void CreateQueueDialog::showRefusal(const QString &text, bool nameProblem)
{
    if (nameProblem)
        m_name->showError(text);
    else
        m_message->setMessage(text);
    setBusy(false);
    emit answered();
}

void CreateQueueDialog::setBusy(bool busy)
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy);
}

} // namespace relaydesk
