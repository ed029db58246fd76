// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QStringList>

class QLabel;
class QWidget;

namespace relaydesk {

// Errors at the place of the problem (WINDOW.md "Feel"): the input gets the
// FieldIssueMarker frame and the line under it the broker's message verbatim.
// GUI thread only.

// A hidden, word-wrapped, selectable error line (objectName "NAMEError") in
// the editor's error colour, owned by `parent`.
QLabel *makeErrorLine(const QString &name, QWidget *parent);
// Shows `message` at `input` and in `line`; an empty message clears both.
void showFieldError(QWidget *input, QLabel *line, const QString &message);

// Which of `names` (attribute or parameter names) a broker error message is
// about: the one it names as a whole word ("… parameter VisibilityTimeout …",
// "… Reason: DeliveryPolicy: …"), preferring the earliest mention; empty when
// it names none. Pure.
QString attributeNamedIn(const QString &message, const QStringList &names);

} // namespace relaydesk
