// SPDX-License-Identifier: MIT
#include "views/entity_tree_panel.h"

#include "models/entity_tree_model.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSortFilterProxyModel>
#include <QTreeView>
#include <QVBoxLayout>

namespace relaydesk {

EntityTreePanel::EntityTreePanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("entityTreePanel"));
    m_filter = new QLineEdit(this);
    m_filter->setObjectName(QStringLiteral("entityFilter"));
    m_filter->setPlaceholderText(tr("Filter (Ctrl+F)"));
    m_filter->setAccessibleName(tr("Filter topics and queues"));
    m_filter->setClearButtonEnabled(true);

    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setRecursiveFilteringEnabled(true);
    m_proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
    m_proxy->setFilterKeyColumn(EntityTreeModel::NameColumn);
    connect(m_filter, &QLineEdit::textChanged, this, &EntityTreePanel::applyFilter);

    m_tree = new QTreeView(this);
    m_tree->setObjectName(QStringLiteral("entityTree"));
    m_tree->setAccessibleName(tr("Topics and queues"));
    m_tree->setModel(m_proxy);
    m_tree->setUniformRowHeights(true);
    m_tree->setAllColumnsShowFocus(true);
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setIndentation(14);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setMinimumSectionSize(28);
    connect(m_tree->header(), &QHeaderView::sectionResized, this, [this](int column) {
        if (column != EntityTreeModel::NameColumn)
            keepRoomForNames();
    });
    // Queued: when the current row is removed, the view first moves to a
    // neighbour; by the time this runs entityRemoved has cleared the
    // selection, so a deleted entity's page closes instead of jumping on.
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this] { QMetaObject::invokeMethod(this, [this] { onCurrentChanged(m_tree->currentIndex()); },
                                               Qt::QueuedConnection); });
    connect(m_tree, &QAbstractItemView::activated, this, [this](const QModelIndex &index) {
        const LocalEntity ref = qvariant_cast<LocalEntity>(index.siblingAtColumn(0).data(EntityTreeModel::EntityRefRole));
        if (index.siblingAtColumn(0).data(EntityTreeModel::StatusRole).toBool()) {
            activateStatusRow(index.siblingAtColumn(0));
        } else if (!ref.isNull()) {
            onCurrentChanged(index);
            emit entityOpened(ref);
        } else if (m_tree->model()->hasChildren(index.siblingAtColumn(0))) {
            m_tree->setExpanded(index.siblingAtColumn(0), !m_tree->isExpanded(index.siblingAtColumn(0)));
        }
    });
    // Expanding a connection not listed yet lists it (a view may not ask the model itself).
    connect(m_tree, &QTreeView::expanded, this, [this](const QModelIndex &index) {
        if (m_tree->model()->canFetchMore(index))
            m_tree->model()->fetchMore(index);
    });
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this](const QPoint &position) {
        const QModelIndex at = m_tree->indexAt(position);
        if (!at.isValid())
            return;
        LocalEntity ref = qvariant_cast<LocalEntity>(at.siblingAtColumn(0).data(EntityTreeModel::EntityRefRole));
        const QModelIndex source = m_proxy->mapToSource(at.siblingAtColumn(0));
        if (const QString id = source.data(EntityTreeModel::ConnectionIdRole).toString(); !id.isEmpty()) {
            emit connectionMenuRequested(id, m_tree->viewport()->mapToGlobal(position));
            return;
        }
        // The Service Bus group: a null ref marked Service Bus (its own New… actions).
        if (ref.isNull() && m_model && source == m_model->serviceBusGroup())
            ref.serviceBus = true;
        const bool queues = m_model && source.isValid() &&
                            (source == m_model->queuesGroup() || source.parent() == m_model->queuesGroup());
        emit contextMenuRequested(ref, queues ? EntityChange::Entity::Queue : EntityChange::Entity::Topic,
                                  m_tree->viewport()->mapToGlobal(position));
    });

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    layout->addWidget(m_filter);
    layout->addWidget(m_tree, 1);
}

void EntityTreePanel::setModel(EntityTreeModel *model)
{
    m_model = model;
    m_proxy->setSourceModel(model);
    m_current = {};
    if (!model)
        return;
    QHeaderView *header = m_tree->header();
    header->setSectionResizeMode(EntityTreeModel::NameColumn, QHeaderView::Stretch);
    for (int column = EntityTreeModel::AvailableColumn; column < EntityTreeModel::ColumnCount; ++column)
        header->setSectionResizeMode(column, QHeaderView::ResizeToContents);
    if (!m_headerState.isEmpty())
        header->restoreState(m_headerState);
    header->setSectionResizeMode(EntityTreeModel::NameColumn, QHeaderView::Stretch); // whatever was saved
    expandOpen();
    fitColumns();
    // Every change of rows or counts: spans, hidden columns and the room for names follow.
    connect(model, &EntityTreeModel::refreshed, this, &EntityTreePanel::fitColumns);
    connect(m_proxy, &QAbstractItemModel::rowsInserted, this, &EntityTreePanel::fitColumns, Qt::QueuedConnection);
    // QTreeView keeps a spanned row's index after the row is gone (invalid,
    // never dropped): unspan rows before they go, or a connection listed
    // again and again makes every later change of rows slower.
    connect(m_proxy, &QAbstractItemModel::rowsAboutToBeRemoved, this,
            [this](const QModelIndex &parent, int first, int last) {
                for (int row = first; row <= last; ++row)
                    if (m_tree->isFirstColumnSpanned(row, parent))
                        m_tree->setFirstColumnSpanned(row, parent, false);
            });
    // New topics show their subscriptions; groups stay open.
    connect(model, &QAbstractItemModel::rowsInserted, m_tree, [this](const QModelIndex &parent) {
        m_tree->expand(m_proxy->mapFromSource(parent));
    });
    connect(model, &EntityTreeModel::entityRemoved, this, [this](const LocalEntity &ref) {
        if (ref == m_current) {
            m_tree->selectionModel()->clear();
            m_current = {};
            emit currentEntityChanged(m_current);
        }
    });
}

void EntityTreePanel::applyFilter(const QString &text)
{
    if (!m_filtering && !text.isEmpty() && m_model) {
        m_filtering = true;
        m_beforeFilter = m_current;
        m_collapsedBeforeFilter.clear();
        const auto remember = [this](const QModelIndex &source) {
            if (m_model->hasChildren(source) && !m_tree->isExpanded(m_proxy->mapFromSource(source)))
                m_collapsedBeforeFilter << QPersistentModelIndex(source);
        };
        const QModelIndex local = m_model->localConnection();
        for (int group = 0; group < m_model->rowCount(local); ++group) {
            const QModelIndex groupIndex = m_model->index(group, 0, local);
            remember(groupIndex);
            for (int row = 0; row < m_model->rowCount(groupIndex); ++row)
                remember(m_model->index(row, 0, groupIndex));
        }
    }
    const LocalEntity kept = m_current;
    m_proxy->setFilterFixedString(text);
    LocalEntity wanted = kept;
    if (text.isEmpty() && m_filtering) {
        m_filtering = false;
        expandOpen();
        for (const QPersistentModelIndex &source : std::as_const(m_collapsedBeforeFilter))
            if (source.isValid())
                m_tree->collapse(m_proxy->mapFromSource(source));
        m_collapsedBeforeFilter.clear();
        if (wanted.isNull())
            wanted = m_beforeFilter;
        m_beforeFilter = {};
    } else if (!text.isEmpty()) {
        expandOpen();
    }
    const QModelIndex index = wanted.isNull() || !m_model ? QModelIndex() : m_proxy->mapFromSource(m_model->indexOf(wanted));
    if (index.isValid()) {
        // The current row stays (or comes back); the queued currentChanged then finds it unchanged.
        m_tree->selectionModel()->setCurrentIndex(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
        m_tree->scrollTo(index);
        onCurrentChanged(index);
    } else if (!kept.isNull()) {
        m_tree->selectionModel()->clear(); // the filter hides it: its page closes
        m_current = {};
        emit currentEntityChanged(m_current);
    }
}

LocalEntity EntityTreePanel::currentEntity() const { return m_current; }

bool EntityTreePanel::selectEntity(const LocalEntity &ref)
{
    if (!m_model)
        return false;
    const QModelIndex index = m_proxy->mapFromSource(m_model->indexOf(ref));
    if (!index.isValid())
        return false;
    m_tree->setCurrentIndex(index);
    m_tree->scrollTo(index);
    onCurrentChanged(index);
    return true;
}

void EntityTreePanel::selectNothing()
{
    m_tree->selectionModel()->clear(); // current and selection: Del and the page's actions have no target
    onCurrentChanged(QModelIndex());
}

void EntityTreePanel::expandOpen()
{
    if (!m_model)
        return;
    m_tree->expandRecursively(m_proxy->mapFromSource(m_model->localConnection()));
    for (int row = 1; row < m_model->rowCount(); ++row) {
        const QModelIndex connection = m_model->index(row, 0);
        if (!m_model->canFetchMore(connection) && m_model->rowCount(connection) > 0)
            m_tree->expand(m_proxy->mapFromSource(connection));
    }
}

void EntityTreePanel::activateStatusRow(const QModelIndex &status)
{
    const QModelIndex connection = m_proxy->mapToSource(status).parent();
    if (status.data(Qt::DecorationRole).isNull())
        m_model->cancelLoading(connection);   // "Loading…": Enter cancels
    else
        m_model->reloadConnection(connection); // the error: Enter tries again
}

bool EntityTreePanel::selectRemote(const RemoteEntity &entity)
{
    const QModelIndex index = m_model ? m_proxy->mapFromSource(m_model->indexOfRemote(entity)) : QModelIndex();
    if (!index.isValid())
        return false;
    m_tree->setCurrentIndex(index);
    onCurrentChanged(index);
    return true;
}

void EntityTreePanel::onCurrentChanged(const QModelIndex &current)
{
    const RemoteEntity remote = qvariant_cast<RemoteEntity>(current.siblingAtColumn(0).data(EntityTreeModel::RemoteEntityRole));
    const bool wasRemote = !m_remote.isNull();
    if (!remote.isNull()) {
        if (remote == m_remote)
            return;
        m_remote = remote;
        m_current = {};
        emit remoteEntityChanged(remote);
        return;
    }
    m_remote = {};
    const LocalEntity ref = qvariant_cast<LocalEntity>(current.siblingAtColumn(0).data(EntityTreeModel::EntityRefRole));
    if (ref == m_current && !wasRemote)
        return;
    m_current = ref;
    emit currentEntityChanged(ref);
}

QByteArray EntityTreePanel::saveHeaderState() const
{
    return m_model ? m_tree->header()->saveState() : m_headerState;
}

void EntityTreePanel::restoreHeaderState(const QByteArray &state)
{
    m_headerState = state; // applied when a model (with its columns) arrives
    if (m_model && !state.isEmpty()) {
        m_tree->header()->restoreState(state);
        m_tree->header()->setSectionResizeMode(EntityTreeModel::NameColumn, QHeaderView::Stretch);
        fitColumns();
    }
}

} // namespace relaydesk
