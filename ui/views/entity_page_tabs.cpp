// SPDX-License-Identifier: MIT
#include "views/entity_page_tabs.h"

#include "models/entity_tree_model.h"
#include "connections/embedded/embedded_broker.h"
#include "views/deliveries_page.h"
#include "views/entity_dialogs.h"
#include "views/delivery_policy_page.h"
#include "views/entity_attributes_page.h"
#include "views/entity_overview_tab.h"
#include "views/queue_messages_page.h"
#include "views/servicebus_messages_page.h"
#include "views/servicebus_properties_page.h"
#include "views/topic_subscriptions_tab.h"

#include <QTabWidget>

namespace relaydesk {

namespace {

using Entity = EntityChange::Entity;
using Content = EntityOverviewTab::Content;

// A Service Bus entity's tabs (docs/window.md "Service Bus"): Properties
// and Messages for a queue or subscription, Messages for a dead-letter
// sub-queue, Properties for a topic. False for any other entity.
bool addServiceBusTabs(QTabWidget &tabs, EmbeddedBroker &host, EntityTreeModel &model, const LocalEntity &ref)
{
    if (ref.serviceBus && ref.kind == Entity::Topic) {
        tabs.addTab(new ServiceBusPropertiesPage(host.service(), ref.name, true, &tabs), QObject::tr("&Properties"));
        return true;
    }
    const QueueOverview *queue = ref.kind == Entity::Queue ? model.queue(ref.name) : nullptr;
    if (!queue || (!queue->serviceBus && queue->serviceBusDeadLetterOf.empty()))
        return false;
    if (queue->serviceBus)
        tabs.addTab(new ServiceBusPropertiesPage(host.service(), ref.name, false, &tabs), QObject::tr("&Properties"));
    tabs.addTab(new ServiceBusMessagesPage(host.service(), host.engine(), ref.name, &tabs), QObject::tr("&Messages"));
    return true;
}

} // namespace

void addEntityTabs(QTabWidget &tabs, EmbeddedBroker &host, EntityTreeModel &model, EntityActions &actions,
                   const LocalEntity &ref)
{
    auto attributes = [&] { return new EntityAttributesPage(host.service(), host.engine(), ref.kind, ref.name, &tabs); };
    auto policy = [&] {
        auto *page = new DeliveryPolicyPage(host.service(), host.engine(), ref.kind, ref.name, &tabs);
        QObject::connect(page, &DeliveryPolicyPage::tryPolicyRequested, page,
                         [&host, &actions, page](const QString &json) { openTryPolicyDialog(host, actions, json, page); });
        return page;
    };
    auto deliveries = [&] { return new DeliveriesPage(host, actions, ref, &tabs); };
    if (addServiceBusTabs(tabs, host, model, ref))
        return;
    tabs.addTab(new EntityOverviewTab(host, model, actions, ref, Content::Facts, &tabs), QObject::tr("&Overview"));
    switch (ref.kind) {
    case Entity::Queue:
        tabs.addTab(attributes(), QObject::tr("&Attributes"));
        tabs.addTab(new QueueMessagesPage(host.service(), host.engine(), ref.name, &tabs), QObject::tr("&Messages"));
        if (const QueueOverview *queue = model.queue(ref.name); queue && queue->isDeadLetterQueue)
            tabs.addTab(new EntityOverviewTab(host, model, actions, ref, Content::Sources, &tabs), QObject::tr("&Sources"));
        break;
    case Entity::Topic:
        tabs.addTab(attributes(), QObject::tr("&Attributes"));
        tabs.addTab(policy(), QObject::tr("&Policy"));
        tabs.addTab(new TopicSubscriptionsTab(host, model, actions, ref.name, &tabs), QObject::tr("S&ubscriptions"));
        tabs.addTab(deliveries(), QObject::tr("&Deliveries"));
        break;
    case Entity::Subscription:
        tabs.addTab(attributes(), QObject::tr("&Attributes"));
        tabs.addTab(policy(), QObject::tr("&Policy"));
        tabs.addTab(deliveries(), QObject::tr("&Deliveries"));
        break;
    }
}

} // namespace relaydesk
