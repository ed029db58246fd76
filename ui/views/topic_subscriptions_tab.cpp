// SPDX-License-Identifier: MIT
#include "views/topic_subscriptions_tab.h"

#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "connections/embedded/embedded_broker.h"
#include "models/entity_tree_model.h"
#include "views/entity_actions.h"
#include "views/entity_dialogs.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QStandardItemModel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

constexpr int kArnRole = Qt::UserRole + 1;

// Enter or Return on the table opens the current row (a table has no activation on Enter of its own on every style).
class EnterFilter final : public QObject {
public:
    EnterFilter(QObject *parent, std::function<void()> open) : QObject(parent), m_open(std::move(open)) {}
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() != QEvent::KeyPress)
            return false;
        const int key = static_cast<QKeyEvent *>(event)->key();
        if (key != Qt::Key_Return && key != Qt::Key_Enter)
            return false;
        m_open();
        return true;
    }

private:
    std::function<void()> m_open;
};

} // namespace

TopicSubscriptionsTab::TopicSubscriptionsTab(EmbeddedBroker &host, EntityTreeModel &model, EntityActions &actions,
                                             const QString &topic, QWidget *parent)
    : QWidget(parent)
    , m_host(host)
    , m_model(model)
    , m_actions(actions)
    , m_topic(topic)
{
    setObjectName(QStringLiteral("topicSubscriptions"));
    m_rows = new QStandardItemModel(0, ColumnCount, this);
    m_rows->setHorizontalHeaderLabels({tr("Protocol"), tr("Endpoint"), tr("Status"), tr("Filter policy"),
                                       tr("Raw delivery")});
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("subscriptionsTable"));
    m_table->setAccessibleName(tr("Subscriptions"));
    m_table->setModel(m_rows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    m_table->setTabKeyNavigation(false);
    m_table->verticalHeader()->hide();
    m_table->setWordWrap(false);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setSectionResizeMode(EndpointColumn, QHeaderView::Stretch);
    m_table->horizontalHeader()->setSectionResizeMode(FilterColumn, QHeaderView::Stretch);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_table->setToolTip(tr("Double-click or press Enter to open the subscription"));

    auto *subscribe = new QToolButton(this);
    subscribe->setDefaultAction(actions.subscribe());
    subscribe->setToolButtonStyle(Qt::ToolButtonTextOnly);
    subscribe->setFocusPolicy(Qt::StrongFocus);
    m_unsubscribe = new QPushButton(tr("&Unsubscribe…"), this);
    m_unsubscribe->setObjectName(QStringLiteral("unsubscribe"));
    m_unsubscribe->setAccessibleName(tr("Unsubscribe"));
    m_unsubscribe->setEnabled(false);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("subscriptionsStatus"));
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(subscribe);
    buttons->addWidget(m_unsubscribe);
    buttons->addWidget(m_status, 1);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(buttons);
    layout->addWidget(m_table, 1);

    connect(m_unsubscribe, &QPushButton::clicked, this, &TopicSubscriptionsTab::confirmUnsubscribe);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex &index) { openRow(index.row()); });
    m_table->installEventFilter(new EnterFilter(this, [this] { openRow(m_table->currentIndex().row()); }));
    connect(m_table->selectionModel(), &QItemSelectionModel::selectionChanged, this,
            [this] { m_unsubscribe->setEnabled(m_table->selectionModel()->hasSelection()); });
    connect(&model, &EntityTreeModel::refreshed, this, &TopicSubscriptionsTab::refresh);
    connect(&host.engine(), &BrokerEngine::changesPublished, this, [this](const QList<EntityChange> &changes) {
        for (const EntityChange &change : changes)
            if (change.entity == EntityChange::Entity::Subscription && change.kind == EntityChange::Kind::Changed)
                readAttributes(change.name);
    });
    refresh();
}

QString TopicSubscriptionsTab::arnAt(int row) const
{
    return m_rows->index(row, 0).data(kArnRole).toString();
}

void TopicSubscriptionsTab::refresh()
{
    const std::string topic = m_topic.toStdString();
    QStringList arns;
    for (const SubscriptionOverview &s : m_model.overview().subscriptions) {
        if (s.topicName != topic)
            continue;
        const QString arn = QString::fromStdString(s.arn);
        arns << arn;
        int row = 0;
        while (row < m_rows->rowCount() && arnAt(row) != arn)
            ++row;
        const bool added = row == m_rows->rowCount();
        if (added) {
            QList<QStandardItem *> items;
            for (int column = 0; column < ColumnCount; ++column)
                items << new QStandardItem;
            items[0]->setData(arn, kArnRole);
            m_rows->appendRow(items);
        }
        const auto set = [this, row](int column, const QString &text) {
            QStandardItem *item = m_rows->item(row, column);
            if (item->text() != text) {
                item->setText(text);
                item->setToolTip(text);
            }
        };
        set(ProtocolColumn, QString::fromStdString(s.protocol));
        set(EndpointColumn, QString::fromStdString(s.endpoint));
        set(StatusColumn, s.pending ? tr("pending") : tr("confirmed"));
        if (added)
            readAttributes(arn);
    }
    for (int row = m_rows->rowCount() - 1; row >= 0; --row)
        if (!arns.contains(arnAt(row)))
            m_rows->removeRow(row);
    if (arns.isEmpty())
        m_status->setText(tr("No subscriptions yet: subscribe a queue (sqs) or an HTTP endpoint with Subscribe…"));
    else if (m_status->text().startsWith(tr("No subscriptions")))
        m_status->clear();
}

void TopicSubscriptionsTab::readAttributes(const QString &arn)
{
    m_host.service().getSubscriptionAttributes(arn.toStdString(), this, [this, arn](Result<AttributeMap> attributes) {
        if (!attributes)
            return;
        for (int row = 0; row < m_rows->rowCount(); ++row) {
            if (arnAt(row) != arn)
                continue;
            const auto value = [&](const char *name) {
                const auto it = attributes->find(name);
                return it == attributes->end() ? QString() : QString::fromStdString(it->second);
            };
            const QString filter = value("FilterPolicy");
            m_rows->item(row, FilterColumn)->setText(filter.isEmpty() ? tr("none") : filter);
            m_rows->item(row, FilterColumn)->setToolTip(filter.isEmpty() ? tr("Every message") : filter);
            m_rows->item(row, RawColumn)->setText(value("RawMessageDelivery") == QLatin1String("true") ? tr("raw")
                                                                                                  : tr("envelope"));
        }
    });
}

void TopicSubscriptionsTab::openRow(int row)
{
    if (row < 0 || row >= m_rows->rowCount())
        return;
    m_actions.requestOpen(LocalEntity{EntityChange::Entity::Subscription, arnAt(row)});
}

void TopicSubscriptionsTab::confirmUnsubscribe()
{
    const int row = m_table->currentIndex().row();
    if (row < 0)
        return;
    const QString endpoint = m_rows->item(row, EndpointColumn)->text();
    if (QMessageBox::question(this, tr("Unsubscribe"),
                              tr("Unsubscribe %1 from %2? It receives no more messages of the topic.").arg(endpoint, m_topic)) ==
        QMessageBox::Yes)
        unsubscribe(arnAt(row));
}

void TopicSubscriptionsTab::unsubscribe(const QString &arn)
{
    m_host.service().unsubscribe(arn.toStdString(), this, [this, arn](Status status) {
        m_status->setText(status ? tr("Unsubscribed %1").arg(arn)
                                 : tr("Unsubscribe refused: %1").arg(brokerErrorText(status.error())));
    });
}

} // namespace relaydesk
