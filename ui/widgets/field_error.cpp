// SPDX-License-Identifier: MIT
#include "widgets/field_error.h"

#include "widgets/field_issue_marker.h"

#include <QAbstractButton>
#include <QAbstractSpinBox>
#include <QComboBox>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QTextEdit>

namespace relaydesk {
namespace {

bool isNameCharacter(QChar c)
{
    return c.isLetterOrNumber() || c == QLatin1Char('_');
}

// The first position where `name` stands as a whole word in `text`, or -1.
qsizetype wholeWordAt(const QString &text, const QString &name)
{
    for (qsizetype at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1)) {
        const qsizetype end = at + name.size();
        const bool startOk = at == 0 || !isNameCharacter(text.at(at - 1));
        const bool endOk = end == text.size() || !isNameCharacter(text.at(end));
        if (startOk && endOk)
            return at;
    }
    return -1;
}

} // namespace

FieldError::FieldError(QWidget *field, QWidget *parent)
    : FieldError(field, field ? field->objectName() : QString(), parent)
{
}

FieldError::FieldError(QWidget *field, const QString &name, QWidget *parent) : QLabel(parent), m_field(field)
{
    setObjectName(name + QStringLiteral("Error"));
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    hide();
    if (auto *line = qobject_cast<QLineEdit *>(field))
        connect(line, &QLineEdit::textEdited, this, &FieldError::onFieldEdited);
    else if (auto *combo = qobject_cast<QComboBox *>(field))
        connect(combo, &QComboBox::currentTextChanged, this, &FieldError::onFieldEdited);
    else if (auto *spin = qobject_cast<QAbstractSpinBox *>(field))
        connect(spin, &QAbstractSpinBox::editingFinished, this, &FieldError::onFieldEdited);
    else if (auto *plain = qobject_cast<QPlainTextEdit *>(field))
        connect(plain, &QPlainTextEdit::textChanged, this, &FieldError::onFieldEdited);
    else if (auto *rich = qobject_cast<QTextEdit *>(field))
        connect(rich, &QTextEdit::textChanged, this, &FieldError::onFieldEdited);
    else if (auto *button = qobject_cast<QAbstractButton *>(field))
        connect(button, &QAbstractButton::toggled, this, &FieldError::onFieldEdited);
}

void FieldError::onFieldEdited()
{
    if (m_message.isEmpty())
        return;
    m_message.clear();
    FieldIssueMarker::mark(m_field, QString(), QString());
    // Blank but in place: the line's height stays until the next check.
    const int height = this->height();
    setText(QString());
    setMinimumHeight(height);
}

void FieldError::reserveLine()
{
    m_reserved = true;
    setMinimumHeight(fontMetrics().height());
    show();
}

void FieldError::setMessage(const QString &message)
{
    m_message = message;
    setMinimumHeight(0);
    if (m_field)
        FieldIssueMarker::mark(m_field, message.isEmpty() ? QString() : QStringLiteral("error"), message);
    // The field's frame carries the colour; the sign marks the line in every palette.
    setText(message.isEmpty() ? QString() : QStringLiteral("\u26a0 ") + message);
    setVisible(!message.isEmpty() || m_reserved);
    if (m_reserved)
        setMinimumHeight(fontMetrics().height());
    if (!message.isEmpty() && m_field && m_field->isVisible())
        m_field->setFocus(Qt::OtherFocusReason);
}

QString attributeNamedIn(const QString &message, const QStringList &names)
{
    QString found;
    qsizetype foundAt = -1;
    for (const QString &name : names) {
        const qsizetype at = wholeWordAt(message, name);
        if (at >= 0 && (foundAt < 0 || at < foundAt)) {
            found = name;
            foundAt = at;
        }
    }
    return found;
}

} // namespace relaydesk
