// SPDX-License-Identifier: MIT
#pragma once

#include "broker/queues/message_attributes.h"

#include <QString>
#include <QWidget>

#include <optional>

class QTableWidget;

namespace relaydesk {

// Typed message attributes as a small table (Name, Type, Value) with Add
// and Remove buttons, for the send and publish dialogs. Types: String,
// Number, Binary (the value typed as base64, as the AWS CLI takes it);
// a custom label ("Number.float") may follow the type in the Type cell.
// GUI thread.
class MessageAttributesEditor final : public QWidget {
    Q_OBJECT
public:
    explicit MessageAttributesEditor(QWidget *parent = nullptr);

    // The attributes, or nothing with `error` set (empty name, bad base64,
    // a name twice); empty rows are skipped. The broker checks the rest.
    std::optional<MessageAttributes> attributes(QString *error) const;
    void setAttributes(const MessageAttributes &attributes);
    // Adds a row (tests and templates).
    void addAttribute(const QString &name, const QString &type, const QString &value);
    QTableWidget *table() const { return m_table; }

protected:
    // Tab from a row's Type goes to its Value (editing), Shift+Tab to its Name.
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    QTableWidget *m_table = nullptr;
};

} // namespace relaydesk
