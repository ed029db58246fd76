// SPDX-License-Identifier: MIT
#include "dialogs/servicebus_properties_form.h"

#include "dialogs/dialog_form.h"
#include "widgets/field_error.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

const QString kMaxDeliveryCount = QStringLiteral("MaxDeliveryCount");

} // namespace

ServiceBusPropertiesForm::ServiceBusPropertiesForm(Entity entity, Mode mode, QWidget *parent)
    : QWidget(parent)
    , m_mode(mode)
{
    setObjectName(QStringLiteral("serviceBusPropertiesForm"));
    auto *column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    auto *holder = new QWidget(this);
    auto *form = new QFormLayout(holder);
    form->setContentsMargins(0, 0, 0, 0);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    column->addWidget(holder);
    if (entity == Entity::Topic) {
        addDuration(form, QStringLiteral("DefaultMessageTimeToLive"), tr("Default message &time to live:"),
                    tr("never"));
    } else {
        addDuration(form, QStringLiteral("LockDuration"), tr("&Lock duration:"), tr("PT1M (PT5S–PT5M)"));
        auto *count = new QSpinBox(holder);
        count->setRange(1, 1000);
        count->setValue(10);
        count->setToolTip(tr("Deliveries before a message is dead-lettered, 1–1000"));
        track(kMaxDeliveryCount, count, addFormRow(form, tr("Max &delivery count:"), count));
        connect(count, &QSpinBox::valueChanged, this, &ServiceBusPropertiesForm::edited);
        addDuration(form, QStringLiteral("DefaultMessageTimeToLive"), tr("Default message &time to live:"),
                    tr("never"));
        addSwitch(form, QStringLiteral("DeadLetteringOnMessageExpiration"), tr("Dead-letter on &expiration"), false);
        addSwitch(form, QStringLiteral("RequiresSession"), tr("Requires &session"), mode == Mode::Update);
        if (entity == Entity::Queue) { // duplicate detection belongs to queues and topics, not subscriptions
            addSwitch(form, QStringLiteral("RequiresDuplicateDetection"), tr("Requires d&uplicate detection"),
                      mode == Mode::Update);
            addDuration(form, QStringLiteral("DuplicateDetectionHistoryTimeWindow"),
                        tr("Duplicate detection &window:"), tr("PT10M (PT20S–P7D)"));
        }
        addText(form, QStringLiteral("ForwardTo"), tr("&Forward to:"), tr("none (a queue name)"));
        addText(form, QStringLiteral("ForwardDeadLetteredMessagesTo"), tr("Forward dead &letters to:"),
                tr("none: the dead-letter sub-queue"));
        addDuration(form, QStringLiteral("AutoDeleteOnIdle"), tr("&Auto-delete on idle:"), tr("never (PT5M or more)"));
        if (entity == Entity::Queue) {
            auto *window = qobject_cast<QLineEdit *>(field(QStringLiteral("DuplicateDetectionHistoryTimeWindow")));
            auto *detection = qobject_cast<QCheckBox *>(field(QStringLiteral("RequiresDuplicateDetection")));
            window->setEnabled(false);
            connect(detection, &QCheckBox::toggled, window, &QWidget::setEnabled);
        }
    }
    auto *help = new QLabel(tr("Durations in ISO 8601 as Service Bus writes them: PT30S, PT5M, PT1H, P14D."), this);
    help->setWordWrap(true);
    help->setForegroundRole(QPalette::PlaceholderText);
    column->addWidget(help);
}

void ServiceBusPropertiesForm::track(const QString &property, QWidget *field, FieldError *error)
{
    field->setObjectName(property);
    m_fields.insert(property, field);
    m_errors.insert(property, error);
    m_order << property;
}

void ServiceBusPropertiesForm::addDuration(QFormLayout *form, const QString &property, const QString &label,
                                           const QString &placeholder)
{
    addText(form, property, label, placeholder);
}

void ServiceBusPropertiesForm::addText(QFormLayout *form, const QString &property, const QString &label,
                                       const QString &placeholder)
{
    auto *edit = new QLineEdit(form->parentWidget());
    edit->setPlaceholderText(placeholder);
    track(property, edit, addFormRow(form, label, edit));
    connect(edit, &QLineEdit::textEdited, this, &ServiceBusPropertiesForm::edited);
}

void ServiceBusPropertiesForm::addSwitch(QFormLayout *form, const QString &property, const QString &label, bool fixed)
{
    auto *box = new QCheckBox(label, form->parentWidget());
    QString name = label;
    box->setAccessibleName(name.remove(QLatin1Char('&')));
    box->setEnabled(!fixed);
    if (fixed)
        box->setToolTip(tr("Fixed when the entity is created"));
    auto *cell = new QWidget(form->parentWidget());
    auto *cellLayout = new QVBoxLayout(cell);
    cellLayout->setContentsMargins(0, 0, 0, 0);
    cellLayout->setSpacing(2);
    box->setParent(cell);
    cellLayout->addWidget(box);
    auto *error = new FieldError(box, cell);
    cellLayout->addWidget(error);
    form->addRow(QString(), cell);
    track(property, box, error);
    connect(box, &QCheckBox::toggled, this, &ServiceBusPropertiesForm::edited);
}

void ServiceBusPropertiesForm::setProperties(const nlohmann::json &properties)
{
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        const std::string key = it.key().toStdString();
        const bool has = properties.is_object() && properties.contains(key);
        if (auto *edit = qobject_cast<QLineEdit *>(it.value()))
            edit->setText(has && properties[key].is_string() ? QString::fromStdString(properties[key].get<std::string>())
                                                              : QString());
        else if (auto *box = qobject_cast<QCheckBox *>(it.value()))
            box->setChecked(has && properties[key].is_boolean() && properties[key].get<bool>());
        else if (auto *spin = qobject_cast<QSpinBox *>(it.value()))
            spin->setValue(has && properties[key].is_number_integer() ? properties[key].get<int>() : 10);
    }
}

nlohmann::json ServiceBusPropertiesForm::properties() const
{
    nlohmann::json json = nlohmann::json::object();
    for (auto it = m_fields.cbegin(); it != m_fields.cend(); ++it) {
        const std::string key = it.key().toStdString();
        if (auto *edit = qobject_cast<QLineEdit *>(it.value())) {
            const QString text = edit->text().trimmed();
            if (!text.isEmpty() && edit->isEnabled())
                json[key] = text.toStdString();
        } else if (auto *box = qobject_cast<QCheckBox *>(it.value())) {
            json[key] = box->isChecked();
        } else if (auto *spin = qobject_cast<QSpinBox *>(it.value())) {
            json[key] = spin->value();
        }
    }
    return json;
}

bool ServiceBusPropertiesForm::showError(const QString &message)
{
    const QString property = attributeNamedIn(message, m_fields.keys());
    if (property.isEmpty())
        return false;
    m_errors.value(property)->setMessage(message);
    return true;
}

int ServiceBusPropertiesForm::checkEach(const PropertyCheck &check)
{
    const nlohmann::json all = properties();
    int refused = 0;
    FieldError *first = nullptr;
    QString firstText;
    for (const QString &property : std::as_const(m_order)) {
        const std::string key = property.toStdString();
        if (!all.contains(key))
            continue;
        const std::optional<std::string> refusal = check(nlohmann::json{{key, all.at(key)}});
        if (!refusal)
            continue;
        const QString text = QString::fromStdString(*refusal);
        m_errors.value(property)->setMessage(text); // each takes the keyboard: the first gets it back below
        if (refused++ == 0) {
            first = m_errors.value(property);
            firstText = text;
        }
    }
    if (first)
        first->setMessage(firstText);
    return refused;
}

void ServiceBusPropertiesForm::clearErrors()
{
    for (FieldError *error : std::as_const(m_errors))
        error->clearMessage();
}

QString ServiceBusPropertiesForm::error(const QString &property) const
{
    const FieldError *line = m_errors.value(property);
    return line ? line->message() : QString();
}

} // namespace relaydesk
