// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>
#include <QStringList>

#include <functional>

class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace relaydesk {

// A small form dialog for one broker call: labelled fields, OK runs
// `submit(values, done)`; `done(QString())` closes the dialog, `done(error)`
// shows the broker's message under the form and keeps it open (SPEC: errors
// at the place of the problem). Used for the create / send / publish /
// subscribe operations until their full dialogs take over
// (views/entity_dialogs.cpp is the one place that chooses).
// Thread: GUI. Deletes itself when closed.
class QuickEntityDialog final : public QDialog {
    Q_OBJECT
public:
    struct Field {
        QString label;        // with a mnemonic, e.g. "&Name:"
        QString value;        // initial text
        bool multiLine = false;
        QStringList choices;  // non-empty: an editable combo box
    };
    using Submit = std::function<void(const QStringList &values, std::function<void(const QString &error)> done)>;

    QuickEntityDialog(const QString &title, const QString &explanation, QList<Field> fields, Submit submit,
                      QWidget *parent = nullptr);

    QStringList values() const;
    // The field widgets, in order (tests fill them).
    QList<QWidget *> fieldWidgets() const { return m_fields; }

    void accept() override;

private:
    QList<QWidget *> m_fields;
    QLabel *m_error = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    Submit m_submit;
};

} // namespace relaydesk
