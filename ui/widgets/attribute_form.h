// SPDX-License-Identifier: MIT
#pragma once

#include "widgets/attribute_descriptions.h"

#include <QMap>
#include <QPair>
#include <QWidget>

#include <vector>

class QLabel;

namespace relaydesk {

class FieldError;

// Attribute values by wire name, as the broker reads and writes them.
using AttributeValues = QMap<QString, QString>;
// The broker's queues as (name, ARN), for dead-letter choices.
using QueueChoices = QList<QPair<QString, QString>>;

// The form of an entity's attributes, built from its AttributeDescription
// table (one row per attribute, grouped in sections): label (the input's
// buddy and accessible name), the input, its unit, and a line with the range,
// the default and the one-line explanation; under it an error line for the
// broker's message. Shared by the attribute editor and the create dialogs.
// Every input's objectName is the attribute's wire name.
//
// Values are text as the wire carries them; the form never judges them (the
// broker does, and its message is shown with showBrokerError). The baseline
// is what setValues() last showed; changes() is what differs from it.
// GUI thread only; owns its child widgets.
class AttributeForm final : public QWidget {
    Q_OBJECT
public:
    enum class Mode { Create, Edit };

    AttributeForm(const std::vector<AttributeDescription> &rows, Mode mode, QWidget *parent = nullptr);
    ~AttributeForm() override;
    AttributeForm(const AttributeForm &) = delete;
    AttributeForm &operator=(const AttributeForm &) = delete;

    // Shows `values` (an absent attribute shows its default, or empty) and
    // makes them the baseline; clears the error lines. Never emits edited().
    void setValues(const AttributeValues &values);
    // Every writable row's value (FIFO-only rows only on FIFO entities).
    AttributeValues values() const;
    // The writable rows whose value differs from the baseline.
    AttributeValues changes() const;
    // The writable rows whose value differs from its default (create dialogs).
    AttributeValues nonDefaultValues() const;
    bool isModified() const { return !changes().isEmpty(); }

    // Shows or hides the FIFO-only rows.
    void setFifo(bool fifo);
    bool isFifo() const { return m_fifo; }
    // Fills the dead-letter choices, keeping what is selected.
    void setQueueChoices(const QueueChoices &queues);

    // Shows `message` at the row it names (attributeNamedIn over the rows'
    // names, the changed ones first); false when it names no row.
    bool showBrokerError(const QString &message, const QStringList &preferred = {});
    void showError(const QString &name, const QString &message);
    // Checks every writable row against the range printed under it
    // (widgets/attribute_range_check.h) and shows each refusal at its row, in
    // form order, the keyboard on the first. Returns how many were refused.
    int checkRanges();
    void clearErrors();
    QString errorAt(const QString &name) const;

    // The input of attribute `name` (the combo box for a dead-letter row), or null.
    QWidget *input(const QString &name) const;
    // The inputs in keyboard order.
    QList<QWidget *> focusChain() const;

signals:
    // The user changed an input.
    void edited();

private:
    struct Row {
        AttributeDescription description;
        QWidget *input = nullptr;        // QLineEdit, QCheckBox, QComboBox, QPlainTextEdit, QLabel (read-only)
        QWidget *extra = nullptr;        // QueueRedrive: the max-receive-count QLineEdit
        QWidget *rowWidget = nullptr;    // hidden together for FIFO-only rows
        QLabel *label = nullptr;
        FieldError *error = nullptr;
    };

    void buildRow(Row &row, QWidget *section);
    QWidget *buildInput(Row &row, QWidget *parent);
    QString valueOf(const Row &row) const;
    void setValueOf(Row &row, const QString &value);
    bool writable(const Row &row) const;
    void setDeadLetterChoice(Row &row, const QString &arn);
    void onEdited();

    std::vector<Row> m_rows;
    AttributeValues m_baseline;
    Mode m_mode = Mode::Edit;
    QueueChoices m_queues;
    bool m_fifo = false;
    bool m_updating = false;
};

} // namespace relaydesk
