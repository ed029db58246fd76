// SPDX-License-Identifier: MIT
#pragma once

#include <QList>

class QDialog;
class QDialogButtonBox;
class QWidget;

namespace relaydesk {

class FieldError;

// The frame the create dialogs share: the name row on top, the attribute
// form (and what else the dialog asks) in a scroll area, a message line for
// refusals that name no field, and Create / Cancel. GUI thread only.
struct CreateDialogFrame {
    FieldError *message = nullptr;
    QDialogButtonBox *buttons = nullptr;
};

// Lays out `dialog` (which owns everything): `top` above the scroll area,
// `scrolled` inside it, in this order. OK calls dialog->accept(), Cancel reject().
CreateDialogFrame buildCreateDialogFrame(QDialog *dialog, QWidget *top, QList<QWidget *> scrolled);
inline CreateDialogFrame buildCreateDialogFrame(QDialog *dialog, QWidget *top, QWidget *scrolled)
{
    return buildCreateDialogFrame(dialog, top, QList<QWidget *>{scrolled});
}


} // namespace relaydesk
