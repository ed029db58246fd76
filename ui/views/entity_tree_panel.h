// SPDX-License-Identifier: MIT
#pragma once

#include "models/entity_ref.h"
#include "models/remote_entity.h"

#include <QList>
#include <QPersistentModelIndex>
#include <QWidget>

class QLineEdit;
class QModelIndex;
class QSortFilterProxyModel;
class QTreeView;

namespace relaydesk {

class EntityTreeModel;

// The entity dock's content: a filter box over the entity tree (recursive:
// a subscription that matches keeps its topic), the tree with its count
// columns, the current entity and context menus. The selection is kept
// across the model's in-place updates; when the selected entity leaves,
// the current entity becomes null.
//
// Ownership: borrows the model (null: an empty tree). Thread: GUI.
class EntityTreePanel final : public QWidget {
    Q_OBJECT
public:
    explicit EntityTreePanel(QWidget *parent = nullptr);

    void setModel(EntityTreeModel *model);
    LocalEntity currentEntity() const;
    // Selects `ref` (and shows it); false when it is not in the tree (yet).
    bool selectEntity(const LocalEntity &ref);
    // Selects another connection's entity (listed already); false when it is not in the tree.
    bool selectRemote(const RemoteEntity &entity);
    // Selects nothing: the window shows the dashboard.
    void selectNothing();
    QLineEdit *filterEdit() const { return m_filter; }
    QTreeView *treeView() const { return m_tree; }
    // Header layout (column widths) for QSettings.
    QByteArray saveHeaderState() const;
    void restoreHeaderState(const QByteArray &state);

signals:
    void currentEntityChanged(const relaydesk::LocalEntity &ref);
    // Enter (or a double click) on an entity's row: its page should take the
    // keyboard. On a group row Enter folds or unfolds it instead.
    void entityOpened(const relaydesk::LocalEntity &ref);
    // Right click or the menu key on a node (`ref` null on a group row:
    // `group` is then the kind of that group; the Service Bus group: a null
    // ref with serviceBus set).
    void contextMenuRequested(const relaydesk::LocalEntity &ref, relaydesk::EntityChange::Entity group,
                              const QPoint &globalPosition);

    // The current row is another connection's entity (its page replaces the current entity's).
    void remoteEntityChanged(const relaydesk::RemoteEntity &entity);
    // Right click or the menu key on a row of a connection other than This computer.
    void connectionMenuRequested(const QString &connectionId, const QPoint &globalPosition);

private:
    // Expands This computer's rows and the connections already listed
    // (expanding one not listed yet would list it).
    void expandOpen();
    // Enter on a "Loading…" row cancels the listing; on an error row lists again.
    void activateStatusRow(const QModelIndex &status);
    void onCurrentChanged(const QModelIndex &current);
    // Filtering keeps the selected entity (and so its page) unless the
    // filter hides it; clearing the filter brings back the selection and
    // the expansion from before filtering.
    void applyFilter(const QString &text);
    // The Name column comes before the counts (entity_tree_panel_columns.cpp):
    // rows without counts (groups, topics, subscriptions) span the whole
    // width, a count column empty on every row is hidden until a count
    // arrives, and the panel is never narrower than the shown count columns
    // plus room for the widest queue name (at least about 20 characters, at
    // most about 32).
    void fitColumns();
    void keepRoomForNames();
    // Spans the rows under `parent` (proxy) that have no counts; the widest
    // queue row's name (with its indentation and icon), and which count
    // columns show a count somewhere.
    int spanRowsWithoutCounts(const QModelIndex &parent, int depth, QList<bool> &used);

    EntityTreeModel *m_model = nullptr;
    QLineEdit *m_filter = nullptr;
    QTreeView *m_tree = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    LocalEntity m_current;
    RemoteEntity m_remote;
    QByteArray m_headerState;
    bool m_filtering = false;
    LocalEntity m_beforeFilter;
    QList<QPersistentModelIndex> m_collapsedBeforeFilter; // source model, column 0
    int m_widestName = 0; // the widest queue row's name, as fitColumns() last measured it
};

} // namespace relaydesk
