// SPDX-License-Identifier: MIT
#include "dialogs/field_error_line.h"

#include "views/field_issue_marker.h"

namespace relaydesk {

FieldErrorLine::FieldErrorLine(QWidget *field, QWidget *parent) : QLabel(parent), m_field(field)
{
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setObjectName(field->objectName() + QStringLiteral("Error"));
    setAccessibleName(QStringLiteral("%1 error").arg(field->accessibleName()));
    QLabel::hide();
}

void FieldErrorLine::show(const QString &message)
{
    setText(QStringLiteral("\u26a0 ") + message);   // the field's frame carries the colour
    FieldIssueMarker::mark(m_field, QStringLiteral("error"), message);
    setVisible(true);
    m_field->setFocus(Qt::OtherFocusReason);
}

void FieldErrorLine::clear()
{
    setText({});
    FieldIssueMarker::mark(m_field, {}, {});
    setVisible(false);
}

} // namespace relaydesk
