// SPDX-License-Identifier: MIT
#include "dialogs/create_topic_dialog.h"

#include "dialogs/create_dialog_frame.h"
#include "dialogs/entity_name_field.h"
#include "engine/broker_service.h"
#include "policy/policy_json.h"
#include "policy/policy_presets.h"
#include "widgets/attribute_form.h"
#include "widgets/field_error.h"
#include "models/policy_evaluation.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QGroupBox>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>

namespace relaydesk {

CreateTopicDialog::CreateTopicDialog(BrokerService &service, QWidget *parent)
    : QDialog(parent)
    , m_service(service)
{
    setObjectName(QStringLiteral("createTopicDialog"));
    setWindowTitle(tr("New Topic"));
    m_name = new EntityNameField(tr("1–256 letters, digits, '-' or '_'. A FIFO topic's name ends in .fifo (added for "
                                    "you)."),
                                 this);
    m_form = new AttributeForm(topicAttributeDescriptions(), AttributeForm::Mode::Create, this);
    m_form->setValues({});
    const CreateDialogFrame frame = buildCreateDialogFrame(this, m_name, {m_form, buildPolicyBox()});
    m_message = frame.message;
    m_buttons = frame.buttons;
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Create"));
}

CreateTopicDialog::~CreateTopicDialog() = default;

QWidget *CreateTopicDialog::buildPolicyBox()
{
    auto *box = new QGroupBox(tr("Delivery policy"), this);
    m_preset = new QComboBox(box);
    m_preset->setObjectName(QStringLiteral("policyPreset"));
    m_preset->setAccessibleName(tr("Start from"));
    m_preset->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    m_preset->setMinimumContentsLength(30);
    m_preset->addItem(tr("None — subscriptions use their own policy or the defaults"), QString());
    for (const PolicyPreset &preset : policyPresets()) {
        if (!preset.policy.managed)
            m_preset->addItem(QString::fromStdString(preset.name + "  —  " + preset.description),
                              QString::fromStdString(preset.name));
    }
    auto *presetLabel = new QLabel(tr("&Start from"), box);
    presetLabel->setBuddy(m_preset);
    m_policy = new QPlainTextEdit(box);
    m_policy->setObjectName(QStringLiteral("DeliveryPolicy"));
    m_policy->setAccessibleName(tr("Delivery policy JSON"));
    m_policy->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_policy->setTabChangesFocus(true);
    m_policy->setPlaceholderText(tr("none"));
    m_policy->setFixedHeight(m_policy->fontMetrics().lineSpacing() * 8 + 12);
    auto *jsonLabel = new QLabel(tr("Delivery policy &JSON"), box);
    jsonLabel->setBuddy(m_policy);
    auto *help = new QLabel(tr("The topic form {\"http\": {\"defaultHealthyRetryPolicy\": …}} or the Zaqar form; how "
                               "HTTP/S deliveries are retried (docs/behaviour.md §2). The topic's Policy tab edits it with the chart."),
                            box);
    help->setWordWrap(true);
    help->setForegroundRole(QPalette::PlaceholderText);
    m_policyError = new FieldError(m_policy, QStringLiteral("DeliveryPolicy"), box);
    connect(m_preset, &QComboBox::activated, this, &CreateTopicDialog::showPreset);

    auto *grid = new QGridLayout(box);
    grid->addWidget(presetLabel, 0, 0);
    grid->addWidget(m_preset, 0, 1);
    grid->addWidget(jsonLabel, 1, 0, Qt::AlignTop);
    grid->addWidget(m_policy, 1, 1);
    grid->addWidget(help, 2, 1);
    grid->addWidget(m_policyError, 3, 1);
    grid->setColumnStretch(1, 1);
    return box;
}

void CreateTopicDialog::showPreset(int index)
{
    const QString name = m_preset->itemData(index).toString();
    const std::optional<PolicyPreset> preset = findPolicyPreset(name.toStdString());
    if (!preset) {
        m_policy->clear();
        return;
    }
    const PolicyConversion topicForm = convertPolicy(preset->policy, PolicyForm::SnsTopic);
    m_policy->setPlainText(topicForm.policy ? policyJsonText(*topicForm.policy) : policyJsonText(preset->policy));
}

QString CreateTopicDialog::deliveryPolicyError() const
{
    return m_policyError->message();
}

QString CreateTopicDialog::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

void CreateTopicDialog::accept()
{
    const QString name = m_name->name(m_form->isFifo());
    m_name->showError({});
    m_form->clearErrors();
    m_policyError->clearMessage();
    m_message->clearMessage();
    // Every field is checked before anything is sent; every refusal shows at
    // once, in form order, the keyboard on the first.
    const int refused = m_form->checkRanges() + (name.isEmpty() ? 1 : 0);
    if (name.isEmpty())
        m_name->showError(tr("Give the topic a name.")); // first in the form: the keyboard goes there
    if (refused > 0) {
        m_message->setMessage(tr("%n field(s) to correct before the topic can be created.", nullptr, refused));
        emit answered();
        return;
    }
    setBusy(true);
    // CreateTopic answers an existing name as a success; a new topic is what is asked.
    m_service.getTopicAttributes(name.toStdString(), this, [this, name](Result<AttributeMap> existing) {
        if (existing) {
            refuse(tr("A topic named %1 already exists.").arg(name), m_name);
            return;
        }
        create(name);
    });
}

void CreateTopicDialog::create(const QString &name)
{
    AttributeMap attributes;
    const AttributeValues values = m_form->nonDefaultValues();
    for (auto it = values.cbegin(); it != values.cend(); ++it)
        attributes[it.key().toStdString()] = it.value().toStdString();
    const QString policy = m_policy->toPlainText().trimmed();
    if (!policy.isEmpty())
        attributes["DeliveryPolicy"] = policy.toStdString();
    m_service.createTopic(name.toStdString(), attributes, {}, this, [this, name, values](Result<std::string> arn) {
        if (!arn) {
            const QString text = QString::fromStdString(arn.error().message);
            if (attributeNamedIn(text, {QStringLiteral("DeliveryPolicy")}).size())
                refuse(text, m_policy);
            else if (m_form->showBrokerError(text, values.keys()))
                refuse(tr("The topic was not created: the broker refused a value."), nullptr);
            else
                refuse(text, m_name);
            return;
        }
        m_created = name;
        setBusy(false);
        emit answered();
        QDialog::accept();
    });
}

void CreateTopicDialog::refuse(const QString &text, QWidget *at)
{
    if (at == m_name)
        m_name->showError(text);
    else if (at == m_policy)
        m_policyError->setMessage(text);
    else
        m_message->setMessage(text);
    setBusy(false);
    emit answered();
}

void CreateTopicDialog::setBusy(bool busy)
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy);
}

} // namespace relaydesk
