// SPDX-License-Identifier: MIT
// MainWindow: the broker's lifetime (start, stop, another database) and the
// File actions (new/open/recent database, import/export configuration).
#include "models/preferences.h"
#include "views/main_window.h"

#include "policy_editor/policy_editor_window.h"

#include "dialogs/database_problem_dialog.h"
#include "engine/broker_engine.h"
#include "models/entity_tree_model.h"
#include "config/servicebus_config.h"
#include "config/broker_config.h"
#include "host/broker_host.h"
#include "mock/mock_endpoints.h"
#include "views/clock_toolbar.h"
#include "views/dashboard_page.h"
#include "views/entity_actions.h"
#include "views/entity_tree_panel.h"
#include "policy_editor/policy_editor_window.h"

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QMenu>
#include <QMessageBox>
#include <QSaveFile>
#include <QSettings>
#include <QStandardPaths>
#include <QStatusBar>

#include <nlohmann/json.hpp>

namespace relaydesk {

namespace {

constexpr int kRecentLimit = 8;
const char *const kRecentKey = "mainWindow/recentDatabases";
const QString kDatabaseFilter = QStringLiteral("Relaydesk databases (*.db *.sqlite);;All files (*)");
const QString kConfigFilter =
    QStringLiteral("Relaydesk configuration or Service Bus emulator Config.json (*.json);;All files (*)");

QString folderOf(const QString &path)
{
    return path.isEmpty() || path == QLatin1String(":memory:")
               ? QStandardPaths::writableLocation(QStandardPaths::DocumentsLocation)
               : QFileInfo(path).absolutePath();
}

} // namespace

bool MainWindow::startBroker(const ServeOptions &options)
{
    ServeOptions wanted = options;
    if (m_host && !options.portGiven)
        wanted.port = m_host->port(); // clients keep their endpoint across databases
    stopBroker();
    m_options = options;
    auto started = BrokerHost::start(wanted, !options.portGiven);
    if (auto *problem = std::get_if<BrokerHostProblem>(&started)) {
        showBrokerState();
        showProblem(options.databasePath, *problem);
        return false;
    }
    m_host = std::get<std::unique_ptr<BrokerHost>>(std::move(started));
    m_model = new EntityTreeModel(&m_host->engine(), m_host->identity(), this);
    connect(m_model, &EntityTreeModel::entityRemoved, this, &MainWindow::onEntityRemoved);
    connect(m_model, &EntityTreeModel::refreshed, this, [this] {
        showBrokerState();
        if (!m_wantedEntity.isNull() && m_panel->selectEntity(m_wantedEntity)) {
            m_wantedEntity = {};
            showWantedTab();
        }
    });
    connect(m_model, &EntityTreeModel::readFailed, this,
            [this](const QString &message) { statusBar()->showMessage(tr("Reading the broker failed: %1").arg(message), 8000); });
    m_model->setConnections(m_connections);
    m_panel->setModel(m_model);
    m_actions->setBroker(m_host.get(), m_model);
    m_dashboard->setBroker(m_host.get(), m_model);
    m_clock->setEngine(&m_host->engine(), [model = m_model]() -> std::optional<MessageDue> {
        const EntityOverview &overview = model->overview();
        if (!overview.nextVisible)
            return std::nullopt;
        for (const QueueOverview &queue : overview.queues)
            if (queue.nextVisible == overview.nextVisible)
                return MessageDue{*queue.nextVisible, queue.name};
        return MessageDue{*overview.nextVisible, {}};
    });
    addRecent(options.databasePath);
    showBrokerState();
    if (m_policyEditor)
        m_policyEditor->tryAction()->setEnabled(true);
    emit brokerStarted(m_host->endpointUrl());
    return true;
}

bool MainWindow::openDatabase(const QString &path)
{
    ServeOptions options = m_options;
    options.databasePath = path;
    options.configFile.clear(); // a --config applies to the database it was given with
    return startBroker(options);
}

void MainWindow::stopBroker()
{
    if (!m_host)
        return;
    if (m_policyEditor)
        m_policyEditor->tryAction()->setEnabled(false);
    // Dialogs and pages first: they hold the broker's service and engine.
    for (QDialog *dialog : findChildren<QDialog *>()) {
        if (!qobject_cast<DatabaseProblemDialog *>(dialog))
            delete dialog;
    }
    showEntity({});
    m_panel->setModel(nullptr);
    m_actions->setBroker(nullptr, nullptr);
    m_dashboard->setBroker(nullptr, nullptr);
    m_clock->setEngine(nullptr);
    delete m_model;
    m_model = nullptr;
    m_host.reset();
    showBrokerState();
}

DatabaseProblemDialog *MainWindow::problemDialog() const { return findChild<DatabaseProblemDialog *>(); }

void MainWindow::showProblem(const QString &path, const BrokerHostProblem &problem)
{
    delete problemDialog();
    auto *dialog = new DatabaseProblemDialog(path, problem, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::finished, this, [this](int choice) {
        if (choice == DatabaseProblemDialog::OpenOther)
            QMetaObject::invokeMethod(this, &MainWindow::chooseDatabaseToOpen, Qt::QueuedConnection);
        else if (choice == DatabaseProblemDialog::CreateNew)
            QMetaObject::invokeMethod(this, &MainWindow::chooseNewDatabase, Qt::QueuedConnection);
    });
    dialog->setWindowModality(Qt::WindowModal);
    dialog->open();
    statusBar()->showMessage(problem.message);
}

void MainWindow::addRecent(const QString &path)
{
    if (path == QLatin1String(":memory:"))
        return;
    QSettings settings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk"));
    QStringList recent = settings.value(QLatin1String(kRecentKey)).toStringList();
    const QString absolute = QFileInfo(path).absoluteFilePath();
    recent.removeAll(absolute);
    recent.prepend(absolute);
    while (recent.size() > kRecentLimit)
        recent.removeLast();
    settings.setValue(QLatin1String(kRecentKey), recent);
    rebuildRecentMenu();
}

void MainWindow::chooseDatabaseToOpen()
{
    const QString path = QFileDialog::getOpenFileName(this, tr("Open Database"), folderOf(m_options.databasePath),
                                                      kDatabaseFilter);
    if (!path.isEmpty())
        openDatabase(path);
}

void MainWindow::chooseNewDatabase()
{
    const QString preferred = Preferences::load().databaseFolder;
    QString path = QFileDialog::getSaveFileName(this, tr("New Database"),
                                                preferred.isEmpty() ? folderOf(m_options.databasePath) : preferred,
                                                kDatabaseFilter, nullptr, QFileDialog::DontConfirmOverwrite);
    if (path.isEmpty())
        return;
    if (QFileInfo(path).suffix().isEmpty())
        path += QStringLiteral(".db");
    if (QFileInfo::exists(path)) { // never over an existing file
        QMessageBox::information(this, tr("New Database"),
                                 tr("%1 already exists. Choose a new name, or open it with Open Database….").arg(path));
        return;
    }
    openDatabase(path);
}

void MainWindow::importConfiguration()
{
    if (!m_host)
        return;
    const QString path = QFileDialog::getOpenFileName(this, tr("Import Configuration"), folderOf(m_options.databasePath),
                                                      kConfigFilter);
    if (path.isEmpty())
        return;
    importConfigurationFile(path);
}

void MainWindow::importConfigurationFile(const QString &path)
{
    if (!m_host)
        return;
    if (importServiceBusConfig(path))
        return;
    auto config = readBrokerConfigFile(path.toStdString(), m_host->identity());
    if (!config) {
        QMessageBox::warning(this, tr("Import Configuration"),
                             tr("%1 was not imported:\n%2").arg(path, QString::fromStdString(config.error().message)));
        return;
    }
    std::vector<StoredMockEndpoint> mocks = config->mocks;
    applyBrokerConfig(m_host->engine(), m_host->service(), m_host->identity(), std::move(config).value(), this,
                      [this, path, mocks = std::move(mocks)](Result<ConfigApplied> applied) {
                          if (applied && m_host)
                              m_host->mocks().adopt(mocks); // stored by the apply; now served
                          if (!applied) {
                              QMessageBox::warning(this, tr("Import Configuration"),
                                                   tr("%1 was not imported; nothing changed:\n%2")
                                                       .arg(path, QString::fromStdString(applied.error().message)));
                              return;
                          }
                          statusBar()->showMessage(tr("Imported %1: %2 created, %3 changed, %4 deleted.")
                                                       .arg(QFileInfo(path).fileName())
                                                       .arg(applied->created)
                                                       .arg(applied->changed)
                                                       .arg(applied->deleted),
                                                   10000);
                      });
}

bool MainWindow::importServiceBusConfig(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return false;   // the broker configuration's reader says why
    const QByteArray text = file.readAll();
    if (!looksLikeServiceBusConfig(std::string_view(text.constData(), std::size_t(text.size()))))
        return false;
    auto config = readServiceBusConfigText(std::string_view(text.constData(), std::size_t(text.size())));
    if (!config) {
        QMessageBox::warning(this, tr("Import Configuration"),
                             tr("%1 was not imported:\n%2").arg(path, QString::fromStdString(config.error().message)));
        return true;
    }
    applyServiceBusConfig(m_host->service(), std::move(config).value(), this,
                          [this, path](Result<ServiceBusConfigApplied> applied) {
                              if (!applied) {
                                  QMessageBox::warning(this, tr("Import Configuration"),
                                                       tr("%1 was not imported; nothing changed:\n%2")
                                                           .arg(path, QString::fromStdString(applied.error().message)));
                                  return;
                              }
                              statusBar()->showMessage(tr("Imported the Service Bus emulator configuration %1: %2 "
                                                          "created, %3 kept.")
                                                           .arg(QFileInfo(path).fileName())
                                                           .arg(applied->created)
                                                           .arg(applied->kept),
                                                       10000);
                          });
    return true;
}

void MainWindow::exportConfiguration()
{
    if (!m_host)
        return;
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Configuration"),
                                                      folderOf(m_options.databasePath) + QStringLiteral("/relaydesk-config.json"),
                                                      kConfigFilter);
    if (path.isEmpty())
        return;
    const BrokerIdentity identity = m_host->identity();
    exportBrokerConfig(m_host->engine(), identity, this, [this, path, identity](Result<BrokerConfig> config) {
        QString problem;
        if (!config) {
            problem = QString::fromStdString(config.error().message);
        } else {
            QSaveFile file(path);
            const std::string text = writeBrokerConfig(*config, identity).dump(2) + "\n";
            if (!file.open(QIODevice::WriteOnly) || file.write(text.data(), static_cast<qint64>(text.size())) < 0 ||
                !file.commit())
                problem = file.errorString();
        }
        if (!problem.isEmpty())
            QMessageBox::warning(this, tr("Export Configuration"), tr("%1 was not written:\n%2").arg(path, problem));
        else
            statusBar()->showMessage(tr("Exported the configuration to %1").arg(path), 10000);
    });
}

} // namespace relaydesk
