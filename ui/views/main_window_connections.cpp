// SPDX-License-Identifier: MIT
// MainWindow's connections after This computer (docs/window.md "Connections"):
// the Connection menu, the tree's connection menu, another connection's page.
#include "dialogs/add_connection_dialog.h"
#include "models/connection_registry.h"
#include "models/entity_tree_model.h"
#include "models/remote_entity.h"
#include "connections/broker_connection.h"
#include "views/dashboard_page.h"
#include "views/entity_tree_panel.h"
#include "views/main_window.h"
#include "views/remote_create.h"
#include "views/remote_entity_page.h"
#include "views/remote_mocks_window.h"

#include <QAction>
#include <QMenu>
#include <QMenuBar>
#include <QStackedWidget>
#include <QStatusBar>
#include <QToolBar>
#include <QTreeView>

namespace relaydesk {

namespace {

// The connection of the tree's current row (empty: This computer or none).
QString currentConnection(EntityTreePanel *panel)
{
    return panel->treeView()->currentIndex().siblingAtColumn(0).data(EntityTreeModel::ConnectionIdRole).toString();
}

} // namespace

void MainWindow::installConnections()
{
    m_connections = new ConnectionRegistry(this);
    // First (before the model's own slot): a page on a connection about to be replaced closes.
    connect(m_connections, &ConnectionRegistry::changed, this, &MainWindow::closeRemotePage);
    connect(m_panel, &EntityTreePanel::remoteEntityChanged, this, &MainWindow::showRemote);
    connect(m_panel, &EntityTreePanel::connectionMenuRequested, this, [this](const QString &id, const QPoint &at) {
        QMenu *menu = connectionMenu(id, this);
        menu->setAttribute(Qt::WA_DeleteOnClose);
        menu->popup(at);
    });

    auto *add = new QAction(tr("&Add Connection…"), this);
    add->setObjectName(QStringLiteral("addConnectionAction"));
    add->setToolTip(tr("Add an AWS profile, another Relaydesk, a Service Bus namespace or a Zaqar endpoint to the tree"));
    connect(add, &QAction::triggered, this, [this] { addConnection(); });
    QMenu *menu = new QMenu(tr("&Connection"), this);
    menu->setObjectName(QStringLiteral("connectionMenu"));
    menu->setToolTipsVisible(true);   // a disabled action says why
    menuBar()->insertMenu(menuBar()->actions().value(2), menu);   // after File and Edit
    menu->addAction(add);
    connect(menu, &QMenu::aboutToShow, this, [this, menu, add] {
        menu->clear();
        menu->addAction(add);
        const QString id = currentConnection(m_panel);
        if (id.isEmpty())
            return;
        menu->addSeparator();
        QMenu *current = connectionMenu(id, menu);
        for (QAction *action : current->actions())
            menu->addAction(action);
    });
    if (auto *bar = findChild<QToolBar *>(QStringLiteral("entityToolbar"))) {
        bar->addAction(add);
        bar->widgetForAction(add)->setFocusPolicy(Qt::TabFocus);   // in the Tab chain, as the other toolbar buttons
    }
}

// Cancel or list again, Production, Edit, Remove — for connection `id`.
QMenu *MainWindow::connectionMenu(const QString &id, QWidget *parent)
{
    auto *menu = new QMenu(parent);
    const ConnectionEntry *entry = m_connections->find(id);
    if (!entry || !m_model)
        return menu;
    const QModelIndex row = m_model->connectionIndex(id);
    const bool loading = m_model->rowCount(row) == 1 && m_model->index(0, 0, row).data(EntityTreeModel::StatusRole).toBool() &&
                         m_model->index(0, 0, row).data(Qt::DecorationRole).isNull();
    if (loading)
        menu->addAction(tr("&Cancel Loading"), this, [this, id] { m_model->cancelLoading(m_model->connectionIndex(id)); })
            ->setObjectName(QStringLiteral("cancelLoadingAction"));
    else
        menu->addAction(tr("&List Again"), this, [this, id] { m_model->reloadConnection(m_model->connectionIndex(id)); })
            ->setObjectName(QStringLiteral("listAgainAction"));
    // New Queue… / New Topic… for each kind the connection can create at its top level.
    for (const EntityKind kind : entry->connection->entityKinds()) {
        if (kind == EntityKind::Subscription || kind == EntityKind::ServiceBusSubscription ||
            !entry->connection->capability(kind, ConnectionFeature::Create).offered)
            continue;
        // Queues take N, topics T: a connection has at most one kind of each.
        const QString text = kind == EntityKind::Topic             ? tr("New &Topic…")
                             : kind == EntityKind::ServiceBusTopic ? tr("New Service Bus &topic…")
                                                                   : tr("&New %1…").arg(remoteKindWord(static_cast<int>(kind)));
        QAction *create = menu->addAction(text);
        create->setObjectName(QStringLiteral("newRemoteEntityAction%1").arg(static_cast<int>(kind)));
        connect(create, &QAction::triggered, this, [this, id, kind] {
            if (const ConnectionEntry *current = m_connections->find(id))
                askAndCreateRemoteEntity(this, current->connection, kind, [this, id] {
                    if (m_model)
                        m_model->reloadConnection(m_model->connectionIndex(id));
                });
        });
    }
    // Mock Endpoints… where the connection has them (another Relaydesk); disabled with the reason elsewhere.
    const std::vector<EntityKind> kinds = entry->connection->entityKinds();
    const Capability mocks = entry->connection->capability(kinds.empty() ? EntityKind::Queue : kinds.front(),
                                                            ConnectionFeature::Mocks);
    QAction *mockEndpoints = menu->addAction(tr("&Mock Endpoints…"));
    mockEndpoints->setObjectName(QStringLiteral("remoteMocksAction"));
    mockEndpoints->setEnabled(mocks.offered);
    mockEndpoints->setToolTip(mocks.offered ? tr("The mock endpoints of %1 and what they received").arg(entry->name)
                                            : mocks.reason);
    menu->setToolTipsVisible(true);
    connect(mockEndpoints, &QAction::triggered, this, [this, id] {
        if (const ConnectionEntry *current = m_connections->find(id)) {
            auto *window = new RemoteMocksWindow(current->connection, current->name, current->production, this);
            window->setAttribute(Qt::WA_DeleteOnClose);
            window->show();
        }
    });
    menu->addSeparator();
    QAction *production = menu->addAction(tr("&Production"));
    production->setObjectName(QStringLiteral("productionAction"));
    production->setCheckable(true);
    production->setChecked(entry->production);
    production->setToolTip(tr("Purge and Delete ask for the entity's name to be typed; the connection is marked red"));
    connect(production, &QAction::toggled, this, [this, id](bool on) { m_connections->setProduction(id, on); });
    if (!entry->inAwsFiles) {
        menu->addAction(tr("&Edit Connection…"), this, [this, id] { addConnection(id); })
            ->setObjectName(QStringLiteral("editConnectionAction"));
        menu->addAction(tr("&Remove Connection"), this, [this, id] { m_connections->remove(id); })
            ->setObjectName(QStringLiteral("removeConnectionAction"));
    } else {
        QAction *remove = menu->addAction(tr("&Remove Connection"));
        remove->setEnabled(false);
        remove->setToolTip(tr("A profile of the AWS files: remove it from ~/.aws/config and ~/.aws/credentials"));
    }
    return menu;
}

void MainWindow::addConnection(const QString &editedId)
{
    auto *dialog = new AddConnectionDialog(m_connections->secrets().whereText(), this);
    if (!editedId.isEmpty())
        dialog->setSettings(m_connections->settingsOf(editedId));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->setApply([this](const ConnectionSettings &settings) { return m_connections->add(settings); });
    dialog->open();
}

void MainWindow::showRemote(const RemoteEntity &entity)
{
    showEntity({});   // This computer's page (if any) closes; the dashboard until the page is there
    const ConnectionEntry *entry = m_connections->find(entity.connectionId);
    if (!entry)
        return;
    m_remotePage = new RemoteEntityPage(entry->connection, entity, entry->name, entry->production, m_pages);
    connect(m_remotePage, &RemoteEntityPage::entityDeleted, this, [this, id = entity.connectionId] {
        if (m_model)
            m_model->reloadConnection(m_model->connectionIndex(id));
    });
    m_pages->addWidget(m_remotePage);
    m_pages->setCurrentWidget(m_remotePage);
    setWindowTitle(entry->production ? tr("Relaydesk — %1 — PRODUCTION").arg(entry->name)
                                     : tr("Relaydesk — %1").arg(entry->name));
}

void MainWindow::closeRemotePage()
{
    if (!m_remotePage)
        return;
    m_pages->removeWidget(m_remotePage);
    delete m_remotePage;   // now: it cancels its call while its connection is still there
    m_remotePage = nullptr;
    m_pages->setCurrentWidget(m_dashboard);
    showBrokerState();     // the title names the database again
}

} // namespace relaydesk
