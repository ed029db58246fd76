// SPDX-License-Identifier: MIT
#include "views/entity_page.h"

#include "broker/queues/servicebus_queue.h"
#include "models/entity_ref.h"
#include "models/entity_tree_model.h"
#include "views/entity_actions.h"
#include "views/entity_page_tabs.h"
#include "views/servicebus_message_actions.h"
#include "views/servicebus_messages_page.h"
#include "widgets/flow_layout.h"

#include <QAction>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QSettings>
#include <QTabWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

using Entity = EntityChange::Entity;

QLabel *chip(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setObjectName(QStringLiteral("countChip"));
    label->setFrameShape(QFrame::StyledPanel);
    label->setBackgroundRole(QPalette::AlternateBase);
    label->setAutoFillBackground(true);
    label->setMargin(3);
    label->setTextFormat(Qt::PlainText);
    return label;
}

} // namespace

EntityPage::EntityPage(EmbeddedBroker &host, EntityTreeModel &model, EntityActions &actions, const LocalEntity &ref,
                       QWidget *parent)
    : QWidget(parent)
    , m_model(model)
    , m_ref(ref)
{
    setObjectName(QStringLiteral("entityPage"));
    auto *layout = new QVBoxLayout(this);
    // Name, kind and the copy buttons; they wrap rather than widen the page (large fonts).
    auto *title = new FlowLayout(nullptr, 10);
    // A subscription is named as in the tree ("sqs → orders"); its ARN is on the Overview.
    const QString shown = ref.kind == Entity::Subscription ? model.indexOf(ref).data().toString() : ref.name;
    auto *name = new QLabel(shown.isEmpty() ? ref.name : shown, this);
    name->setObjectName(QStringLiteral("entityName"));
    name->setTextFormat(Qt::PlainText);
    name->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont big = name->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    name->setFont(big);
    title->addWidget(name);
    m_kind = new QLabel(this);
    m_kind->setObjectName(QStringLiteral("entityKind"));
    m_kind->setForegroundRole(QPalette::PlaceholderText);
    title->addWidget(m_kind);
    auto addCopy = [&](QAction *action) {
        auto *button = new QToolButton(this);
        button->setDefaultAction(action);
        title->addWidget(button);
    };
    const bool serviceBus = actions.serviceBusKind(ref) != EntityActions::ServiceBusKind::None;
    if (ref.kind == Entity::Queue && !serviceBus)
        addCopy(actions.copyUrl());
    const QueueOverview *queue = ref.kind == Entity::Queue ? model.queue(ref.name) : nullptr;
    const bool zaqar = queue && queue->zaqar;   // its address is /v2/queues/NAME (Copy URL); no ARN
    if (!serviceBus && !zaqar)   // a Service Bus address is its name; the connection string is in the status bar
        addCopy(actions.copyArn());
    layout->addLayout(title);

    if (ref.kind == Entity::Queue) {
        auto *chips = new FlowLayout;
        for (int i = 0; i < 5; ++i) {
            m_chips << chip(this);
            chips->addWidget(m_chips.last());
        }
        layout->addLayout(chips);
    }
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("entityTabs"));
    m_tabs->setDocumentMode(true);
    // Its tab bar takes the focus, but AT-SPI reports the tab widget focused too: it needs a name.
    m_tabs->setAccessibleName(tr("Tabs of %1").arg(ref.name));
    addEntityTabs(*m_tabs, host, model, actions, ref);
    layout->addWidget(m_tabs, 1);
    // The tab last chosen on a page of this kind opens again (a link to a
    // given tab, e.g. Try a Policy's Deliveries, still wins: it comes after).
    const QString tabKey = QStringLiteral("entityPage/lastTab/") + (serviceBus ? QStringLiteral("servicebus-") : QString()) +
                           entityKindWord(ref.kind);
    const QString lastTab = QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).value(tabKey).toString();
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (m_tabs->tabText(i) == lastTab)
            m_tabs->setCurrentIndex(i);
    }
    // Only the shown tab sizes the page: a wide or tall tab elsewhere (a
    // stack takes the largest minimum of its pages) would otherwise push this
    // one's Apply bar out of sight.
    const auto sizeByCurrentTab = [this] {
        for (int i = 0; i < m_tabs->count(); ++i) {
            const auto policy = i == m_tabs->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored;
            m_tabs->widget(i)->setSizePolicy(policy, policy);
        }
    };
    sizeByCurrentTab();
    connect(m_tabs, &QTabWidget::currentChanged, this, [this, tabKey, sizeByCurrentTab](int index) {
        QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).setValue(tabKey, m_tabs->tabText(index));
        sizeByCurrentTab();
    });
    connect(&model, &EntityTreeModel::refreshed, this, &EntityPage::refreshHeader);
    refreshHeader();
}

void EntityPage::refreshHeader()
{
    switch (m_ref.kind) {
    case Entity::Queue: {
        const QueueOverview *queue = m_model.queue(m_ref.name);
        if (!queue)
            return;
        if (!queue->serviceBusDeadLetterOf.empty())
            m_kind->setText(tr("Service Bus · dead-letter sub-queue of %1")
                                .arg(QString::fromStdString(queue->serviceBusDeadLetterOf)));
        else if (!queue->serviceBusTopic.empty())
            m_kind->setText(tr("Service Bus · subscription of %1").arg(QString::fromStdString(queue->serviceBusTopic)));
        else if (queue->serviceBus)
            m_kind->setText(tr("Service Bus · queue"));
        else
            m_kind->setText(tr("queue · %1%2").arg(queue->zaqar ? tr("Zaqar") : queue->fifo ? tr("FIFO") : tr("standard"),
                                                   queue->isDeadLetterQueue ? tr(" · dead-letter queue") : QString()));
        const QLocale locale;
        // A Service Bus entity's dead letters are those its sub-queue holds.
        qint64 deadLettered = queue->counts.deadLettered;
        if (queue->serviceBus)
            if (const QueueOverview *sub = m_model.queue(m_ref.name + QString::fromLatin1(kServiceBusDeadLetterSuffix)))
                deadLettered = sub->counts.available + sub->counts.inFlight + sub->counts.delayed + sub->counts.scheduled;
        const QStringList texts{tr("● %1 available").arg(locale.toString(queue->counts.available)),
                                tr("◐ %1 in flight").arg(locale.toString(queue->counts.inFlight)),
                                tr("◷ %1 delayed").arg(locale.toString(queue->counts.delayed)),
                                tr("◇ %1 scheduled").arg(locale.toString(queue->counts.scheduled)),
                                tr("✗ %1 dead-lettered").arg(locale.toString(deadLettered))};
        for (int i = 0; i < m_chips.size(); ++i) {
            m_chips[i]->setText(texts[i]);
            m_chips[i]->setAccessibleName(texts[i].mid(2));
        }
        return;
    }
    case Entity::Topic:
        if (m_ref.serviceBus)
            return m_kind->setText(tr("Service Bus · topic"));
        m_kind->setText(m_ref.name.endsWith(QLatin1String(".fifo")) ? tr("topic · FIFO") : tr("topic · standard"));
        return;
    case Entity::Subscription:
        if (const SubscriptionOverview *s = m_model.subscription(m_ref.name))
            m_kind->setText(tr("subscription of %1%2")
                                .arg(QString::fromStdString(s->topicName), s->pending ? tr(" · pending") : QString()));
        return;
    }
}

void EntityPage::leave()
{
    for (ServiceBusMessagesPage *messages : findChildren<ServiceBusMessagesPage *>())
        messages->actions()->releaseSession();
}

} // namespace relaydesk
