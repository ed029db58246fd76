// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>
#include <QString>
#include <QStringList>

namespace relaydesk {

// Errors at the place of the problem (docs/window.md "How the window should feel"): the line under one
// input that says what is wrong with it — the broker's message verbatim, as
// plain text, selectable — while the input wears the FieldIssueMarker frame.
// Hidden while the field is fine. With no field it is the message line of a
// whole form (a refusal that names no field). Its objectName is NAME
// "Error" (NAME: the field's objectName unless given). Once the user edits
// the field the message is taken back (the problem may be fixed; the next
// check says) but its line keeps its place, so nothing moves under the
// mouse while the user works. Owned by its parent widget; GUI thread only.
class FieldError final : public QLabel {
    Q_OBJECT
public:
    FieldError(QWidget *field, QWidget *parent);
    FieldError(QWidget *field, const QString &name, QWidget *parent);

    // Shows `message` under the field and frames the field; an empty message
    // clears both and hides the line. A shown message gives the field the focus.
    void setMessage(const QString &message);
    void clearMessage() { setMessage({}); }
    // The message shown (without the warning sign); empty when hidden.
    const QString &message() const { return m_message; }
    QWidget *field() const { return m_field; }
    // Keeps one line's room while there is no message, so a message that
    // comes (one line) moves nothing below it (the Send dialog).
    void reserveLine();

private:
    void onFieldEdited();

    QWidget *m_field = nullptr;
    QString m_message;
    bool m_reserved = false;
};

// Which of `names` (attribute or parameter names) a broker error message is
// about: the one it names as a whole word ("… parameter VisibilityTimeout …",
// "… Reason: DeliveryPolicy: …"), preferring the earliest mention; empty when
// it names none. Pure.
QString attributeNamedIn(const QString &message, const QStringList &names);

} // namespace relaydesk
