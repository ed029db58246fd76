// SPDX-License-Identifier: MIT
#include "views/servicebus_properties_page.h"

#include "broker/servicebus/servicebus_topic.h"
#include "dialogs/servicebus_properties_form.h"
#include "engine/broker_service.h"
#include "engine/servicebus_admin_calls.h"
#include "widgets/apply_bar.h"

#include <QLabel>
#include <QLineEdit>
#include <QScrollArea>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

using Json = nlohmann::json;

// "TOPIC/Subscriptions/NAME" → {TOPIC, NAME}; empty for any other queue.
std::pair<std::string, std::string> subscriptionOf(const std::string &queue)
{
    const std::size_t at = queue.find(kServiceBusSubscriptionsPath);
    if (at == std::string::npos)
        return {};
    return {queue.substr(0, at), queue.substr(at + kServiceBusSubscriptionsPath.size())};
}

// "big-orders: SQL amount > 100", "$Default: correlation {"Label":"x"}".
QString ruleText(const ServiceBusRule &rule)
{
    if (rule.filter == ServiceBusRule::Filter::Sql)
        return QString::fromStdString(rule.name + ": SQL " + rule.sqlExpression);
    const Json properties = serviceBusRuleJson(rule)["Properties"];
    const Json filter = properties.contains("CorrelationFilter") ? properties["CorrelationFilter"] : properties;
    return QString::fromStdString(rule.name + ": correlation " + filter.dump());
}

} // namespace

ServiceBusPropertiesPage::ServiceBusPropertiesPage(BrokerService &service, const QString &name, bool topic,
                                                   QWidget *parent)
    : QWidget(parent)
    , m_service(service)
    , m_name(name)
    , m_topic(topic)
{
    setObjectName(QStringLiteral("serviceBusPropertiesPage"));
    const bool subscription = !subscriptionOf(name.toStdString()).first.empty();
    using Entity = ServiceBusPropertiesForm::Entity;
    m_form = new ServiceBusPropertiesForm(topic ? Entity::Topic : subscription ? Entity::Subscription : Entity::Queue,
                                          ServiceBusPropertiesForm::Mode::Update, this);
    if (topic) {   // shown, not edited (the service's topic updates are not built)
        for (QLineEdit *edit : m_form->findChildren<QLineEdit *>())
            edit->setReadOnly(true);
    }
    m_extra = new QLabel(this);
    m_extra->setObjectName(QStringLiteral("serviceBusExtra"));
    m_extra->setWordWrap(true);
    m_extra->setTextFormat(Qt::PlainText);
    m_extra->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto *content = new QWidget;
    auto *column = new QVBoxLayout(content);
    m_form->setMaximumWidth(m_form->fontMetrics().horizontalAdvance(QLatin1Char('M')) * 50);
    column->addWidget(m_form);
    column->addWidget(m_extra);
    column->addStretch(1);
    auto *scroll = new QScrollArea(this);
    scroll->setFocusPolicy(Qt::NoFocus); // its fields are the Tab stops (scrolled into view); the area is none: AT-SPI read it as an unnamed stop
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    m_apply = new ApplyBar(tr("Write the changed properties to the broker"), this);
    m_apply->setVisible(!topic);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(scroll, 1);
    layout->addWidget(m_apply);
    connect(m_form, &ServiceBusPropertiesForm::edited, this, [this] { setModified(true); });
    connect(m_apply, &ApplyBar::applyRequested, this, &ServiceBusPropertiesPage::apply);
    connect(m_apply, &ApplyBar::revertRequested, this, &ServiceBusPropertiesPage::reload);
    setModified(false);
    reload();
}

void ServiceBusPropertiesPage::setModified(bool modified)
{
    m_modified = modified;
    m_apply->setState(modified, m_busy, !m_topic);
}

void ServiceBusPropertiesPage::reload()
{
    m_form->clearErrors();
    const std::string name = m_name.toStdString();
    const auto finish = [this] {
        m_loaded = true;
        setModified(false);
        emit loaded();
    };
    if (m_topic) {
        m_service.findServiceBusTopic(name, this, [this, finish](Result<ServiceBusTopic> topic) {
            if (!topic)
                return m_apply->showMessage(QString::fromStdString(topic.error().message), true);
            m_form->setProperties(serviceBusTopicJson(*topic)["Properties"]);
            QStringList lines{tr("Subscriptions:")};
            for (const ServiceBusSubscription &subscription : topic->subscriptions) {
                QStringList rules;
                for (const ServiceBusRule &rule : subscription.rules)
                    rules << ruleText(rule);
                lines << QStringLiteral("  %1 — %2").arg(QString::fromStdString(subscription.name),
                                                       rules.isEmpty() ? tr("no rule: takes nothing") : rules.join(QStringLiteral("; ")));
            }
            if (topic->subscriptions.empty())
                lines << tr("  none");
            m_extra->setText(lines.join(QLatin1Char('\n')));
            finish();
        });
        return;
    }
    m_service.findServiceBusEntity(name, this, [this, name, finish](Result<ServiceBusEntity> entity) {
        if (!entity)
            return m_apply->showMessage(QString::fromStdString(entity.error().message), true);
        m_form->setProperties(serviceBusQueueJson(entity->properties)["Properties"]);
        const auto [topic, subscription] = subscriptionOf(name);
        if (topic.empty())
            return finish();
        m_service.listServiceBusRules(topic, subscription, this, [this, finish](Result<std::vector<ServiceBusRule>> rules) {
            QStringList lines{tr("Rules:")};
            if (rules)
                for (const ServiceBusRule &rule : *rules)
                    lines << QStringLiteral("  ") + ruleText(rule);
            if (rules && rules->empty())
                lines << tr("  none: the subscription takes nothing");
            m_extra->setText(lines.join(QLatin1Char('\n')));
            finish();
        });
    });
}

void ServiceBusPropertiesPage::apply()
{
    if (m_topic || m_busy)
        return;
    m_form->clearErrors();
    const Json entity{{"Name", m_name.toStdString()}, {"Properties", m_form->properties()}};
    Result<ServiceBusQueueProperties> properties = parseServiceBusQueue(entity);
    const auto refuse = [this](const QString &text) {
        if (!m_form->showError(text))
            m_apply->showMessage(text, true);
        else
            m_apply->showMessage(tr("Not applied: the broker refused a value."), true);
    };
    if (!properties)
        return refuse(QString::fromStdString(properties.error().message));
    m_busy = true;
    setModified(m_modified);
    servicebus_admin_calls::updateQueue(m_service, *properties, this, [this, refuse](Status done) {
        m_busy = false;
        if (!done) {
            refuse(QString::fromStdString(done.error().message));
            setModified(true);
            return;
        }
        m_apply->showMessage(tr("Applied."), false);
        reload();
        emit applied();
    });
}

} // namespace relaydesk
