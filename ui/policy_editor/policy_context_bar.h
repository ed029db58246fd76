// SPDX-License-Identifier: MIT
#pragma once

#include "policy/delivery_policy.h"
#include "policy/policy_validation.h"

#include <QWidget>

class QAction;
class QCheckBox;
class QComboBox;
class QMenu;
class QPushButton;
class QToolButton;

namespace relaydesk {

// The row above the policy editor: the JSON form (switching it asks for a
// conversion), what the policy is checked for (endpoint protocol, raw
// delivery), the presets menu, open and save. GUI thread only; owns its child
// widgets, not the menu and actions it is given.
class PolicyContextBar final : public QWidget {
    Q_OBJECT
public:
    PolicyContextBar(QMenu *presets, QAction *open, QAction *save, QWidget *parent = nullptr);
    ~PolicyContextBar() override;
    PolicyContextBar(const PolicyContextBar &) = delete;
    PolicyContextBar &operator=(const PolicyContextBar &) = delete;

    PolicyCheckContext checkContext() const;
    void setProtocol(EndpointProtocol protocol);   // emits contextChanged() when it changes
    void setRawDelivery(bool raw);                 // emits contextChanged() when it changes

    PolicyForm selectedForm() const;
    // Shows `form` as selected without emitting formRequested().
    void showForm(PolicyForm form);

    // The inputs in keyboard order.
    QList<QWidget *> focusChain() const;

signals:
    // The user chose another form; the editor converts or refuses (and then
    // calls showForm() with the form that stays).
    void formRequested(PolicyForm form);
    void contextChanged();

private:
    QComboBox *m_formSelector = nullptr;
    QComboBox *m_protocolSelector = nullptr;
    QCheckBox *m_rawDelivery = nullptr;
    QPushButton *m_presets = nullptr;
    QToolButton *m_open = nullptr;
    QToolButton *m_save = nullptr;
};

} // namespace relaydesk
