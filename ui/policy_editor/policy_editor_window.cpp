// SPDX-License-Identifier: MIT
#include "policy_editor/policy_editor_window.h"

#include "widgets/accessible_combo_box.h"
#include "policy_editor/policy_editor.h"
#include "policy_editor/policy_schedule_panel.h"

#include <QAction>
#include <QCloseEvent>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QSettings>
#include <QStatusBar>

#include <utility>

namespace relaydesk {

namespace {
const char *const kLayoutKey = "policyEditor/layout";
const char *const kGeometryKey = "policyEditor/geometry";
} // namespace

PolicyEditorWindow::PolicyEditorWindow(QWidget *parent)
    : QMainWindow(parent, Qt::Window)
{
    installAccessibleComboBoxes();
    setObjectName(QStringLiteral("policyEditorWindow"));
    setWindowTitle(tr("Delivery Policy Editor — Relaydesk"));
    m_editor = new PolicyEditor(this);
    setCentralWidget(m_editor);
    QMenu *file = menuBar()->addMenu(tr("&File"));
    file->addAction(m_editor->openAction());
    file->addAction(m_editor->saveAsAction());
    file->addSeparator();
    file->addAction(m_editor->schedulePanel()->exportAction());
    file->addSeparator();
    QAction *close = file->addAction(tr("&Close"), this, &QWidget::close);
    close->setShortcuts(QKeySequence::Close); // every binding: Ctrl+W and Ctrl+F4
    QMenu *edit = menuBar()->addMenu(tr("&Edit"));
    edit->addAction(m_editor->copyJsonAction());
    edit->addSeparator();
    edit->addMenu(m_editor->presetMenu());
    edit->addMenu(m_editor->schedulePanel()->compareMenu());
    edit->addAction(m_editor->schedulePanel()->clearComparisonAction());
    QMenu *broker = menuBar()->addMenu(tr("&Broker"));
    m_try = broker->addAction(tr("&Try a Policy…"), this, [this] { emit tryPolicyRequested(m_editor->jsonText()); });
    m_try->setObjectName(QStringLiteral("tryPolicyAction"));
    m_try->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    m_try->setEnabled(false);
    connect(m_editor, &PolicyEditor::statusMessage, this,
            [this](const QString &message) { statusBar()->showMessage(message, 8000); });
    resize(1200, 760);
    const QSettings settings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk"));
    restoreGeometry(settings.value(QLatin1String(kGeometryKey)).toByteArray());
    m_editor->restoreLayoutState(settings.value(QLatin1String(kLayoutKey)).toByteArray());
}

// Ctrl+W, File ▸ Close or the frame's button: unsaved edits (valid or not)
// are not dropped without asking; the question is window-modal and not
// blocking ("closeEditorConfirmation"), Cancel by default.
void PolicyEditorWindow::closeEvent(QCloseEvent *event)
{
    if (m_editor->isModified() && !std::exchange(m_closeConfirmed, false)) {
        event->ignore();
        if (findChild<QMessageBox *>(QStringLiteral("closeEditorConfirmation")))
            return;
        const QString text = m_editor->evaluation().valid()
                                 ? tr("The policy has edits that are not saved. Close the editor and lose them?")
                                 : tr("The policy has edits that are not saved, and it is not valid. Close the "
                                      "editor and lose them?");
        auto *box = new QMessageBox(QMessageBox::Question, tr("Close the Delivery Policy Editor"), text,
                                    QMessageBox::NoButton, this);
        box->setObjectName(QStringLiteral("closeEditorConfirmation"));
        box->setAttribute(Qt::WA_DeleteOnClose);
        QPushButton *discard = box->addButton(tr("Close without saving"), QMessageBox::DestructiveRole);
        discard->setObjectName(QStringLiteral("closeWithoutSaving"));
        box->addButton(QMessageBox::Cancel);
        box->setDefaultButton(QMessageBox::Cancel);
        connect(discard, &QPushButton::clicked, this, [this] {
            m_closeConfirmed = true;
            QMetaObject::invokeMethod(this, &QWidget::close, Qt::QueuedConnection);
        });
        box->open();
        return;
    }
    QSettings settings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk"));
    settings.setValue(QLatin1String(kGeometryKey), saveGeometry());
    settings.setValue(QLatin1String(kLayoutKey), m_editor->saveLayoutState());
    QMainWindow::closeEvent(event);
}

} // namespace relaydesk
