// SPDX-License-Identifier: MIT
#include "dialogs/quick_entity_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPointer>
#include <QPushButton>
#include <QVBoxLayout>

namespace relaydesk {

QuickEntityDialog::QuickEntityDialog(const QString &title, const QString &explanation, QList<Field> fields,
                                     Submit submit, QWidget *parent)
    : QDialog(parent)
    , m_submit(std::move(submit))
{
    setObjectName(QStringLiteral("quickEntityDialog"));
    setWindowTitle(title);
    setAttribute(Qt::WA_DeleteOnClose);
    auto *layout = new QVBoxLayout(this);
    if (!explanation.isEmpty()) {
        auto *text = new QLabel(explanation, this);
        text->setWordWrap(true);
        text->setTextFormat(Qt::PlainText);
        layout->addWidget(text);
    }
    auto *form = new QFormLayout;
    for (const Field &field : fields) {
        QWidget *editor = nullptr;
        if (field.multiLine) {
            auto *edit = new QPlainTextEdit(field.value, this);
            edit->setTabChangesFocus(true);
            edit->setMinimumHeight(90);
            editor = edit;
        } else if (!field.choices.isEmpty()) {
            auto *combo = new QComboBox(this);
            combo->setEditable(true);
            combo->addItems(field.choices);
            combo->setCurrentText(field.value);
            editor = combo;
        } else {
            editor = new QLineEdit(field.value, this);
        }
        auto *label = new QLabel(field.label, this);
        label->setBuddy(editor);
        editor->setAccessibleName(QString(field.label).remove(QLatin1Char('&')).remove(QLatin1Char(':')));
        form->addRow(label, editor);
        m_fields << editor;
    }
    layout->addLayout(form);
    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("dialogError"));
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->hide();
    layout->addWidget(m_error);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(m_buttons);
    resize(qMax(sizeHint().width(), 460), sizeHint().height());
}

QStringList QuickEntityDialog::values() const
{
    QStringList values;
    for (QWidget *field : m_fields) {
        if (auto *edit = qobject_cast<QLineEdit *>(field))
            values << edit->text();
        else if (auto *text = qobject_cast<QPlainTextEdit *>(field))
            values << text->toPlainText();
        else if (auto *combo = qobject_cast<QComboBox *>(field))
            values << combo->currentText();
    }
    return values;
}

void QuickEntityDialog::accept()
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(false);
    m_error->hide();
    const QPointer<QuickEntityDialog> self(this);
    m_submit(values(), [self](const QString &error) {
        if (!self)
            return;
        self->m_buttons->button(QDialogButtonBox::Ok)->setEnabled(true);
        if (error.isEmpty()) {
            self->QDialog::accept();
            return;
        }
        self->m_error->setText(error);
        self->m_error->show();
    });
}

} // namespace relaydesk
