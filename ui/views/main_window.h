// SPDX-License-Identifier: MIT
#pragma once

#include <QMainWindow>

class QDockWidget;
class QLabel;
class QTabWidget;

namespace relaydesk {

class PolicyEditor;

// The Relaydesk window (SPEC 8.4): menus, the entity tree dock (empty until
// the broker runs in the window), the pages for the selected entity — for
// now the delivery-policy editor — and the status bar. Window geometry, dock
// and splitter layout are remembered in QSettings ("Relaydesk"/"Relaydesk").
// GUI thread only; owns its child widgets.
class MainWindow final : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget *parent = nullptr);
    ~MainWindow() override;
    MainWindow(const MainWindow &) = delete;
    MainWindow &operator=(const MainWindow &) = delete;

    PolicyEditor *policyEditor() const { return m_policyEditor; }

    // Window layout to and from QSettings; saveSettings() runs on close.
    void saveSettings() const;
    void restoreSettings();

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    void createMenus();
    void createEntityDock();
    void showAbout();

    PolicyEditor *m_policyEditor = nullptr;
    QTabWidget *m_pages = nullptr;
    QDockWidget *m_entityDock = nullptr;
    QLabel *m_brokerState = nullptr;
};

} // namespace relaydesk
