// SPDX-License-Identifier: MIT
// The entity tree's columns: names first (docs/window.md "The parts of the window").
#include "views/entity_tree_panel.h"

#include "models/entity_tree_model.h"

#include <QHeaderView>
#include <QLayout>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTreeView>

#include <algorithm>

namespace relaydesk {

int EntityTreePanel::spanRowsWithoutCounts(const QModelIndex &parent, int depth, QList<bool> &used)
{
    int widest = 0;
    const QFontMetrics metrics = m_tree->fontMetrics();
    for (int row = 0; row < m_proxy->rowCount(parent); ++row) {
        const QModelIndex name = m_proxy->index(row, EntityTreeModel::NameColumn, parent);
        const LocalEntity ref = qvariant_cast<LocalEntity>(name.data(EntityTreeModel::EntityRefRole));
        const bool counts = !ref.isNull() && ref.kind == EntityChange::Entity::Queue;
        if (m_tree->isFirstColumnSpanned(row, parent) == counts)
            m_tree->setFirstColumnSpanned(row, parent, !counts);
        if (counts) {
            // Indentation of its depth and the root's decoration, the icon, the cell's margins.
            widest = std::max(widest, metrics.horizontalAdvance(name.data().toString()) + (depth + 1) * m_tree->indentation()
                                          + m_tree->iconSize().width() + 3 * metrics.averageCharWidth());
            for (int column = EntityTreeModel::AvailableColumn; column < EntityTreeModel::ColumnCount; ++column)
                if (name.siblingAtColumn(column).data(EntityTreeModel::CountRole).toLongLong() != 0)
                    used[column] = true;
        }
        widest = std::max(widest, spanRowsWithoutCounts(name, depth + 1, used));
    }
    return widest;
}

void EntityTreePanel::fitColumns()
{
    if (!m_model)
        return;
    QList<bool> used(EntityTreeModel::ColumnCount, false);
    used[EntityTreeModel::AvailableColumn] = true; // always there: the column a reader looks for
    m_widestName = spanRowsWithoutCounts({}, 0, used);
    QHeaderView *header = m_tree->header();
    for (int column = EntityTreeModel::InFlightColumn; column < EntityTreeModel::ColumnCount; ++column)
        if (header->isSectionHidden(column) == used[column])
            header->setSectionHidden(column, !used[column]);
    keepRoomForNames();
}

void EntityTreePanel::keepRoomForNames()
{
    // At least about 20 characters (140 pixels at the usual font), the widest
    // queue name when longer, up to about 32 characters (longer ones elide in the middle).
    const int average = m_tree->fontMetrics().averageCharWidth();
    const int least = std::max(140, average * 20);
    const int nameRoom = std::clamp(m_widestName, least, std::max(least, average * 32));
    const QHeaderView *header = m_tree->header();
    int counts = 0;
    for (int column = EntityTreeModel::AvailableColumn; column < EntityTreeModel::ColumnCount; ++column)
        counts += header->isSectionHidden(column) ? 0 : header->sectionSize(column);
    const QMargins margins = layout() ? layout()->contentsMargins() : QMargins();
    const int chrome = 2 * m_tree->frameWidth() + m_tree->verticalScrollBar()->sizeHint().width() + margins.left() +
                       margins.right();
    const int wanted = counts + nameRoom + chrome;
    if (minimumWidth() != wanted)
        setMinimumWidth(wanted);
}

} // namespace relaydesk
