// SPDX-License-Identifier: MIT
#include "widgets/tag_editor.h"

#include "widgets/field_error.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace relaydesk {

TagEditor::TagEditor(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("tagEditor"));
    m_table = new QTableWidget(0, 2, this);
    m_table->setObjectName(QStringLiteral("tags"));
    m_table->setAccessibleName(tr("Tags"));
    m_table->setHorizontalHeaderLabels({tr("Key"), tr("Value")});
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_table->setColumnWidth(0, 180);
    m_table->verticalHeader()->hide();
    m_table->setTabKeyNavigation(false);
    m_table->setMinimumHeight(m_table->verticalHeader()->defaultSectionSize() * 4);
    m_table->setMaximumHeight(m_table->verticalHeader()->defaultSectionSize() * 7);
    connect(m_table, &QTableWidget::itemChanged, this, [this] {
        if (!m_updating)
            emit edited();
    });

    auto *add = new QPushButton(tr("Add ta&g"), this);
    add->setObjectName(QStringLiteral("addTag"));
    connect(add, &QPushButton::clicked, this, [this] {
        m_updating = true;
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem);
        m_table->setItem(row, 1, new QTableWidgetItem);
        m_updating = false;
        m_table->setCurrentCell(row, 0);
        m_table->setFocus();
        m_table->editItem(m_table->item(row, 0));
    });
    auto *remove = new QPushButton(tr("Re&move tag"), this);
    remove->setObjectName(QStringLiteral("removeTag"));
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row < 0)
            return;
        m_table->removeRow(row);
        emit edited();
    });
    m_add = add;
    m_remove = remove;
    m_error = new FieldError(m_table, QStringLiteral("tags"), this);

    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
    layout->addLayout(buttons);
    layout->addWidget(m_error);
}

TagEditor::~TagEditor() = default;

void TagEditor::setTags(const Tags &tags)
{
    m_updating = true;
    m_table->setRowCount(0);
    for (const auto &[key, value] : tags) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(QString::fromStdString(key)));
        m_table->setItem(row, 1, new QTableWidgetItem(QString::fromStdString(value)));
    }
    m_updating = false;
    m_baseline = tags;
    showError({});
}

TagEditor::Tags TagEditor::tags() const
{
    Tags out;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem *key = m_table->item(row, 0);
        const QTableWidgetItem *value = m_table->item(row, 1);
        if (key && !key->text().trimmed().isEmpty())
            out[key->text().trimmed().toStdString()] = value ? value->text().toStdString() : std::string();
    }
    return out;
}

void TagEditor::showError(const QString &message)
{
    m_error->setMessage(message);
}

QList<QWidget *> TagEditor::focusChain() const
{
    return {m_table, m_add, m_remove};
}

} // namespace relaydesk
