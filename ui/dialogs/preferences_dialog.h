// SPDX-License-Identifier: MIT
#pragma once

#include "models/preferences.h"

#include <QDialog>

class QComboBox;
class QLineEdit;
class QSpinBox;

namespace relaydesk {

// Edit ▸ Preferences… (Ctrl+,): the theme (follow the system, light, dark),
// the clock mode the broker starts in, the folder for new databases, and the
// HTTP and AMQP ports. The theme applies as it is chosen (Cancel takes it
// back); OK stores everything (Preferences::save); the ports, the clock mode
// and the folder take effect at the next start, as the dialog says. Every
// input is named by its label and reachable by Tab.
//
// Ownership: a child of its parent, as any dialog. Thread: GUI.
class PreferencesDialog final : public QDialog {
    Q_OBJECT
public:
    explicit PreferencesDialog(QWidget *parent = nullptr);

    // What the inputs say now.
    Preferences preferences() const;

    void accept() override;
    void reject() override;

    QComboBox *themeBox() const { return m_theme; }
    QComboBox *clockBox() const { return m_clock; }
    QLineEdit *folderEdit() const { return m_folder; }
    QSpinBox *httpPortBox() const { return m_httpPort; }
    QSpinBox *amqpPortBox() const { return m_amqpPort; }

private:
    Preferences m_stored;
    QComboBox *m_theme = nullptr;
    QComboBox *m_clock = nullptr;
    QLineEdit *m_folder = nullptr;
    QSpinBox *m_httpPort = nullptr;
    QSpinBox *m_amqpPort = nullptr;
};

} // namespace relaydesk
