// SPDX-License-Identifier: MIT
#include "dialogs/dialog_form.h"

#include "dialogs/field_error_line.h"

#include <QFormLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace relaydesk {

FieldErrorLine *addFormRow(QFormLayout *form, const QString &label, QWidget *field)
{
    QWidget *owner = form->parentWidget();
    QString name = label;
    name.remove(QLatin1Char('&'));
    if (name.endsWith(QLatin1Char(':')))
        name.chop(1);
    field->setAccessibleName(name);
    auto *caption = new QLabel(label, owner);
    caption->setBuddy(field);
    auto *cell = new QWidget(owner);
    auto *column = new QVBoxLayout(cell);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    field->setParent(cell);
    column->addWidget(field);
    auto *error = new FieldErrorLine(field, cell);
    column->addWidget(error);
    form->addRow(caption, cell);
    return error;
}

} // namespace relaydesk
