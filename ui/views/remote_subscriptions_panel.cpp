// SPDX-License-Identifier: MIT
#include "views/remote_subscriptions_panel.h"

#include "connections/broker_connection.h"
#include "dialogs/dialog_form.h"
#include "views/remote_messages_panel.h"
#include "widgets/connection_call_bar.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace relaydesk {

RemoteSubscriptionsPanel::RemoteSubscriptionsPanel(BrokerConnection *connection, RemoteEntity topic,
                                                   ConnectionCallBar *callBar, QWidget *parent)
    : QGroupBox(tr("Subscriptions"), parent), m_connection(connection), m_topic(std::move(topic)), m_callBar(callBar)
{
    setObjectName(QStringLiteral("remoteSubscriptions"));
    const bool sns = subscriptionKind() == EntityKind::Subscription;
    m_table = new QTableWidget(0, 2, this);
    m_table->setObjectName(QStringLiteral("remoteSubscriptionTable"));
    m_table->setAccessibleName(tr("Subscriptions"));
    m_table->setHorizontalHeaderLabels({sns ? tr("Protocol and endpoint") : tr("Name"), tr("Address")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_table->setWordWrap(false);   // one line a subscription, elided
    // Three rows at least; the tab's room to spare goes to the list.
    m_table->setMinimumHeight(m_table->horizontalHeader()->sizeHint().height() + m_table->verticalHeader()->defaultSectionSize() * 3 +
                              2 * m_table->frameWidth());
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_endpoint = new QLineEdit(this);
    m_endpoint->setObjectName(QStringLiteral("remoteSubscriptionEndpoint"));
    m_add = new QPushButton(sns ? tr("Su&bscribe") : tr("Add su&bscription"), this);
    m_add->setObjectName(QStringLiteral("remoteSubscribe"));
    m_error = errorLabel(QStringLiteral("remoteSubscriptionError"), this);
    connect(m_add, &QPushButton::clicked, this, &RemoteSubscriptionsPanel::add);
    connect(m_endpoint, &QLineEdit::returnPressed, this, &RemoteSubscriptionsPanel::add);

    auto *form = new QFormLayout;
    if (sns) {
        m_protocol = new QComboBox(this);
        m_protocol->setObjectName(QStringLiteral("remoteSubscriptionProtocol"));
        m_protocol->addItems({QStringLiteral("sqs"), QStringLiteral("http"), QStringLiteral("https"), QStringLiteral("email"),
                              QStringLiteral("email-json"), QStringLiteral("sms"), QStringLiteral("lambda"),
                              QStringLiteral("firehose"), QStringLiteral("application")});
        addFormRow(form, tr("Pro&tocol:"), m_protocol);
        m_endpoint->setPlaceholderText(tr("a queue's ARN, a URL, an address…"));
        addFormRow(form, tr("&Endpoint:"), m_endpoint);
    } else {
        m_endpoint->setPlaceholderText(tr("the new subscription's name"));
        addFormRow(form, tr("Subscription &name:"), m_endpoint);
    }
    auto *addRow = new QHBoxLayout;
    addRow->addWidget(m_add);
    addRow->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_table, 1);   // the tab's room to spare goes to the list
    layout->addLayout(form);
    layout->addLayout(addRow);
    layout->addWidget(m_error);   // the whole width: a service's message can be long
    setBusy(false);
    list();
}

EntityKind RemoteSubscriptionsPanel::subscriptionKind() const
{
    return static_cast<EntityKind>(m_topic.kind) == EntityKind::ServiceBusTopic ? EntityKind::ServiceBusSubscription
                                                                                : EntityKind::Subscription;
}

void RemoteSubscriptionsPanel::setBusy(bool busy)
{
    const Capability create = m_connection->capability(subscriptionKind(), ConnectionFeature::Create);
    offerAction(m_add, create.offered && !busy, create.reason);
}

// A read, not tracked by the call bar: the page's actions stay as they are.
void RemoteSubscriptionsPanel::list()
{
    const QString parent = subscriptionKind() == EntityKind::ServiceBusSubscription ? m_topic.name : m_topic.address;
    m_connection->listEntities(subscriptionKind(), parent,
                               [panel = QPointer<RemoteSubscriptionsPanel>(this)](ConnectionResult<std::vector<EntitySummary>> result) {
                                   if (!panel)
                                       return;   // the page closed first
                                   showConnectionError(panel->m_error, result.ok ? QString() : result.error.text());
                                   if (!result.ok)
                                       return;
                                   QTableWidget *table = panel->m_table;
                                   table->setRowCount(static_cast<int>(result.value.size()));
                                   for (int row = 0; row < table->rowCount(); ++row) {
                                       const EntityRef &ref = result.value[static_cast<std::size_t>(row)].ref;
                                       auto *name = new QTableWidgetItem(ref.name);
                                       name->setToolTip(ref.name);
                                       name->setData(Qt::UserRole, ref.address);   // the ARN the Deliveries part reads
                                       table->setItem(row, 0, name);
                                       // SNS answers "PendingConfirmation" for an endpoint that has not confirmed yet.
                                       table->setItem(row, 1, new QTableWidgetItem(ref.address == QLatin1String("PendingConfirmation")
                                                                                       ? tr("pending confirmation")
                                                                                       : ref.address));
                                   }
                               });
}

void RemoteSubscriptionsPanel::add()
{
    if (!m_add->isEnabled())
        return;
    const QString text = m_endpoint->text().trimmed();
    const bool sns = m_protocol != nullptr;
    EntityAttributes attributes;
    if (sns)
        attributes = {{QStringLiteral("Protocol"), m_protocol->currentText()}, {QStringLiteral("Endpoint"), text}};
    const QString parent = sns ? m_topic.address : m_topic.name;
    emit busyChanged(true);
    ConnectionCall *call = m_connection->createEntity(subscriptionKind(), sns ? QString() : text, parent, attributes,
                                                      [this](ConnectionResult<EntityRef> result) {
                                                          showConnectionError(m_error, result.ok ? QString() : result.error.text());
                                                          if (result.ok) {
                                                              m_endpoint->clear();
                                                              list();
                                                          }
                                                      });
    m_callBar->track(call, sns ? tr("Subscribing to %1…").arg(m_topic.name) : tr("Adding a subscription to %1…").arg(m_topic.name));
}

} // namespace relaydesk
