// SPDX-License-Identifier: MIT
#include "views/entity_overview_tab.h"

#include "widgets/flow_layout.h"

#include "models/entity_tree_model.h"
#include "broker/broker_identity.h"
#include "connections/embedded/embedded_broker.h"
#include "views/connection_help.h"
#include "views/entity_actions.h"
#include "views/zaqar_overview.h"

#include <algorithm>

#include <QAction>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QToolButton>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

using Entity = EntityChange::Entity;

QToolButton *buttonFor(QAction *action, QWidget *parent)
{
    auto *button = new QToolButton(parent);
    button->setDefaultAction(action);
    button->setToolButtonStyle(Qt::ToolButtonTextOnly);
    return button;
}

} // namespace

EntityOverviewTab::EntityOverviewTab(EmbeddedBroker &host, EntityTreeModel &model, EntityActions &actions,
                                     const LocalEntity &ref, Content content, QWidget *parent)
    : QWidget(parent)
    , m_host(host)
    , m_model(model)
    , m_ref(ref)
    , m_content(content)
{
    auto *layout = new QVBoxLayout(this);
    if (content == Content::Facts) {
        auto *buttons = new FlowLayout(nullptr, 6); // wraps rather than widen the page
        switch (ref.kind) {
        case Entity::Queue:
            buttons->addWidget(buttonFor(actions.send(), this));
            buttons->addWidget(buttonFor(actions.purge(), this));
            buttons->addWidget(buttonFor(actions.moveDeadLetters(), this));
            break;
        case Entity::Topic:
            buttons->addWidget(buttonFor(actions.publish(), this));
            buttons->addWidget(buttonFor(actions.subscribe(), this));
            break;
        case Entity::Subscription:
            break;
        }
        buttons->addWidget(buttonFor(actions.deleteEntity(), this));
        layout->addLayout(buttons);
    }
    m_form = new QFormLayout;
    m_form->setFieldGrowthPolicy(QFormLayout::ExpandingFieldsGrow);
    m_form->setRowWrapPolicy(QFormLayout::WrapLongRows); // a long identifier goes below its label, not past the page
    layout->addLayout(m_form);
    layout->addStretch(1);
    connect(&model, &EntityTreeModel::refreshed, this, &EntityOverviewTab::refresh);
    refresh();
}

void EntityOverviewTab::addRow(const QString &label, const QString &value)
{
    m_rows.append({label, value});
}

void EntityOverviewTab::showRows()
{
    if (m_rows == m_shown)
        return; // unchanged: keep the labels (and any text selected in them)
    m_shown = m_rows;
    while (m_form->rowCount() > 0)
        m_form->removeRow(0);
    for (const auto &[label, value] : std::as_const(m_rows))
        showRow(label, value);
}

void EntityOverviewTab::showRow(const QString &label, const QString &value)
{
    auto *text = new QLabel(value, this);
    text->setTextFormat(Qt::PlainText);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    // Identifiers must not break (several come as several lines); a value of
    // words — a sentence, a command line — wraps at its spaces rather than
    // widen the page (docs/window.md: no page scrolls sideways).
    if (value.contains(QLatin1Char(' '))) {
        text->setWordWrap(true);
        QSizePolicy policy = text->sizePolicy(); // the row's width first, more lines only when it does not hold the text
        policy.setHorizontalPolicy(QSizePolicy::Expanding);
        text->setSizePolicy(policy);
    } else {
        // An identifier longer than the page is cut at the page's edge, whole
        // in its tooltip and when selected (Ctrl+A, Ctrl+C).
        text->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
        text->setMinimumWidth(std::min(text->sizeHint().width(), text->fontMetrics().averageCharWidth() * 24));
        text->setToolTip(value);
    }
    auto *caption = new QLabel(label, this);
    caption->setBuddy(text);
    text->setAccessibleName(QString(label).remove(QLatin1Char(':')));
    m_form->addRow(caption, text);
}

void EntityOverviewTab::refresh()
{
    m_rows.clear();
    collectRows();
    showRows();
    readZaqarFacts();
}

// A Zaqar queue's facts are not in the tree's overview: read again on each
// refresh (at most one read at a time), shown when they come.
void EntityOverviewTab::readZaqarFacts()
{
    const QueueOverview *queue = m_ref.kind == Entity::Queue ? m_model.queue(m_ref.name) : nullptr;
    if (m_content != Content::Facts || !queue || !queue->zaqar || m_readingZaqar)
        return;
    m_readingZaqar = true;
    zaqar_queue_calls::readFacts(m_host.service(), m_ref.name.toStdString(), this,
                                 [this](Result<std::optional<ZaqarQueueFacts>> facts) {
                                     m_readingZaqar = false;
                                     if (!facts || !*facts)
                                         return;
                                     m_zaqar = std::move(*facts);
                                     m_rows.clear();
                                     collectRows();
                                     showRows();
                                 });
}

void EntityOverviewTab::collectRows()
{
    const BrokerIdentity &identity = m_host.identity();
    const EntityOverview &overview = m_model.overview();
    const std::string name = m_ref.name.toStdString();
    if (m_content == Content::Sources) {
        QStringList sources;
        for (const QueueOverview &q : overview.queues)
            if (q.deadLetterQueue && *q.deadLetterQueue == name)
                sources << QString::fromStdString(q.name);
        addRow(tr("Dead letters come from:"), sources.isEmpty() ? tr("no queue") : sources.join(QStringLiteral("\n")));
        return;
    }
    switch (m_ref.kind) {
    case Entity::Queue: {
        const QueueOverview *queue = m_model.queue(m_ref.name);
        if (queue && queue->zaqar) {
            m_rows = zaqarOverviewRows(m_host.endpointUrl(), m_ref.name, queue, m_zaqar);
            return;
        }
        addRow(tr("URL:"), QString::fromStdString(identity.queueUrl(name)));
        addRow(tr("ARN:"), QString::fromStdString(identity.queueArn(name)));
        if (!queue)
            return;
        addRow(tr("Type:"), queue->fifo ? tr("FIFO (first in, first out; exactly once)") : tr("Standard"));
        const QLocale locale;
        addRow(tr("Messages:"), tr("%1 available, %2 in flight, %3 delayed, %4 scheduled")
                                    .arg(locale.toString(queue->counts.available), locale.toString(queue->counts.inFlight),
                                         locale.toString(queue->counts.delayed), locale.toString(queue->counts.scheduled)));
        addRow(tr("Dead letters go to:"), queue->deadLetterQueue ? QString::fromStdString(*queue->deadLetterQueue)
                                                                 : tr("nowhere (no redrive policy)"));
        if (queue->isDeadLetterQueue)
            addRow(tr("Dead-lettered here:"), locale.toString(queue->counts.deadLettered));
        return;
    }
    case Entity::Topic: {
        addRow(tr("ARN:"), QString::fromStdString(identity.topicArn(name)));
        int count = 0;
        for (const SubscriptionOverview &s : overview.subscriptions)
            count += s.topicName == name ? 1 : 0;
        addRow(tr("Subscriptions:"), QLocale().toString(count));
        addRow(tr("Publish from code:"),
               awsCliLine(m_host.endpointUrl(), QString::fromStdString(identity.region),
                          QStringLiteral("sns publish --topic-arn %1 --message hello")
                              .arg(QString::fromStdString(identity.topicArn(name)))));
        return;
    }
    case Entity::Subscription: {
        addRow(tr("ARN:"), m_ref.name);
        if (const SubscriptionOverview *s = m_model.subscription(m_ref.name)) {
            addRow(tr("Topic:"), QString::fromStdString(s->topicName));
            addRow(tr("Protocol:"), QString::fromStdString(s->protocol));
            addRow(tr("Endpoint:"), QString::fromStdString(s->endpoint));
            addRow(tr("Status:"), s->pending ? tr("waiting for confirmation") : tr("confirmed"));
            if (s->protocol != "sqs") {
                QString deliveries = tr("%1 delivered · %2 pending")
                                         .arg(QLocale().toString(s->delivered), QLocale().toString(s->pendingDeliveries));
                if (!s->lastOutcome.empty())
                    deliveries += s->lastHttpStatus ? tr(" · last attempt: %1 (HTTP %2)")
                                                          .arg(QString::fromStdString(s->lastOutcome))
                                                          .arg(*s->lastHttpStatus)
                                                    : tr(" · last attempt: %1").arg(QString::fromStdString(s->lastOutcome));
                addRow(tr("Deliveries:"), deliveries);
            }
        }
        return;
    }
    }
}

} // namespace relaydesk
