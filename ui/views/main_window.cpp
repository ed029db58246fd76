// SPDX-License-Identifier: MIT
#include "views/main_window.h"

#include "views/policy_editor.h"
#include "views/policy_schedule_panel.h"

#include <QAction>
#include <QApplication>
#include <QCloseEvent>
#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTabWidget>
#include <QVBoxLayout>

// The resources live in a static library: register them before first use
// (outside any namespace, as Q_INIT_RESOURCE requires).
static void initRelaydeskResources()
{
    Q_INIT_RESOURCE(relaydesk);
}

namespace relaydesk {
namespace {

const char *const kOrganisation = "Relaydesk";
const char *const kApplication = "Relaydesk";
const char *const kGeometryKey = "mainWindow/geometry";
const char *const kStateKey = "mainWindow/state";
const char *const kEditorLayoutKey = "policyEditor/layout";

} // namespace

MainWindow::MainWindow(QWidget *parent)
    : QMainWindow(parent)
{
    initRelaydeskResources();
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(tr("Relaydesk"));
    setWindowIcon(QIcon(QStringLiteral(":/icons/relaydesk.svg")));

    m_policyEditor = new PolicyEditor(this);
    m_pages = new QTabWidget(this);
    m_pages->setObjectName(QStringLiteral("entityPages"));
    m_pages->setDocumentMode(true);
    m_pages->addTab(m_policyEditor, tr("Delivery policy"));
    setCentralWidget(m_pages);

    createEntityDock();
    createMenus();

    m_brokerState = new QLabel(tr("Broker: not running — policy editor only"), this);
    m_brokerState->setObjectName(QStringLiteral("brokerStateLabel"));
    m_brokerState->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addPermanentWidget(m_brokerState);
    connect(m_policyEditor, &PolicyEditor::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 8000); });

    resize(1280, 800);
    restoreSettings();
}

MainWindow::~MainWindow() = default;

void MainWindow::createEntityDock()
{
    m_entityDock = new QDockWidget(tr("Topics and Queues"), this);
    m_entityDock->setObjectName(QStringLiteral("entityDock"));
    m_entityDock->setAllowedAreas(Qt::LeftDockWidgetArea | Qt::RightDockWidgetArea);
    m_entityDock->setFeatures(QDockWidget::DockWidgetClosable | QDockWidget::DockWidgetMovable);

    auto *placeholder = new QLabel(tr("Topics and queues appear here when the broker runs."), m_entityDock);
    placeholder->setObjectName(QStringLiteral("entityPlaceholder"));
    placeholder->setAlignment(Qt::AlignCenter);
    placeholder->setWordWrap(true);
    placeholder->setForegroundRole(QPalette::PlaceholderText);
    placeholder->setMargin(16);
    placeholder->setMinimumWidth(150);
    auto *content = new QWidget(m_entityDock);
    auto *layout = new QVBoxLayout(content);
    layout->addWidget(placeholder, 1);
    m_entityDock->setWidget(content);
    addDockWidget(Qt::LeftDockWidgetArea, m_entityDock);
    resizeDocks({m_entityDock}, {190}, Qt::Horizontal);
}

void MainWindow::createMenus()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->setObjectName(QStringLiteral("fileMenu"));
    file->addAction(m_policyEditor->openAction());
    file->addAction(m_policyEditor->saveAsAction());
    file->addSeparator();
    file->addAction(m_policyEditor->schedulePanel()->exportAction());
    file->addSeparator();
    QAction *quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_Q));
    quit->setMenuRole(QAction::QuitRole);

    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->setObjectName(QStringLiteral("editMenu"));
    edit->addAction(m_policyEditor->copyJsonAction());
    edit->addSeparator();
    edit->addMenu(m_policyEditor->presetMenu());
    edit->addMenu(m_policyEditor->schedulePanel()->compareMenu());
    edit->addAction(m_policyEditor->schedulePanel()->clearComparisonAction());

    QMenu *view = menuBar()->addMenu(tr("&View"));
    view->setObjectName(QStringLiteral("viewMenu"));
    QAction *dock = m_entityDock->toggleViewAction();
    dock->setText(tr("&Topics and Queues"));
    view->addAction(dock);
    QAction *status = view->addAction(tr("&Status Bar"));
    status->setCheckable(true);
    status->setChecked(true);
    connect(status, &QAction::toggled, this, [this](bool on) { statusBar()->setVisible(on); });

    QMenu *help = menuBar()->addMenu(tr("&Help"));
    help->setObjectName(QStringLiteral("helpMenu"));
    QAction *about = help->addAction(tr("&About Relaydesk"), this, &MainWindow::showAbout);
    about->setMenuRole(QAction::AboutRole);
    QAction *aboutQt = help->addAction(tr("About &Qt"), qApp, &QApplication::aboutQt);
    aboutQt->setMenuRole(QAction::AboutQtRole);
}

void MainWindow::showAbout()
{
    QMessageBox::about(this, tr("About Relaydesk"),
                       tr("<h3>Relaydesk %1</h3>"
                          "<p>Administer message queues, topics and notification delivery policies, "
                          "with an embedded broker.</p>"
                          "<p>This version edits and explains delivery policies: the schedule of every retry, "
                          "validation against the service's limits, and comparison of two policies.</p>")
                           .arg(QStringLiteral(RELAYDESK_VERSION)));
}

void MainWindow::saveSettings() const
{
    QSettings settings(QString::fromLatin1(kOrganisation), QString::fromLatin1(kApplication));
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kStateKey), saveState());
    settings.setValue(QLatin1String(kEditorLayoutKey), m_policyEditor->saveLayoutState());
}

void MainWindow::restoreSettings()
{
    const QSettings settings(QString::fromLatin1(kOrganisation), QString::fromLatin1(kApplication));
    restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray());
    restoreState(settings.value(QLatin1String(kStateKey)).toByteArray());
    m_policyEditor->restoreLayoutState(settings.value(QLatin1String(kEditorLayoutKey)).toByteArray());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    saveSettings();
    QMainWindow::closeEvent(event);
}

} // namespace relaydesk
