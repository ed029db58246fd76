// SPDX-License-Identifier: MIT
#include "dialogs/confirm_name_dialog.h"

#include "dialogs/dialog_form.h"

#include <QFormLayout>
#include <QLineEdit>
#include <QPushButton>

namespace relaydesk {

ConfirmNameDialog::ConfirmNameDialog(const QString &question, const QString &action, const QString &entityName,
                                     bool production, QWidget *parent)
    : QDialog(parent)
{
    setObjectName(QStringLiteral("confirmNameDialog"));
    setWindowTitle(production ? tr("%1 on a production connection").arg(action) : action);
    auto *form = new QFormLayout;
    QString note = question;
    if (production) {
        note += QLatin1Char('\n') +
                tr("This connection is marked production. Type the name, %1, to confirm.").arg(entityName);
        m_name = new QLineEdit(this);
        m_name->setObjectName(QStringLiteral("confirmName"));
        addFormRow(form, tr("&Name:"), m_name);
    }
    m_accept = layOutChoiceDialog(this, note, form, action, "confirmAccept");
    if (m_name) {
        m_accept->setEnabled(false);
        connect(m_name, &QLineEdit::textChanged, this,
                [this, entityName](const QString &typed) { m_accept->setEnabled(typed == entityName); });
    }
    setWindowModality(Qt::WindowModal);
}

} // namespace relaydesk
