// SPDX-License-Identifier: MIT
#include "dialogs/message_attributes_editor.h"

#include "widgets/accessible_names.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

enum Column { NameColumn, TypeColumn, ValueColumn };

} // namespace

MessageAttributesEditor::MessageAttributesEditor(QWidget *parent) : QWidget(parent)
{
    m_table = new QTableWidget(0, 3, this);
    m_table->setObjectName(QStringLiteral("attributesTable"));
    m_table->setAccessibleName(tr("Attributes"));
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Type"), tr("Value")});
    m_table->horizontalHeader()->setSectionResizeMode(ValueColumn, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setTabKeyNavigation(false);   // Tab leaves the table; arrows move inside
    m_table->setMinimumHeight(90);
    auto *add = new QPushButton(tr("&Add attribute"), this);
    add->setObjectName(QStringLiteral("addAttribute"));
    auto *remove = new QPushButton(tr("Re&move attribute"), this);
    remove->setObjectName(QStringLiteral("removeAttribute"));
    connect(add, &QPushButton::clicked, this, [this] {
        addAttribute({}, QStringLiteral("String"), {});
        m_table->setCurrentCell(m_table->rowCount() - 1, NameColumn);
        m_table->setFocus();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0)
            m_table->removeRow(m_table->currentRow());
    });
    auto *buttons = new QVBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch();
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addLayout(buttons);
}

void MessageAttributesEditor::addAttribute(const QString &name, const QString &type, const QString &value)
{
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, NameColumn, new QTableWidgetItem(name));
    auto *types = new QComboBox(m_table);
    types->setEditable(true);   // custom labels: "Number.float"
    types->addItems({QStringLiteral("String"), QStringLiteral("Number"), QStringLiteral("Binary")});
    types->setCurrentText(type);
    types->setAccessibleName(tr("Type"));
    nameEditableComboText(types);
    m_table->setCellWidget(row, TypeColumn, types);
    m_table->setItem(row, ValueColumn, new QTableWidgetItem(value));
    types->installEventFilter(this);
    types->lineEdit()->installEventFilter(this);
}

bool MessageAttributesEditor::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() != QEvent::KeyPress)
        return QWidget::eventFilter(watched, event);
    const int key = static_cast<QKeyEvent *>(event)->key();
    if (key != Qt::Key_Tab && key != Qt::Key_Backtab)
        return QWidget::eventFilter(watched, event);
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QWidget *types = m_table->cellWidget(row, TypeColumn);
        if (!types || (watched != types && !types->isAncestorOf(qobject_cast<QWidget *>(watched))))
            continue;
        const int column = key == Qt::Key_Tab ? ValueColumn : NameColumn;
        m_table->setCurrentCell(row, column);
        m_table->setFocus(Qt::TabFocusReason);
        if (QTableWidgetItem *item = m_table->item(row, column))
            m_table->editItem(item);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

std::optional<MessageAttributes> MessageAttributesEditor::attributes(QString *error) const
{
    MessageAttributes out;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const auto text = [&](int column) {
            const QTableWidgetItem *item = m_table->item(row, column);
            return item ? item->text() : QString();
        };
        const QString name = text(NameColumn).trimmed();
        const QString value = text(ValueColumn);
        const auto *types = qobject_cast<QComboBox *>(m_table->cellWidget(row, TypeColumn));
        const QString type = types ? types->currentText().trimmed() : QStringLiteral("String");
        if (name.isEmpty() && value.isEmpty())
            continue;
        if (name.isEmpty()) {
            *error = tr("Attribute %1 has a value but no name.").arg(row + 1);
            return std::nullopt;
        }
        if (out.count(name.toStdString())) {
            *error = tr("The attribute %1 is given twice.").arg(name);
            return std::nullopt;
        }
        MessageAttributeValue attribute;
        attribute.dataType = type.toStdString();
        if (attribute.isBinary()) {
            const auto decoded = QByteArray::fromBase64Encoding(value.toLatin1(), QByteArray::AbortOnBase64DecodingErrors);
            if (!decoded) {
                *error = tr("The Binary attribute %1 must be base64 (e.g. aGVsbG8=).").arg(name);
                return std::nullopt;
            }
            attribute.binaryValue = decoded.decoded.toStdString();
        } else {
            attribute.stringValue = value.toStdString();
        }
        out[name.toStdString()] = std::move(attribute);
    }
    return out;
}

void MessageAttributesEditor::setAttributes(const MessageAttributes &attributes)
{
    m_table->setRowCount(0);
    for (const auto &[name, value] : attributes)
        addAttribute(QString::fromStdString(name), QString::fromStdString(value.dataType),
                     value.isBinary() ? QString::fromLatin1(QByteArray::fromStdString(value.binaryValue).toBase64())
                                      : QString::fromStdString(value.stringValue));
}

} // namespace relaydesk
