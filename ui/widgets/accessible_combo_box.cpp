// SPDX-License-Identifier: MIT
#include "widgets/accessible_combo_box.h"

#include "widgets/accessible_names.h"

#include <QAbstractItemView>
#include <QAccessible>
#include <QAccessibleWidget>
#include <QComboBox>
#include <QLineEdit>

namespace relaydesk {

namespace {

// Child 0 is the popup's list, child 1 the text field of an editable combo box.
class AccessibleComboBox final : public QAccessibleWidget {
public:
    explicit AccessibleComboBox(QComboBox *combo) : QAccessibleWidget(combo, QAccessible::ComboBox) {}

    QString text(QAccessible::Text t) const override
    {
        QComboBox *box = combo();
        if (!box)
            return {};
        if (t == QAccessible::Name) {
            if (!box->accessibleName().isEmpty())
                return box->accessibleName();
            const QString label = accessibleLabelText(QAccessibleWidget::text(t));   // the buddy label's text
            return label.isEmpty() ? currentText(box) : label;
        }
        if (t == QAccessible::Value)
            return currentText(box);
        return QAccessibleWidget::text(t);
    }

    int childCount() const override
    {
        QComboBox *box = combo();
        return !box ? 0 : box->isEditable() ? 2 : 1;
    }

    QAccessibleInterface *child(int index) const override
    {
        QComboBox *box = combo();
        if (!box)
            return nullptr;
        if (index == 0)
            return QAccessible::queryAccessibleInterface(box->view());
        if (index == 1 && box->isEditable())
            return QAccessible::queryAccessibleInterface(box->lineEdit());
        return nullptr;
    }

    int indexOfChild(const QAccessibleInterface *child) const override
    {
        QComboBox *box = combo();
        if (!box || !child)
            return -1;
        if (child->object() == box->view())
            return 0;
        if (box->isEditable() && child->object() == box->lineEdit())
            return 1;
        return -1;
    }

    QAccessibleInterface *childAt(int x, int y) const override
    {
        QComboBox *box = combo();
        if (box && box->isEditable() && box->lineEdit()->rect().contains(x, y))
            return child(1);
        return nullptr;
    }

    // The text field of an editable combo box has the focus a person sees.
    QAccessibleInterface *focusChild() const override
    {
        QComboBox *box = combo();
        return box && box->isEditable() ? child(1) : nullptr;
    }

    QAccessible::State state() const override
    {
        QAccessible::State s = QAccessibleWidget::state();
        if (QComboBox *box = combo()) {
            s.expandable = true;
            s.expanded = box->view()->isVisible();
            s.editable = box->isEditable();
        }
        return s;
    }

    QStringList actionNames() const override { return {showMenuAction(), pressAction()}; }

    QString localizedActionDescription(const QString &action) const override
    {
        if (action == showMenuAction() || action == pressAction())
            return QComboBox::tr("Open the combo box selection popup");
        return {};
    }

    void doAction(const QString &action) override
    {
        QComboBox *box = combo();
        if (!box || (action != showMenuAction() && action != pressAction()))
            return;
        if (box->view()->isVisible())
            box->hidePopup();
        else
            box->showPopup();
    }

    QStringList keyBindingsForAction(const QString &) const override { return {}; }

private:
    QComboBox *combo() const { return qobject_cast<QComboBox *>(object()); }

    static QString currentText(QComboBox *box) { return box->isEditable() ? box->lineEdit()->text() : box->currentText(); }
};

QAccessibleInterface *comboBoxFactory(const QString &className, QObject *object)
{
    if (className == QLatin1String("QComboBox") && object && object->isWidgetType())
        if (auto *combo = qobject_cast<QComboBox *>(object))
            return new AccessibleComboBox(combo);
    return nullptr;
}

} // namespace

void installAccessibleComboBoxes()
{
    static const bool once = (QAccessible::installFactory(comboBoxFactory), true);
    (void)once;
}

} // namespace relaydesk
