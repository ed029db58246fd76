// SPDX-License-Identifier: MIT
#pragma once

#include <QLabel>

namespace relaydesk {

// The line under one input that says what is wrong with it (the broker's
// message verbatim), together with the input's FieldIssueMarker frame.
// Hidden while the field is fine. Owned by its parent widget; GUI thread.
class FieldErrorLine final : public QLabel {
    Q_OBJECT
public:
    FieldErrorLine(QWidget *field, QWidget *parent);

    // Shows `message` under the field, frames it and gives it the focus.
    void show(const QString &message);
    void clear();
    QWidget *field() const { return m_field; }

private:
    QWidget *m_field = nullptr;
};

} // namespace relaydesk
