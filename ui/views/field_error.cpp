// SPDX-License-Identifier: MIT
#include "views/field_error.h"

#include "views/field_issue_marker.h"

#include <QLabel>

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

QLabel *makeErrorLine(const QString &name, QWidget *parent)
{
    auto *line = new QLabel(parent);
    line->setObjectName(name + QStringLiteral("Error"));
    line->setWordWrap(true);
    line->setTextInteractionFlags(Qt::TextSelectableByMouse);
    line->setStyleSheet(QStringLiteral("color: #d93025;"));   // the policy editor's error colour
    line->hide();
    return line;
}

void showFieldError(QWidget *input, QLabel *line, const QString &message)
{
    if (input)
        FieldIssueMarker::mark(input, message.isEmpty() ? QString() : QStringLiteral("error"), message);
    if (line) {
        line->setText(message);
        line->setVisible(!message.isEmpty());
    }
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
