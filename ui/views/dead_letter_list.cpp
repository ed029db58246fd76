// SPDX-License-Identifier: MIT
#include "views/dead_letter_list.h"

#include <QLocale>
#include <QStyle>

namespace relaydesk {

DeadLetterList::DeadLetterList(QWidget *parent) : QListWidget(parent)
{
    setObjectName(QStringLiteral("deadLetterList"));
    setAccessibleName(tr("Dead letters"));
    setSelectionMode(QAbstractItemView::SingleSelection);
    setUniformItemSizes(true);
    connect(this, &QListWidget::itemClicked, this, &DeadLetterList::choose);
    connect(this, &QListWidget::itemActivated, this, &DeadLetterList::choose);
    showMetrics({});
}

void DeadLetterList::showMetrics(const MetricsSnapshot &snapshot)
{
    struct Entry {
        EntityChange::Entity kind;
        QString name;
        QString text;
    };
    const QLocale locale;
    std::vector<Entry> entries;
    for (const QueueMetrics &queue : snapshot.queues) {
        if (queue.depths.deadLettered > 0) {
            const QString name = QString::fromStdString(queue.name);
            const std::int64_t held = queue.depths.deadLettered;
            entries.push_back({EntityChange::Entity::Queue, name,
                               (held == 1 ? tr("Queue %1 holds %2 dead letter") : tr("Queue %1 holds %2 dead letters"))
                                   .arg(name, locale.toString(qint64(held)))});
        }
    }
    for (const TopicMetrics &topic : snapshot.topics) {
        const std::int64_t deadLettered = topic[TopicCounter::DeadLettered].total;
        if (deadLettered > 0) {
            const QString name = QString::fromStdString(topic.name);
            entries.push_back({EntityChange::Entity::Topic, name,
                               (deadLettered == 1 ? tr("Topic %1: %2 delivery dead-lettered since the broker started")
                                                  : tr("Topic %1: %2 deliveries dead-lettered since the broker started"))
                                   .arg(name, locale.toString(qint64(deadLettered)))});
        }
    }
    QStringList texts;
    for (const Entry &entry : entries)
        texts << entry.text;
    if (texts == m_shown && count() > 0)
        return;
    m_shown = texts;
    const QString selected = currentItem() ? currentItem()->data(EntityNameRole).toString() : QString();
    clear();
    if (entries.empty()) {
        auto *none = new QListWidgetItem(tr("No dead letters"), this);
        none->setFlags(Qt::ItemIsEnabled);
        return;
    }
    const QIcon warning = style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const Entry &entry : entries) {
        auto *item = new QListWidgetItem(warning, entry.text, this);
        item->setData(EntityKindRole, int(entry.kind));
        item->setData(EntityNameRole, entry.name);
        item->setToolTip(tr("Click to select it in the tree"));
        if (entry.name == selected)
            setCurrentItem(item);
    }
}

void DeadLetterList::choose(QListWidgetItem *item)
{
    if (!item || item->data(EntityNameRole).toString().isEmpty())
        return;
    emit entityChosen(LocalEntity{EntityChange::Entity(item->data(EntityKindRole).toInt()),
                                item->data(EntityNameRole).toString()});
}

} // namespace relaydesk
