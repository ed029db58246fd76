// SPDX-License-Identifier: MIT
// Error lines (apply bars, the policy editor, the Deliveries tab, Try a
// Policy) are written in a red that reads on the window behind them: at least
// 4.5:1 (WCAG AA) on a light and on a dark palette, and back in the palette's
// own text colour once the error is gone.
#include "widgets/error_text.h"
#include "support/test_main.h"

#include <QApplication>
#include <QLabel>
#include <QPalette>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace relaydesk;

namespace {

// WCAG 2.x relative luminance and contrast ratio.
double luminance(const QColor &colour)
{
    const auto channel = [](double c) { return c <= 0.03928 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4); };
    return 0.2126 * channel(colour.redF()) + 0.7152 * channel(colour.greenF()) + 0.0722 * channel(colour.blueF());
}

double contrast(const QColor &a, const QColor &b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette paletteWithWindow(const QColor &window, const QColor &text)
{
    QPalette palette;
    palette.setColor(QPalette::Window, window);
    palette.setColor(QPalette::WindowText, text);
    return palette;
}

} // namespace

class ErrorTextTest : public QObject {
    Q_OBJECT
private slots:
    void errorColour_readsOnTheWindow_data()
    {
        QTest::addColumn<QColor>("window");
        QTest::newRow("white") << QColor(Qt::white);
        QTest::newRow("Fusion light") << QColor(0xef, 0xef, 0xef);
        QTest::newRow("Adwaita light") << QColor(0xf6, 0xf5, 0xf4);
        QTest::newRow("Breeze dark") << QColor(0x20, 0x23, 0x26);
        QTest::newRow("Fusion dark") << QColor(0x35, 0x35, 0x35);
        QTest::newRow("Adwaita dark") << QColor(0x24, 0x24, 0x24);
        QTest::newRow("black") << QColor(Qt::black);
    }
    void errorColour_readsOnTheWindow()
    {
        QFETCH(QColor, window);
        const QColor red = errorTextColour(paletteWithWindow(window, Qt::black));
        QVERIFY2(contrast(red, window) >= 4.5,
                 qPrintable(QStringLiteral("%1 on %2: %3:1").arg(red.name(), window.name()).arg(contrast(red, window))));
        QVERIFY(red.red() > red.green() && red.red() > red.blue());   // still red
    }

    void showAsError_tintsTheLabelAndClearingRestoresThePalette()
    {
        QWidget parent;
        parent.setPalette(paletteWithWindow(QColor(0x35, 0x35, 0x35), QColor(0xee, 0xee, 0xee)));
        auto *label = new QLabel(QStringLiteral("Refused"), &parent);

        showAsError(label, true);
        QCOMPARE(label->palette().color(QPalette::WindowText), errorTextColour(parent.palette()));
        QCOMPARE(label->palette().color(QPalette::Window), parent.palette().color(QPalette::Window));

        showAsError(label, false);
        QCOMPARE(label->palette().color(QPalette::WindowText), QColor(0xee, 0xee, 0xee));

        // Inherits again: a later palette of the parent reaches the label.
        parent.setPalette(paletteWithWindow(Qt::white, Qt::black));
        QCOMPARE(label->palette().color(QPalette::WindowText), QColor(Qt::black));
    }
};

RELAYDESK_TEST_MAIN(ErrorTextTest)
#include "error_text_test.moc"
