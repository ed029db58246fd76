// SPDX-License-Identifier: MIT
#include "widgets/accessible_names.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>

namespace relaydesk {

QString accessibleLabelText(QString text)
{
    text.remove(QLatin1Char('&'));
    text = text.trimmed();
    if (text.endsWith(QLatin1Char(':')))
        text.chop(1);
    return text;
}

void nameInputsAfterTheirLabels(QWidget *root)
{
    for (const QLabel *label : root->findChildren<QLabel *>()) {
        QWidget *buddy = label->buddy();
        if (buddy && buddy->accessibleName().isEmpty())
            buddy->setAccessibleName(accessibleLabelText(label->text()));
    }
    for (QComboBox *combo : root->findChildren<QComboBox *>())
        nameEditableComboText(combo);
}

void nameEditableComboText(QComboBox *combo)
{
    QLineEdit *text = combo->lineEdit();
    if (text && text->accessibleName().isEmpty())
        text->setAccessibleName(combo->accessibleName());
}

} // namespace relaydesk
