// SPDX-License-Identifier: MIT
#include "dialogs/servicebus_create_dialog.h"

#include "broker/queues/servicebus_queue.h"
#include "broker/servicebus/servicebus_topic.h"
#include "dialogs/create_dialog_frame.h"
#include "dialogs/dialog_form.h"
#include "dialogs/entity_name_field.h"
#include "dialogs/servicebus_properties_form.h"
#include "engine/broker_service.h"
#include "widgets/field_error.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QPushButton>

namespace relaydesk {

namespace {

using Json = nlohmann::json;
using FormEntity = ServiceBusPropertiesForm::Entity;

FormEntity formEntity(ServiceBusCreateDialog::Kind kind)
{
    switch (kind) {
    case ServiceBusCreateDialog::Kind::Queue: return FormEntity::Queue;
    case ServiceBusCreateDialog::Kind::Topic: return FormEntity::Topic;
    case ServiceBusCreateDialog::Kind::Subscription: return FormEntity::Subscription;
    }
    return FormEntity::Queue;
}

QString titleOf(ServiceBusCreateDialog::Kind kind, const QString &topic)
{
    switch (kind) {
    case ServiceBusCreateDialog::Kind::Queue: return QObject::tr("New Service Bus Queue");
    case ServiceBusCreateDialog::Kind::Topic: return QObject::tr("New Service Bus Topic");
    case ServiceBusCreateDialog::Kind::Subscription: return QObject::tr("New Subscription of %1").arg(topic);
    }
    return {};
}

} // namespace

ServiceBusCreateDialog::ServiceBusCreateDialog(BrokerService &service, Kind kind, const QString &topic, QWidget *parent)
    : QDialog(parent)
    , m_service(service)
    , m_kind(kind)
    , m_topic(topic)
{
    setObjectName(QStringLiteral("serviceBusCreateDialog"));
    setWindowTitle(titleOf(kind, topic));
    m_name = new EntityNameField(kind == Kind::Subscription
                                     ? tr("1–50 letters, digits, '.', '-' or '_'.")
                                     : tr("1–260 letters, digits, '.', '-', '_' or '/', starting and ending with a "
                                          "letter or digit."),
                                 this);
    m_form = new ServiceBusPropertiesForm(formEntity(kind), ServiceBusPropertiesForm::Mode::Create, this);
    connect(m_form, &ServiceBusPropertiesForm::edited, this, [this] { m_message->clearMessage(); });
    QList<QWidget *> scrolled{m_form};
    if (kind == Kind::Subscription) {
        auto *box = new QGroupBox(tr("Rule"), this);
        auto *form = new QFormLayout(box);
        m_filter = new QLineEdit(box);
        m_filter->setObjectName(QStringLiteral("SqlFilter"));
        m_filter->setPlaceholderText(tr("none: every message (1=1)"));
        m_filter->setToolTip(tr("The $Default rule's SQL filter, e.g. sys.Label = 'invoice' AND amount > 100"));
        m_filterError = addFormRow(form, tr("Default &filter (SQL):"), m_filter);
        scrolled << box;
    }
    const CreateDialogFrame frame = buildCreateDialogFrame(this, m_name, scrolled);
    m_message = frame.message;
    m_buttons = frame.buttons;
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Create"));
}

ServiceBusCreateDialog::~ServiceBusCreateDialog() = default;

QString ServiceBusCreateDialog::filterError() const
{
    return m_filterError ? m_filterError->message() : QString();
}

QString ServiceBusCreateDialog::message() const
{
    return m_message->isHidden() ? QString() : m_message->text();
}

void ServiceBusCreateDialog::accept()
{
    m_name->showError({});
    m_form->clearErrors();
    m_message->clearMessage();
    if (m_filterError)
        m_filterError->clearMessage();
    const QString name = m_name->name(false);
    // Every field is checked before anything is sent (each property on its
    // own, by the broker's parse); every refusal shows at once, in form order.
    int refused = 0;
    if (m_kind != Kind::Subscription) // a subscription's parse needs its topic: checked whole below
        refused = m_form->checkEach([this](const Json &onlyThis) -> std::optional<std::string> {
            Json probe{{"Name", "probe"}, {"Properties", onlyThis}};
            if (m_kind == Kind::Queue) {
                auto queue = parseServiceBusQueue(probe);
                return queue ? std::nullopt : std::optional(queue.error().message);
            }
            probe["Subscriptions"] = Json::array();
            auto topic = parseServiceBusTopic(probe);
            return topic ? std::nullopt : std::optional(topic.error().message);
        });
    if (name.isEmpty()) {
        ++refused;
        m_name->showError(tr("Give the %1 a name.")
                              .arg(m_kind == Kind::Topic ? tr("topic") : m_kind == Kind::Queue ? tr("queue")
                                                                                                 : tr("subscription")));
    }
    if (refused > 0) {
        m_message->setMessage(tr("%n field(s) to correct before it can be created.", nullptr, refused));
        emit answered();
        return;
    }
    Json entity{{"Name", name.toStdString()}, {"Properties", m_form->properties()}};
    const auto done = [this](const QString &shown) {
        return [this, shown](Result<bool> made) {
            if (!made)
                return refuse(QString::fromStdString(made.error().message));
            created(*made, shown);
        };
    };
    setBusy(true);
    switch (m_kind) {
    case Kind::Queue: {
        Result<ServiceBusQueueProperties> queue = parseServiceBusQueue(entity);
        if (!queue)
            return refuse(QString::fromStdString(queue.error().message));
        m_service.createServiceBusQueue(*queue, this, done(name));
        return;
    }
    case Kind::Topic: {
        entity["Subscriptions"] = Json::array();
        Result<ServiceBusTopic> topic = parseServiceBusTopic(entity);
        if (!topic)
            return refuse(QString::fromStdString(topic.error().message));
        m_service.createServiceBusTopic(*topic, this, done(name));
        return;
    }
    case Kind::Subscription: {
        const QString filter = m_filter->text().trimmed();
        if (!filter.isEmpty())
            entity["Rules"] = Json::array({Json{{"Name", std::string(ServiceBusRule::kDefaultName)},
                                                {"Properties",
                                                 {{"FilterType", "Sql"},
                                                  {"SqlFilter", {{"SqlExpression", filter.toStdString()}}}}}}});
        m_service.findServiceBusTopic(m_topic.toStdString(), this, [this, entity, done, name](Result<ServiceBusTopic> topic) {
            if (!topic)
                return refuse(QString::fromStdString(topic.error().message));
            Result<ServiceBusSubscription> subscription = parseServiceBusSubscription(*topic, entity);
            if (!subscription)
                return refuse(QString::fromStdString(subscription.error().message));
            m_service.createServiceBusSubscription(
                m_topic.toStdString(), *subscription, this,
                done(QString::fromStdString(serviceBusSubscriptionQueue(m_topic.toStdString(), name.toStdString()))));
        });
        return;
    }
    }
}

void ServiceBusCreateDialog::created(bool isNew, const QString &name)
{
    if (!isNew) {   // the broker keeps an identical entity: the dialog asked for a new one
        refuse(tr("A Service Bus entity named %1 already exists.").arg(m_name->name(false)));
        return;
    }
    m_created = name;
    setBusy(false);
    emit answered();
    QDialog::accept();
}

void ServiceBusCreateDialog::refuse(const QString &text)
{
    if (m_form->showError(text)) {
        // shown at the field it names
    } else if (m_filterError && (text.contains(QLatin1String("rule"), Qt::CaseInsensitive) ||
                                 text.contains(QLatin1String("SQL"), Qt::CaseInsensitive) ||
                                 text.contains(QLatin1String("filter"), Qt::CaseInsensitive))) {
        m_filterError->setMessage(text);
    } else if (text.contains(QLatin1String("name"), Qt::CaseInsensitive) ||
               text.contains(QLatin1String("exists"), Qt::CaseInsensitive)) {
        m_name->showError(text);
    } else {
        m_message->setMessage(text);
    }
    setBusy(false);
    emit answered();
}

void ServiceBusCreateDialog::setBusy(bool busy)
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy);
}

} // namespace relaydesk
