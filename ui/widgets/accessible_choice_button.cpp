// SPDX-License-Identifier: MIT
#include "widgets/accessible_choice_button.h"

#include <QAccessible>
#include <QAccessibleWidget>
#include <QAction>
#include <QActionGroup>
#include <QButtonGroup>
#include <QToolButton>

namespace relaydesk {

namespace {

// An exclusive QActionGroup of its action, or an exclusive QButtonGroup of
// the button itself (the dashboard's 5 / 15 / 60 min rate windows).
bool inExclusiveGroup(const QToolButton *button)
{
    if (!button)
        return false;
    if (const QButtonGroup *buttons = button->group(); buttons && buttons->exclusive())
        return true;
    const QAction *action = button->defaultAction();
    const QActionGroup *group = action ? action->actionGroup() : nullptr;
    return group && group->exclusionPolicy() == QActionGroup::ExclusionPolicy::Exclusive;
}

class AccessibleChoiceButton final : public QAccessibleWidget {
public:
    explicit AccessibleChoiceButton(QToolButton *button) : QAccessibleWidget(button, QAccessible::RadioButton) {}

    QString text(QAccessible::Text t) const override
    {
        QToolButton *b = button();
        if (t == QAccessible::Name && b) {
            if (!b->accessibleName().isEmpty())
                return b->accessibleName();
            return QString(b->text()).remove(QLatin1Char('&'));
        }
        if (t == QAccessible::Description && b && b->accessibleDescription().isEmpty())
            return b->toolTip();
        return QAccessibleWidget::text(t);
    }

    QAccessible::State state() const override
    {
        QAccessible::State s = QAccessibleWidget::state();
        if (QToolButton *b = button()) {
            s.checkable = true;
            s.checked = b->isChecked();
        }
        return s;
    }

    QStringList actionNames() const override { return {pressAction()}; }

    void doAction(const QString &action) override
    {
        if (QToolButton *b = button(); b && b->isEnabled() && action == pressAction() && !b->isChecked())
            b->click();
    }

    QStringList keyBindingsForAction(const QString &) const override { return {}; }

private:
    QToolButton *button() const { return qobject_cast<QToolButton *>(object()); }
};

QAccessibleInterface *choiceButtonFactory(const QString &className, QObject *object)
{
    if (className == QLatin1String("QToolButton") && object && object->isWidgetType())
        if (auto *button = qobject_cast<QToolButton *>(object); inExclusiveGroup(button))
            return new AccessibleChoiceButton(button);
    return nullptr;
}

} // namespace

void installAccessibleChoiceButtons()
{
    static const bool once = (QAccessible::installFactory(choiceButtonFactory), true);
    (void)once;
}

} // namespace relaydesk
