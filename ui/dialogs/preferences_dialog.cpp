// SPDX-License-Identifier: MIT
#include "dialogs/preferences_dialog.h"

#include "widgets/appearance.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStandardPaths>
#include <QVBoxLayout>

#include <algorithm>

namespace relaydesk {

namespace {

constexpr Theme kThemes[] = {Theme::System, Theme::Light, Theme::Dark};

QSpinBox *portBox(QWidget *parent, quint16 value)
{
    auto *box = new QSpinBox(parent);
    box->setRange(1, 65535);
    box->setValue(value);
    box->setGroupSeparatorShown(false);
    return box;
}

} // namespace

PreferencesDialog::PreferencesDialog(QWidget *parent) : QDialog(parent), m_stored(Preferences::load())
{
    setObjectName(QStringLiteral("preferencesDialog"));
    setWindowTitle(tr("Preferences"));
    auto *form = new QFormLayout;

    m_theme = new QComboBox(this);
    m_theme->setObjectName(QStringLiteral("preferencesTheme"));
    for (Theme theme : kThemes)
        m_theme->addItem(themeName(theme), themeKey(theme));
    m_theme->setCurrentIndex(std::max(0, m_theme->findData(m_stored.theme)));
    connect(m_theme, &QComboBox::currentIndexChanged, this,
            [this] { applyTheme(themeFromKey(m_theme->currentData().toString())); }); // at once

    m_clock = new QComboBox(this);
    m_clock->setObjectName(QStringLiteral("preferencesClock"));
    m_clock->addItem(tr("Real"), int(ClockMode::Real));
    m_clock->addItem(tr("Warp"), int(ClockMode::Scaled));
    m_clock->addItem(tr("Virtual"), int(ClockMode::Virtual));
    m_clock->setCurrentIndex(std::max(0, m_clock->findData(int(m_stored.clockMode))));

    m_folder = new QLineEdit(m_stored.databaseFolder, this);
    m_folder->setObjectName(QStringLiteral("preferencesFolder"));
    m_folder->setPlaceholderText(QStandardPaths::writableLocation(QStandardPaths::AppDataLocation));
    // The folder shows whole (up to 72 characters' room; the tooltip has it always).
    const auto fitFolder = [this] {
        const QString shown = m_folder->text().isEmpty() ? m_folder->placeholderText() : m_folder->text();
        m_folder->setToolTip(shown);
        const QFontMetrics metrics = m_folder->fontMetrics();
        m_folder->setMinimumWidth(std::min(metrics.horizontalAdvance(shown) + metrics.averageCharWidth() * 3,
                                           metrics.averageCharWidth() * 72));
    };
    fitFolder();
    connect(m_folder, &QLineEdit::textChanged, this, fitFolder);
    auto *browse = new QPushButton(tr("&Browse…"), this);
    browse->setObjectName(QStringLiteral("preferencesBrowse"));
    connect(browse, &QPushButton::clicked, this, [this] {
        const QString chosen = QFileDialog::getExistingDirectory(this, tr("Folder for New Databases"),
                                                                 m_folder->text().isEmpty() ? m_folder->placeholderText()
                                                                                            : m_folder->text());
        if (!chosen.isEmpty())
            m_folder->setText(chosen);
    });
    auto *folderRow = new QHBoxLayout;
    folderRow->addWidget(m_folder, 1);
    folderRow->addWidget(browse);

    m_httpPort = portBox(this, m_stored.httpPort);
    m_httpPort->setObjectName(QStringLiteral("preferencesHttpPort"));
    m_amqpPort = portBox(this, m_stored.amqpPort);
    m_amqpPort->setObjectName(QStringLiteral("preferencesAmqpPort"));

    const auto row = [&](const QString &text, QWidget *input, QLayout *layout = nullptr) {
        auto *label = new QLabel(text, this);
        label->setBuddy(input);
        input->setAccessibleName(QString(text).remove(QLatin1Char('&')).remove(QLatin1Char(':')));
        if (layout)
            form->addRow(label, layout);
        else
            form->addRow(label, input);
    };
    row(tr("&Theme:"), m_theme);
    row(tr("&Clock mode at start:"), m_clock);
    row(tr("&New databases in:"), m_folder, folderRow);
    browse->setAccessibleName(tr("Browse for the folder for new databases"));
    row(tr("&HTTP port:"), m_httpPort);
    row(tr("&AMQP port (Service Bus):"), m_amqpPort);

    auto *note = new QLabel(tr("The theme applies at once. The clock mode, the folder and the ports take effect the "
                               "next time Relaydesk starts; a port given on the command line wins, and a port in use "
                               "is replaced by a free one."),
                            this);
    note->setObjectName(QStringLiteral("preferencesNote"));
    note->setWordWrap(true);
    note->setForegroundRole(QPalette::PlaceholderText);

    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    connect(buttons, &QDialogButtonBox::accepted, this, &PreferencesDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &PreferencesDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(note);
    layout->addWidget(buttons);
    const QList<QWidget *> chain{m_theme, m_clock, m_folder, browse, m_httpPort, m_amqpPort};
    for (qsizetype i = 0; i + 1 < chain.size(); ++i)
        setTabOrder(chain[i], chain[i + 1]);
}

Preferences PreferencesDialog::preferences() const
{
    Preferences chosen = m_stored;
    chosen.theme = m_theme->currentData().toString();
    chosen.clockMode = ClockMode(m_clock->currentData().toInt());
    chosen.databaseFolder = m_folder->text().trimmed();
    chosen.httpPort = quint16(m_httpPort->value());
    chosen.amqpPort = quint16(m_amqpPort->value());
    return chosen;
}

void PreferencesDialog::accept()
{
    preferences().save();
    QDialog::accept();
}

void PreferencesDialog::reject()
{
    applyTheme(themeFromKey(m_stored.theme)); // the theme tried goes back
    QDialog::reject();
}

} // namespace relaydesk
