// SPDX-License-Identifier: MIT
// How the window looks and what Preferences keeps: a focus ring a person can
// see in both palettes, tree icons that stay visible when selected and tell
// a FIFO queue from a standard one, and the Preferences dialog (named
// inputs, Tab order, the theme at once, the rest stored for the next start,
// the command line winning).
#include "window_test_support.h"

#include "dialogs/preferences_dialog.h"
#include "models/entity_tree_model.h"
#include "models/preferences.h"
#include "views/main_window.h"
#include "widgets/appearance.h"
#include "support/test_main.h"

#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QLineEdit>
#include <QPainter>
#include <QSettings>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QStandardPaths>
#include <QStyleFactory>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QVBoxLayout>

#include <cmath>

using namespace relaydesk;
using namespace relaydesk::testing;

namespace {

double luminance(const QColor &colour)
{
    const auto channel = [](double value) {
        value /= 255.0;
        return value <= 0.03928 ? value / 12.92 : std::pow((value + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) + 0.0722 * channel(colour.blue());
}

// WCAG contrast ratio, 1 to 21.
double contrast(const QColor &a, const QColor &b)
{
    const double x = luminance(a) + 0.05;
    const double y = luminance(b) + 0.05;
    return std::max(x, y) / std::min(x, y);
}

// Pixels of `image` within a small distance of `colour`.
int pixelsLike(const QImage &image, const QColor &colour)
{
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (std::abs(pixel.red() - colour.red()) + std::abs(pixel.green() - colour.green())
                    + std::abs(pixel.blue() - colour.blue()) < 24)
                ++count;
        }
    return count;
}

// The average colour of the pixels an icon draws (alpha over half).
QColor inkOf(const QImage &image)
{
    double red = 0, green = 0, blue = 0;
    int count = 0;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x) {
            const QColor pixel = image.pixelColor(x, y);
            if (pixel.alpha() > 128) {
                red += pixel.red();
                green += pixel.green();
                blue += pixel.blue();
                ++count;
            }
        }
    return count ? QColor(int(red / count), int(green / count), int(blue / count)) : QColor();
}

// The rows of a test run in both palettes.
void addThemeRows()
{
    QTest::addColumn<int>("theme");
    QTest::newRow("light") << int(Theme::Light);
    QTest::newRow("dark") << int(Theme::Dark);
}

} // namespace

class AppearanceTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_settingsDir;

private slots:
    void initTestCase() { keepSettingsIn(m_settingsDir); }
    void init() { QSettings(QStringLiteral("Relaydesk"), QStringLiteral("Relaydesk")).clear(); }
    void cleanup() { applyTheme(Theme::System); }

    // Dark theme (issue 34 defect 8): an unchecked check box and an empty
    // text field show their edges at 3:1 or more against the window and the
    // field's own background (WCAG non-text contrast).
    void darkTheme_checkBoxAndFieldEdgesAreVisible()
    {
        applyTheme(Theme::Dark);
        const QPalette palette = QApplication::palette();
        const auto visible = [&](const QImage &image) {
            int count = 0;
            for (int y = 0; y < image.height(); ++y)
                for (int x = 0; x < image.width(); ++x) {
                    const QColor pixel = image.pixelColor(x, y);
                    if (contrast(pixel, palette.color(QPalette::Window)) >= 3.0
                        && contrast(pixel, palette.color(QPalette::Base)) >= 3.0)
                        ++count;
                }
            return count;
        };
        QWidget holder;
        auto *layout = new QVBoxLayout(&holder);
        auto *box = new QCheckBox(&holder); // no text: only its indicator is drawn
        auto *field = new QLineEdit(&holder);
        layout->addWidget(box);
        layout->addWidget(field);
        holder.resize(240, 90);
        holder.show();
        QVERIFY(QTest::qWaitForWindowExposed(&holder));
        const int indicator = box->style()->pixelMetric(QStyle::PM_IndicatorWidth, nullptr, box);
        const int boxEdge = visible(box->grab().toImage());
        QVERIFY2(boxEdge >= 3 * (indicator - 2), qPrintable(QStringLiteral("%1 visible edge pixels").arg(boxEdge)));
        const int fieldEdge = visible(field->grab().toImage());
        QVERIFY2(fieldEdge >= 2 * (field->width() - 8), qPrintable(QStringLiteral("%1 visible edge pixels").arg(fieldEdge)));
        QVERIFY(controlEdge(QApplication::palette()).isValid());
        applyTheme(Theme::Light);
        QVERIFY(!controlEdge(QApplication::palette()).isValid()); // the light palette keeps the style's edges
    }

    void focusRing_isVisibleInBothPalettes_data() { addThemeRows(); }

    void focusRing_isVisibleInBothPalettes()
    {
        QFETCH(int, theme);
        applyTheme(Theme(theme));
        const QPalette palette = QApplication::palette();
        QVERIFY(contrast(palette.color(QPalette::Highlight), palette.color(QPalette::Base)) >= 3.0);
        QStandardItemModel model(3, 2);
        for (int row = 0; row < 3; ++row)
            for (int column = 0; column < 2; ++column)
                model.setItem(row, column, new QStandardItem(QStringLiteral("cell %1 %2").arg(row).arg(column)));
        QTableView table;
        table.setModel(&model);
        table.resize(300, 160);
        table.show();
        QVERIFY(QTest::qWaitForWindowExposed(&table));
        table.setFocus();
        QTRY_VERIFY(table.hasFocus());
        table.selectionModel()->setCurrentIndex(model.index(1, 0), QItemSelectionModel::NoUpdate);
        const QImage image = table.viewport()->grab().toImage();
        // A 2-pixel ring around the current cell: at least both its long edges, twice over.
        const int ring = pixelsLike(image, palette.color(QPalette::Highlight));
        const int cellWidth = table.columnWidth(0);
        QVERIFY2(ring >= 4 * (cellWidth - 8), qPrintable(QStringLiteral("%1 ring pixels, cell %2 wide").arg(ring).arg(cellWidth)));
    }

    void icons_fifoDiffersFromStandard_andStayVisibleWhenSelected_data() { addThemeRows(); }

    void icons_fifoDiffersFromStandard_andStayVisibleWhenSelected()
    {
        QFETCH(int, theme);
        applyTheme(Theme(theme));
        const QImage standard = entityIcon("queue").pixmap(16, 16).toImage();
        const QImage fifo = entityIcon("queue-fifo").pixmap(16, 16).toImage();
        int differ = 0;
        int drawn = 0;
        for (int y = 0; y < 16; ++y)
            for (int x = 0; x < 16; ++x) {
                const bool a = standard.pixelColor(x, y).alpha() > 128;
                const bool b = fifo.pixelColor(x, y).alpha() > 128;
                drawn += a || b;
                differ += a != b;
            }
        QVERIFY2(differ * 3 >= drawn, qPrintable(QStringLiteral("%1 of %2 pixels differ").arg(differ).arg(drawn)));
        QVERIFY(contrast(inkOf(standard), inkOf(fifo)) > 1.2 || inkOf(standard).hue() != inkOf(fifo).hue());
        const QColor selection = QApplication::palette().color(QPalette::Highlight);
        for (const char *name : {"topic", "queue", "queue-fifo", "queue-dlq", "subscription"}) {
            const QColor ink = inkOf(entityIcon(name).pixmap(16, 16, QIcon::Selected).toImage());
            QVERIFY2(contrast(ink, selection) >= 3.0,
                     qPrintable(QStringLiteral("%1: %2 on %3").arg(QLatin1String(name), ink.name(), selection.name())));
        }
    }

    void preferences_namedReachableAppliedAndStored()
    {
        MainWindow window;
        QAction *action = window.findChild<QAction *>(QStringLiteral("preferencesAction"));
        QVERIFY(action);
        QCOMPARE(action->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_Comma));

        PreferencesDialog dialog(&window);
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        // Every input is named by its label, and Tab goes through them in order.
        const QList<QWidget *> inputs{dialog.themeBox(), dialog.clockBox(), dialog.folderEdit(),
                                      dialog.findChild<QWidget *>(QStringLiteral("preferencesBrowse")),
                                      dialog.httpPortBox(), dialog.amqpPortBox()};
        for (QLabel *label : dialog.findChildren<QLabel *>())
            if (label->buddy())
                QCOMPARE(label->buddy()->accessibleName(), label->text().remove(QLatin1Char('&')).remove(QLatin1Char(':')));
        dialog.themeBox()->setFocus();
        for (qsizetype i = 1; i < inputs.size(); ++i) {
            QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
            QVERIFY2(QApplication::focusWidget() == inputs[i]
                         || (inputs[i] && QApplication::focusWidget()->parentWidget() == inputs[i]),
                     qPrintable(QApplication::focusWidget()->objectName()));
        }
        QVERIFY(dialog.findChild<QLabel *>(QStringLiteral("preferencesNote"))->text().contains(QStringLiteral("next time")));

        // The theme at once; Cancel takes it back.
        const QColor before = QApplication::palette().color(QPalette::Window);
        dialog.themeBox()->setCurrentIndex(dialog.themeBox()->findData(QStringLiteral("dark")));
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 80);
        dialog.reject();
        QCOMPARE(QApplication::palette().color(QPalette::Window), before);

        PreferencesDialog again(&window);
        again.themeBox()->setCurrentIndex(again.themeBox()->findData(QStringLiteral("dark")));
        again.clockBox()->setCurrentIndex(again.clockBox()->findData(int(ClockMode::Virtual)));
        again.folderEdit()->setText(m_settingsDir.filePath(QStringLiteral("databases")));
        again.httpPortBox()->setValue(9000);
        again.amqpPortBox()->setValue(5700);
        again.accept();
        const Preferences stored = Preferences::load();
        QCOMPARE(stored.theme, QStringLiteral("dark"));
        QCOMPARE(stored.clockMode, ClockMode::Virtual);
        QCOMPARE(stored.httpPort, quint16(9000));
        QCOMPARE(stored.amqpPort, quint16(5700));
        QCOMPARE(stored.databaseFolder, m_settingsDir.filePath(QStringLiteral("databases")));
    }

    // What the command line gives wins; the rest comes from the preferences.
    void preferences_fillWhatTheCommandLineLeavesOut_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("port");
        QTest::addColumn<int>("amqpPort");
        QTest::addColumn<int>("clock");
        QTest::addColumn<bool>("preferredDatabase");
        QTest::newRow("nothing given") << QStringList{} << 9000 << 5700 << int(ClockMode::Virtual) << true;
        QTest::newRow("--port") << QStringList{QStringLiteral("--port"), QStringLiteral("8000")} << 8000 << 5700
                                << int(ClockMode::Virtual) << true;
        QTest::newRow("--port=") << QStringList{QStringLiteral("--port=8000")} << 8000 << 5700 << int(ClockMode::Virtual)
                                 << true;
        QTest::newRow("--amqp-port") << QStringList{QStringLiteral("--amqp-port"), QStringLiteral("6000")} << 9000
                                     << 6000 << int(ClockMode::Virtual) << true;
        QTest::newRow("--clock") << QStringList{QStringLiteral("--clock"), QStringLiteral("real")} << 9000 << 5700
                                 << int(ClockMode::Real) << true;
        QTest::newRow("--db") << QStringList{QStringLiteral("--db"), QStringLiteral("/tmp/x.db")} << 9000 << 5700
                              << int(ClockMode::Virtual) << false;
    }

    void preferences_fillWhatTheCommandLineLeavesOut()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, port);
        QFETCH(int, amqpPort);
        QFETCH(int, clock);
        QFETCH(bool, preferredDatabase);
        Preferences preferences;
        preferences.httpPort = 9000;
        preferences.amqpPort = 5700;
        preferences.clockMode = ClockMode::Virtual;
        preferences.databaseFolder = QStringLiteral("/srv/relaydesk");
        const auto parsed = parseServeOptions(arguments, OptionsFor::Window);
        QVERIFY(std::holds_alternative<ServeOptions>(parsed));
        ServeOptions options = std::get<ServeOptions>(parsed);
        preferences.applyTo(options, arguments);
        QCOMPARE(int(options.port), port);
        QCOMPARE(int(options.amqpPort.value_or(0)), amqpPort);
        QCOMPARE(int(options.clockMode), clock);
        QCOMPARE(options.databasePath == QStringLiteral("/srv/relaydesk/relaydesk.db"), preferredDatabase);
        QCOMPARE(options.portGiven, arguments.join(QLatin1Char(' ')).contains(QStringLiteral("--port")));
    }
};

RELAYDESK_TEST_MAIN(AppearanceTest)
#include "appearance_test.moc"
