// SPDX-License-Identifier: MIT
#pragma once

#include "models/entity_ref.h"
#include "host/serve_options.h"

#include <QMainWindow>
#include <QPointer>

#include <memory>

class QAction;
class QDockWidget;
class QLabel;
class QMenu;
class QStackedWidget;
class QToolButton;

namespace relaydesk {

class BrokerHost;
class ConnectionRegistry;
class RemoteEntityPage;
struct RemoteEntity;
class ClockToolbar;
class DashboardPage;
class DatabaseProblemDialog;
class EntityActions;
class EntityPage;
class EntityTreeModel;
class EntityTreePanel;
class MockEndpointsWindow;
class PolicyEditorWindow;
struct BrokerHostProblem;

// The Relaydesk window (docs/behaviour.md §8.4, docs/window.md). It owns a broker (BrokerHost:
// database, engine, delivery worker, HTTP port — shared with the user's own
// code) and shows it: the entity tree dock on the left, the page of the
// selected entity (or the dashboard) in the middle, the clock toolbar with
// the broker's time, the status bar with the endpoint URL (click to copy),
// the database file and the broker state. File opens, creates and
// remembers databases and imports/exports configurations; a database that
// cannot be used brings up DatabaseProblemDialog, never a crash and never a
// changed file. Layout, the open page and recent databases are remembered
// (QSettings "Relaydesk"/"Relaydesk").
//
// Ownership: owns the broker and every widget; stops the broker (after the
// pages and models that use it) when another database opens and on
// destruction. Thread: GUI.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;
    MainWindow(const MainWindow &) = delete;
    MainWindow &operator=(const MainWindow &) = delete;

    // Stops the running broker and starts one with `options` — the window
    // takes the next free port when the default one is taken and --port was
    // not given. On failure shows DatabaseProblemDialog (window-modal, not
    // blocking) and returns false; the window then runs without a broker.
    bool startBroker(const ServeOptions &options);
    // startBroker with the current options and another database file.
    bool openDatabase(const QString &path);

    BrokerHost *broker() const { return m_host.get(); }
    EntityTreeModel *entityModel() const { return m_model; }
    EntityTreePanel *entityPanel() const { return m_panel; }
    EntityActions *entityActions() const { return m_actions; }
    ClockToolbar *clockToolbar() const { return m_clock; }
    // The page of the selected entity; null when the dashboard shows.
    EntityPage *currentPage() const { return m_page; }
    // The connections after This computer, and the page of another connection's entity (null when none).
    ConnectionRegistry *connections() const { return m_connections; }
    RemoteEntityPage *remotePage() const { return m_remotePage; }
    DatabaseProblemDialog *problemDialog() const;
    QStringList recentDatabases() const;

    // Selects `ref` in the tree and shows its page on the tab whose
    // objectName is `tab` (when given); an entity not in the tree yet is
    // selected when it appears. EntityActions::requestOpen comes here.
    void openEntity(const LocalEntity &ref, const QString &tab = {});
    // File ▸ Import Configuration… of `path`: the Service Bus emulator's
    // Config.json when it has that shape (its queues and topics, all or
    // nothing), else the broker's own configuration (docs/window.md
    // "Service Bus"). Outcome in the status bar; a refusal in a message box.
    void importConfigurationFile(const QString &path);

    void saveSettings() const;
    void restoreSettings();
    // A restored geometry larger than the screen, or off it, is brought onto the available area.
    void fitIntoScreen();

signals:
    // A broker is ready at `endpointUrl` ("http://HOST:PORT").
    void brokerStarted(const QString &endpointUrl);

protected:
    void closeEvent(QCloseEvent *event) override;
    void showEvent(QShowEvent *event) override;
    void moveEvent(QMoveEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;

private:
    // main_window.cpp: frame, menus, toolbars, settings.
    void createMenus();
    void createToolbars();
    void createStatusBar();
    void showAbout();
    void showPolicyEditor();
    void showMockEndpoints();
    void showEntity(const LocalEntity &ref);
    // main_window_connections.cpp: the Connection menu, another connection's pages.
    void installConnections();
    void showRemote(const RemoteEntity &entity);
    void closeRemotePage();
    QMenu *connectionMenu(const QString &connectionId, QWidget *parent);
    void addConnection(const QString &editedId = {});
    void showWantedTab();
    void showBrokerState();
    void rebuildRecentMenu();
    // main_window_broker.cpp: the broker's lifetime and the File actions.
    void stopBroker();
    void showProblem(const QString &path, const BrokerHostProblem &problem);
    void addRecent(const QString &path);
    void chooseDatabaseToOpen();
    void chooseNewDatabase();
    void importConfiguration();
    bool importServiceBusConfig(const QString &path);
    void exportConfiguration();
    void onEntityRemoved(const LocalEntity &ref);

    ServeOptions m_options;
    std::unique_ptr<BrokerHost> m_host;
    EntityTreeModel *m_model = nullptr;  // owned; lives while m_host does
    EntityActions *m_actions = nullptr;
    EntityTreePanel *m_panel = nullptr;
    QDockWidget *m_entityDock = nullptr;
    ClockToolbar *m_clock = nullptr;
    QStackedWidget *m_pages = nullptr;
    DashboardPage *m_dashboard = nullptr;
    EntityPage *m_page = nullptr;
    ConnectionRegistry *m_connections = nullptr;   // owned (child)
    RemoteEntityPage *m_remotePage = nullptr;
    LocalEntity m_wantedEntity; // restored from the settings; selected once it is in the tree
    QString m_wantedTab;      // the tab openEntity asked for
    bool m_fitOnShow = false; // a restored geometry, checked against the screen again once the frame is known
    bool m_fitWhenFramed = false; // shown before the window manager's frame was known: checked again when it is
    QToolButton *m_endpoint = nullptr;
    QToolButton *m_serviceBus = nullptr;   // the Service Bus connection string, to copy
    QLabel *m_database = nullptr;
    QLabel *m_brokerState = nullptr;
    QMenu *m_recentMenu = nullptr;
    PolicyEditorWindow *m_policyEditor = nullptr;
    QAction *m_mockEndpointsAction = nullptr;           // enabled while a broker runs
    QAction *m_dashboardAction = nullptr;               // View ▸ Dashboard, the toolbar's Dashboard
    QPointer<MockEndpointsWindow> m_mockEndpoints;      // a dialog: deleted with the broker
};

} // namespace relaydesk
