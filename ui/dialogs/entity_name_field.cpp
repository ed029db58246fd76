// SPDX-License-Identifier: MIT
#include "dialogs/entity_name_field.h"

#include "widgets/field_error.h"

#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>

namespace relaydesk {

EntityNameField::EntityNameField(const QString &hint, QWidget *parent)
    : QWidget(parent)
{
    m_input = new QLineEdit(this);
    m_input->setObjectName(QStringLiteral("name"));
    m_input->setAccessibleName(tr("Name"));
    auto *label = new QLabel(tr("&Name"), this);
    label->setBuddy(m_input);
    QFont bold = label->font();
    bold.setBold(true);
    label->setFont(bold);
    auto *help = new QLabel(hint, this);
    help->setObjectName(QStringLiteral("nameHelp"));
    help->setWordWrap(true);
    help->setForegroundRole(QPalette::PlaceholderText);
    m_error = new FieldError(m_input, QStringLiteral("name"), this);
    auto *grid = new QGridLayout(this);
    grid->setContentsMargins(0, 0, 0, 0);
    grid->setVerticalSpacing(1);
    grid->addWidget(label, 0, 0);
    grid->addWidget(m_input, 0, 1);
    grid->addWidget(help, 1, 1);
    grid->addWidget(m_error, 2, 1);
    grid->setColumnStretch(1, 1);
}

EntityNameField::~EntityNameField() = default;

QString EntityNameField::name(bool fifo) const
{
    QString text = m_input->text().trimmed();
    if (fifo && !text.isEmpty() && !text.endsWith(QLatin1String(".fifo")))
        text += QLatin1String(".fifo");
    return text;
}

void EntityNameField::showError(const QString &message)
{
    m_error->setMessage(message);
    if (!message.isEmpty())
        m_input->setFocus(Qt::OtherFocusReason);
}

QString EntityNameField::error() const
{
    return m_error->message();
}

} // namespace relaydesk
