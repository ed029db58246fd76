// SPDX-License-Identifier: MIT
#include "dialogs/create_dialog_frame.h"

#include "widgets/field_error.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace relaydesk {

CreateDialogFrame buildCreateDialogFrame(QDialog *dialog, QWidget *top, QList<QWidget *> scrolled)
{
    auto *content = new QWidget(dialog);
    auto *contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 6, 0);
    for (QWidget *widget : scrolled)
        contentLayout->addWidget(widget);
    contentLayout->addStretch(1);
    auto *scroll = new QScrollArea(dialog);
    scroll->setFocusPolicy(Qt::NoFocus); // its fields are the Tab stops (scrolled into view); the area is none: AT-SPI read it as an unnamed stop
    scroll->setObjectName(QStringLiteral("createScroll"));
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumSize(640, 420);

    CreateDialogFrame frame;
    frame.message = new FieldError(nullptr, QStringLiteral("dialog"), dialog);
    frame.buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    QObject::connect(frame.buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(frame.buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);

    auto *layout = new QVBoxLayout(dialog);
    layout->addWidget(top);
    layout->addWidget(scroll, 1);
    layout->addWidget(frame.message);
    layout->addWidget(frame.buttons);
    dialog->resize(720, 640);
    return frame;
}

} // namespace relaydesk
