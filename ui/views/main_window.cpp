// SPDX-License-Identifier: MIT
#include "views/main_window.h"

#include "dialogs/database_problem_dialog.h"
#include "dialogs/preferences_dialog.h"
#include "host/broker_host.h"
#include "models/entity_tree_model.h"
#include "models/preferences.h"
#include "models/ui_resources.h"
#include "policy_editor/policy_editor_window.h"
#include "views/clock_toolbar.h"
#include "views/connection_help.h"
#include "views/dashboard_page.h"
#include "views/entity_actions.h"
#include "views/entity_dialogs.h"
#include "views/entity_page.h"
#include "views/entity_tree_panel.h"
#include "views/mock_endpoints_window.h"
#include "views/template_policies_panel.h"
#include "views/window_placement.h"
#include "widgets/accessible_choice_button.h"
#include "widgets/accessible_combo_box.h"
#include "widgets/appearance.h"

#include <algorithm>
#include <utility>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QMoveEvent>
#include <QResizeEvent>
#include <QShowEvent>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>
#include <QToolBar>
#include <QToolButton>
#include <QUrl>
#include <QVBoxLayout>
#include <QTreeView>

namespace relaydesk {

namespace {

const char *const kGeometryKey = "mainWindow/geometry";
const char *const kStateKey = "mainWindow/state";
const char *const kTreeHeaderKey = "entityTree/header";
const char *const kEntityKey = "mainWindow/openEntity";
const char *const kRecentKey = "mainWindow/recentDatabases";
constexpr int kDockWidth = 380; // 30 % of the default 1280-pixel window

// The stack of pages, never sized by height-for-width (see the page scroll area).
class PageStack final : public QStackedWidget {
public:
    using QStackedWidget::QStackedWidget;
    bool hasHeightForWidth() const override { return false; }
};


} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    ensureUiResources();
    installAccessibleComboBoxes();
    installAccessibleChoiceButtons();
    applyTheme(themeFromKey(Preferences::load().theme));
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Relaydesk"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/relaydesk.svg")));

    m_actions = new EntityActions(this);
    connect(m_actions, &EntityActions::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 8000); });
    connect(m_actions, &EntityActions::openRequested, this, &MainWindow::openEntity);
    m_pages = new PageStack(this);
    m_pages->setObjectName(QStringLiteral("entityPages"));
    m_dashboard = new DashboardPage(*m_actions, m_pages);
    m_pages->addWidget(m_dashboard);
    // Only the page shown sizes the stack (it takes the largest minimum of its pages otherwise).
    connect(m_pages, &QStackedWidget::currentChanged, this, [this] {
        for (int i = 0; i < m_pages->count(); ++i) {
            const auto policy = i == m_pages->currentIndex() ? QSizePolicy::Preferred : QSizePolicy::Ignored;
            m_pages->widget(i)->setSizePolicy(policy, policy);
        }
    });
    connect(m_dashboard, &DashboardPage::entityChosen, this, [this](const LocalEntity &ref) {
        m_entityDock->show();
        if (!m_panel->selectEntity(ref))
            statusBar()->showMessage(tr("The %1 %2 is not in the tree (yet).").arg(entityKindWord(ref.kind), ref.name), 6000);
    });
    // The page fits the window it is given: a page wider or taller than the
    // space left beside the tree scrolls; it never grows the window or
    // squeezes the tree.
    auto *pageScroll = new QScrollArea(this);
    pageScroll->setFocusPolicy(Qt::NoFocus); // its fields are the Tab stops (scrolled into view); the area is none: AT-SPI read it as an unnamed stop
    pageScroll->setObjectName(QStringLiteral("entityPageScroll"));
    pageScroll->setFrameShape(QFrame::NoFrame);
    pageScroll->setWidgetResizable(true);
    // The stack sits in a plain column so the scroll area sizes it by its
    // minimum, not by the height its pages would like for the width (which
    // counts every page, shown or not, at its preferred height).
    auto *column = new QWidget(pageScroll);
    auto *columnLayout = new QVBoxLayout(column);
    columnLayout->setContentsMargins(0, 0, 0, 0);
    columnLayout->addWidget(m_pages);
    pageScroll->setWidget(column);
    setCentralWidget(pageScroll);

    m_entityDock = new QDockWidget(tr("Topics and Queues"), this);
    m_entityDock->setObjectName(QStringLiteral("entityDock"));
    m_entityDock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    m_entityDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);
    m_panel = new EntityTreePanel(m_entityDock);
    m_entityDock->setWidget(m_panel);
    addDockWidget(Qt::LeftDockWidgetArea, m_entityDock);
    resizeDocks({m_entityDock}, {kDockWidth}, Qt::Horizontal);   // 30 % of the default 1280-pixel window
    connect(m_panel, &EntityTreePanel::currentEntityChanged, this, &MainWindow::showEntity);
    connect(m_panel, &EntityTreePanel::entityOpened, this, [this](const LocalEntity &ref) {
        showEntity(ref);
        if (m_page && m_page->entity() == ref)
            m_page->tabs()->setFocus(Qt::OtherFocusReason);
    });
    connect(m_panel, &EntityTreePanel::contextMenuRequested, this,
            [this](const LocalEntity &ref, EntityChange::Entity group, const QPoint &at) {
                QMenu *menu = m_actions->contextMenu(ref, group, this);
                menu->setAttribute(Qt::WA_DeleteOnClose);
                menu->popup(at);
            });

    // Del on the tree deletes the selected entity (after asking): the same
    // action as Broker ▸ Delete…, whose shortcut is bound to the tree so
    // that Del in a text field stays a text edit.
    m_panel->treeView()->addAction(m_actions->deleteEntity());

    createToolbars();
    createMenus();
    installConnections();
    createStatusBar();
    resize(1280, 800);
    restoreSettings();
    showBrokerState();
}

MainWindow::~MainWindow() { stopBroker(); }

void MainWindow::createToolbars()
{
    QToolBar *entities = addToolBar(tr("Entities"));
    entities->setObjectName(QStringLiteral("entityToolbar"));
    // Back to the dashboard from any page (View ▸ Dashboard, Alt+Home).
    m_dashboardAction = new QAction(QIcon(QStringLiteral(":/icons/relaydesk.svg")), tr("&Dashboard"), this);
    m_dashboardAction->setObjectName(QStringLiteral("dashboardAction"));
    m_dashboardAction->setShortcut(QKeySequence(Qt::ALT | Qt::Key_Home));
    m_dashboardAction->setToolTip(tr("Show the dashboard (Alt+Home)"));
    connect(m_dashboardAction, &QAction::triggered, this, [this] { m_panel->selectNothing(); });
    entities->addAction(m_dashboardAction);
    auto *newButton = new QToolButton(entities);
    newButton->setText(tr("New"));
    newButton->setAccessibleName(tr("New"));
    newButton->setPopupMode(QToolButton::InstantPopup);
    newButton->setToolButtonStyle(Qt::ToolButtonTextOnly);
    auto *newMenu = new QMenu(newButton);
    newMenu->addAction(m_actions->newQueue());
    newMenu->addAction(m_actions->newTopic());
    newMenu->addAction(m_actions->subscribe());
    newMenu->addSeparator();
    newMenu->addAction(m_actions->newServiceBusQueue());
    newMenu->addAction(m_actions->newServiceBusTopic());
    newMenu->addAction(m_actions->newServiceBusSubscription());
    newButton->setMenu(newMenu);
    entities->addWidget(newButton);
    entities->addAction(m_actions->send());
    entities->addAction(m_actions->publish());
    entities->addAction(m_actions->purge());
    entities->setToolButtonStyle(Qt::ToolButtonTextOnly);

    m_clock = new ClockToolbar(this);
    addToolBar(m_clock);
    connect(m_clock, &ClockToolbar::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 6000); });
    connect(m_clock, &ClockToolbar::clockChanged, this, [this] {
        if (m_model)
            m_model->refresh(); // counts depend on the time
    });
    // Toolbar buttons are in the Tab chain (Qt leaves them out), after the menus.
    for (QToolBar *bar : {entities, static_cast<QToolBar *>(m_clock)})
        for (QToolButton *button : bar->findChildren<QToolButton *>())
            if (button->objectName() != QLatin1String("qt_toolbar_ext_button"))
                button->setFocusPolicy(Qt::TabFocus);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    QAction *newDatabase = file->addAction(tr("&New Database…"), this, &MainWindow::chooseNewDatabase);
    newDatabase->setShortcut(QKeySequence::New);
    newDatabase->setObjectName(QStringLiteral("newDatabaseAction"));
    QAction *openDatabaseAction = file->addAction(tr("&Open Database…"), this, &MainWindow::chooseDatabaseToOpen);
    openDatabaseAction->setShortcut(QKeySequence::Open);
    openDatabaseAction->setObjectName(QStringLiteral("openDatabaseAction"));
    m_recentMenu = file->addMenu(tr("Open &Recent"));
    m_recentMenu->setObjectName(QStringLiteral("recentMenu"));
    rebuildRecentMenu();
    file->addSeparator();
    QAction *import = file->addAction(tr("&Import Configuration…"), this, &MainWindow::importConfiguration);
    import->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_I));
    import->setObjectName(QStringLiteral("importConfigurationAction"));
    QAction *exportAction = file->addAction(tr("&Export Configuration…"), this, &MainWindow::exportConfiguration);
    exportAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_E));
    exportAction->setObjectName(QStringLiteral("exportConfigurationAction"));
    file->addSeparator();
    installTemplatePoliciesPanel(this, file);   // File ▸ Open Template… and its panel
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("editMenu"));
    edit->addAction(m_actions->copyUrl());
    edit->addAction(m_actions->copyArn());
    edit->addSeparator();
    QAction *find = edit->addAction(tr("&Find…"), this, [this] {
        m_entityDock->show();
        m_panel->filterEdit()->setFocus(Qt::ShortcutFocusReason);
        m_panel->filterEdit()->selectAll();
    });
    find->setShortcut(QKeySequence::Find);
    find->setObjectName(QStringLiteral("findAction"));
    edit->addSeparator();
    QAction *preferences = edit->addAction(tr("&Preferences…"), this, [this] {
        PreferencesDialog dialog(this);
        dialog.exec();
    });
    preferences->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Comma));
    preferences->setMenuRole(QAction::PreferencesRole);
    preferences->setObjectName(QStringLiteral("preferencesAction"));

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    view->addAction(m_dashboardAction);
    view->addSeparator();
    QAction *dock = m_entityDock->toggleViewAction();
    dock->setText(tr("&Topics and Queues"));
    dock->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_1));
    view->addAction(dock);
    QAction *clock = m_clock->toggleViewAction();
    clock->setText(tr("&Clock Toolbar"));
    view->addAction(clock);
    QAction *status = view->addAction(tr("&Status Bar"));
    status->setCheckable(true);
    status->setChecked(true);
    connect(status, &QAction::toggled, this, [this](bool on) { statusBar()->setVisible(on); });

    QMenu *broker = menuBar()->addMenu(tr("&Broker"));
    broker->setObjectName(QStringLiteral("brokerMenu"));
    broker->addAction(m_actions->newQueue());
    broker->addAction(m_actions->newTopic());
    broker->addAction(m_actions->subscribe());
    broker->addSeparator();
    broker->addAction(m_actions->send());
    broker->addAction(m_actions->publish());
    broker->addAction(m_actions->purge());
    broker->addAction(m_actions->moveDeadLetters());
    broker->addSeparator();
    broker->addAction(m_actions->deleteEntity());
    broker->addSeparator();
    QMenu *serviceBus = broker->addMenu(tr("Service &Bus"));
    serviceBus->setObjectName(QStringLiteral("serviceBusMenu"));
    serviceBus->addActions({m_actions->newServiceBusQueue(), m_actions->newServiceBusTopic(),
                            m_actions->newServiceBusSubscription(), m_actions->sendServiceBus()});
    broker->addSeparator();
    for (QAction *action : {m_clock->pauseAction(), m_clock->stepSecondAction(), m_clock->stepMinuteAction(),
                            m_clock->stepNextAction()})
        broker->addAction(action);
    // The clock's mode is one choice of three: radio items here (the same
    // exclusive actions as the toolbar's), reachable from the keyboard.
    QMenu *clockMode = broker->addMenu(tr("&Clock Mode"));
    clockMode->setObjectName(QStringLiteral("clockModeMenu"));
    clockMode->addActions({m_clock->realAction(), m_clock->warpAction(), m_clock->virtualAction()});

    QMenu *tools = menuBar()->addMenu(tr("&Tools"));
    tools->setObjectName(QStringLiteral("toolsMenu"));
    QAction *editor = tools->addAction(tr("Delivery &Policy Editor…"), this, &MainWindow::showPolicyEditor);
    editor->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_P));
    editor->setObjectName(QStringLiteral("policyEditorAction"));
    m_mockEndpointsAction = tools->addAction(tr("&Mock Endpoints…"), this, &MainWindow::showMockEndpoints);
    m_mockEndpointsAction->setShortcut(QKeySequence(Qt::CTRL | Qt::ALT | Qt::Key_M));
    m_mockEndpointsAction->setObjectName(QStringLiteral("mockEndpointsAction"));
    m_mockEndpointsAction->setEnabled(false);

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    QAction *about = help->addAction(tr("&About Relaydesk"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::createStatusBar()
{
    m_endpoint = new QToolButton(this);
    m_endpoint->setObjectName(QStringLiteral("endpointButton"));
    m_endpoint->setAutoRaise(true);
    m_endpoint->setToolTip(tr("The broker's endpoint: click to copy"));
    connect(m_endpoint, &QToolButton::clicked, this, [this] {
        if (!m_host)
            return;
        QGuiApplication::clipboard()->setText(m_host->endpointUrl());
        statusBar()->showMessage(tr("Copied %1").arg(m_host->endpointUrl()), 5000);
    });
    // What the Azure SDKs take, as they take it for the official emulator
    // (docs/api.md "Azure Service Bus"): click to copy.
    m_serviceBus = new QToolButton(this);
    m_serviceBus->setObjectName(QStringLiteral("serviceBusButton"));
    m_serviceBus->setAutoRaise(true);
    m_serviceBus->setToolTip(tr("The Service Bus connection string (as for the official emulator): click to copy"));
    connect(m_serviceBus, &QToolButton::clicked, this, [this] {
        if (!m_host || m_host->amqpUrl().isEmpty())
            return;
        QGuiApplication::clipboard()->setText(serviceBusConnectionString(m_host->amqpUrl()));
        statusBar()->showMessage(tr("Copied the Service Bus connection string"), 5000);
    });
    m_database = new QLabel(this);
    m_database->setObjectName(QStringLiteral("databaseLabel"));
    m_database->setTextFormat(Qt::PlainText);
    m_database->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_brokerState = new QLabel(this);
    m_brokerState->setObjectName(QStringLiteral("brokerStateLabel"));
    m_brokerState->setTextFormat(Qt::PlainText);
    statusBar()->addPermanentWidget(m_endpoint);
    statusBar()->addPermanentWidget(m_serviceBus);
    statusBar()->addPermanentWidget(m_database, 1);
    statusBar()->addPermanentWidget(m_brokerState);
    // The broker's time stays visible at any width (the toolbar may fold away).
    statusBar()->addPermanentWidget(m_clock->nextEventLabel(), 1); // shares the room left, gives way first
    statusBar()->addPermanentWidget(m_clock->timeLabel());
}

void MainWindow::showBrokerState()
{
    m_mockEndpointsAction->setEnabled(m_host != nullptr);
    if (!m_host) {
        m_endpoint->setText(tr("no endpoint"));
        m_endpoint->setAccessibleName(m_endpoint->text());
        m_endpoint->setEnabled(false);
        m_serviceBus->hide();
        m_database->setText(tr("No database open"));
        m_brokerState->setText(tr("Broker: stopped"));
        setWindowTitle(tr("Relaydesk"));
        return;
    }
    m_endpoint->setEnabled(true);
    m_endpoint->setText(m_host->endpointUrl());
    m_endpoint->setAccessibleName(m_host->endpointUrl());
    m_serviceBus->setVisible(!m_host->amqpUrl().isEmpty());
    m_serviceBus->setText(tr("Service Bus %1").arg(QUrl(m_host->amqpUrl()).port()));
    m_serviceBus->setAccessibleName(m_serviceBus->text());
    m_database->setText(m_host->databasePath());
    m_database->setToolTip(tr("The database file"));
    QString state = tr("Broker: ready");
    if (m_model) {
        // What the tree's groups hold (Service Bus queues and topics once
        // each, without their subscriptions and dead-letter sub-queues).
        const int queues = m_model->rowCount(m_model->queuesGroup());
        const int topics = m_model->rowCount(m_model->topicsGroup());
        const int serviceBus = m_model->rowCount(m_model->serviceBusGroup());
        state = (queues == 1 ? tr("1 queue") : tr("%1 queues").arg(queues)) + QStringLiteral(", ") +
                (topics == 1 ? tr("1 topic") : tr("%1 topics").arg(topics));
        if (serviceBus > 0)
            state += serviceBus == 1 ? tr(", 1 Service Bus entity") : tr(", %1 Service Bus entities").arg(serviceBus);
        state += tr(" · ready");
    }
    if (m_host->portMoved())
        state = tr("port %1 was taken · ").arg(m_options.port) + state;
    m_brokerState->setText(state);
    const QString file = m_host->databasePath() == QLatin1String(":memory:")
                             ? tr("in memory")
                             : QFileInfo(m_host->databasePath()).absoluteFilePath();
    if (!m_remotePage)   // another connection's page names its connection (main_window_connections.cpp)
        setWindowTitle(tr("Relaydesk — %1").arg(file));
}

void MainWindow::showEntity(const LocalEntity &ref)
{
    closeRemotePage();
    m_actions->setCurrent(ref);
    if (m_page && m_page->entity() == ref)
        return;
    if (m_page) {
        m_page->leave();
        m_pages->removeWidget(m_page);
        m_page->deleteLater();
        m_page = nullptr;
    }
    if (ref.isNull() || !m_host || !m_model) {
        m_pages->setCurrentWidget(m_dashboard);
        return;
    }
    m_page = new EntityPage(*m_host, *m_model, *m_actions, ref, m_pages);
    m_pages->addWidget(m_page);
    m_pages->setCurrentWidget(m_page);
    m_wantedEntity = {};
    QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).setValue(QLatin1String(kEntityKey), entityRefKey(ref));
}

void MainWindow::openEntity(const LocalEntity &ref, const QString &tab)
{
    m_wantedTab = tab;
    if (m_panel->selectEntity(ref)) {
        m_wantedEntity = {};
        showWantedTab();
        return;
    }
    m_wantedEntity = ref;
}

void MainWindow::showWantedTab()
{
    if (!m_page || m_wantedTab.isEmpty())
        return;
    QTabWidget *tabs = m_page->tabs();
    for (int i = 0; i < tabs->count(); ++i)
        if (tabs->widget(i)->objectName() == m_wantedTab)
            tabs->setCurrentIndex(i);
    m_wantedTab.clear();
}

void MainWindow::onEntityRemoved(const LocalEntity &ref)
{
    if (m_page && m_page->entity() == ref)
        statusBar()->showMessage(tr("The %1 %2 was deleted; its page is closed.").arg(entityKindWord(ref.kind), ref.name),
                                 10000);
}

void MainWindow::rebuildRecentMenu()
{
    m_recentMenu->clear();
    const QStringList recent = recentDatabases();
    for (int i = 0; i < recent.size(); ++i) {
        QAction *action = m_recentMenu->addAction(QStringLiteral("&%1 %2").arg(i + 1).arg(recent[i]));
        connect(action, &QAction::triggered, this, [this, path = recent[i]] { openDatabase(path); });
    }
    m_recentMenu->setEnabled(!recent.isEmpty());
}

QStringList MainWindow::recentDatabases() const
{
    return QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).value(QLatin1String(kRecentKey)).toStringList();
}

void MainWindow::showPolicyEditor()
{
    if (!m_policyEditor) {
        m_policyEditor = new PolicyEditorWindow(this);
        connect(m_policyEditor, &PolicyEditorWindow::tryPolicyRequested, this, [this](const QString &json) {
            if (m_host)
                openTryPolicyDialog(*m_host, *m_actions, json, m_policyEditor);
        });
    }
    m_policyEditor->tryAction()->setEnabled(m_host != nullptr);
    m_policyEditor->show();
    m_policyEditor->raise();
    m_policyEditor->activateWindow();
}

void MainWindow::showMockEndpoints()
{
    if (!m_host)
        return;
    if (!m_mockEndpoints)
        m_mockEndpoints = new MockEndpointsWindow(m_host->mocks(), m_host->endpointUrl(), this);
    m_mockEndpoints->show();
    m_mockEndpoints->raise();
    m_mockEndpoints->activateWindow();
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Relaydesk"),
                       tr("<h3>Relaydesk %1</h3>"
                          "<p>Administer message queues, topics and notification delivery policies, "
                          "with a broker of its own that your code reaches over SQS, SNS and a native API.</p>")
                           .arg(QStringLiteral(RELAYDESK_VERSION)));
}

void MainWindow::saveSettings() const
{
    QSettings settings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk"));
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kStateKey), saveState());
    settings.setValue(QLatin1String(kTreeHeaderKey), m_panel->saveHeaderState());
}

void MainWindow::restoreSettings()
{
    const QSettings settings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk"));
    // Brought onto the screen now and again when shown, once the frame is known.
    m_fitOnShow = restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray());
    if (m_fitOnShow)
        fitIntoScreen();
    restoreState(settings.value(QLatin1String(kStateKey)).toByteArray());
    if (!m_entityDock->isHidden() && m_entityDock->width() < m_panel->minimumWidth())
        resizeDocks({m_entityDock}, {kDockWidth}, Qt::Horizontal); // a collapsed tree comes back at its default
    m_panel->restoreHeaderState(settings.value(QLatin1String(kTreeHeaderKey)).toByteArray());
    m_wantedEntity = entityRefFromKey(settings.value(QLatin1String(kEntityKey)).toString());
}

void MainWindow::fitIntoScreen()
{
    const QScreen *on = screen();
    if (!on)
        return;
    const QRect placed = placeInside(geometry(), frameOrAssumed(*this), on->availableGeometry());
    if (placed != geometry())
        setGeometry(placed);
}

void MainWindow::showEvent(QShowEvent *event)
{
    QMainWindow::showEvent(event);
    if (std::exchange(m_fitOnShow, false)) {
        fitIntoScreen();
        m_fitWhenFramed = !frameKnown(*this);
    }
}

void MainWindow::resizeEvent(QResizeEvent *event)
{
    QMainWindow::resizeEvent(event);
    // A narrower window (or one first shown narrow): the tree keeps at most
    // two fifths of it (never less than its minimum), the page the rest.
    const int before = event->oldSize().width();
    if ((before < 0 || before > event->size().width()) && !m_entityDock->isFloating()) {
        const int most = std::max(width() * 2 / 5, m_panel->minimumWidth());
        if (m_entityDock->width() > most)
            resizeDocks({m_entityDock}, {most}, Qt::Horizontal);
    }
}

void MainWindow::moveEvent(QMoveEvent *event)
{
    QMainWindow::moveEvent(event);
    // The window manager's frame arrived after the window was shown: the real one now.
    if (m_fitWhenFramed && frameKnown(*this)) {
        m_fitWhenFramed = false;
        fitIntoScreen();
    }
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    if (m_policyEditor)
        m_policyEditor->close();
    QMainWindow::closeEvent(event);
}

} // namespace relaydesk
