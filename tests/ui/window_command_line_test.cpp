// SPDX-License-Identifier: MIT
// The window's command line: Qt's standard options go to QApplication, the
// rest to the broker's option parser, which then accepts the command line.
#include "views/window_command_line.h"

#include "host/serve_options.h"
#include "support/test_main.h"

#include <QTest>

#include <variant>

using namespace relaydesk;

class WindowCommandLineTest final : public QObject {
    Q_OBJECT

private slots:
    void split_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QStringList>("qt");
        QTest::addColumn<QStringList>("broker");
        QTest::addColumn<bool>("platform");
        QTest::newRow("style") << QStringList{"-style", "Fusion"} << QStringList{"-style", "Fusion"} << QStringList{}
                               << false;
        QTest::newRow("platform") << QStringList{"-platform", "xcb", "--port", "0"} << QStringList{"-platform", "xcb"}
                                  << QStringList{"--port", "0"} << true;
        QTest::newRow("equals, two dashes")
            << QStringList{"--db", "a.db", "--style=Fusion", "-reverse"} << QStringList{"--style=Fusion", "-reverse"}
            << QStringList{"--db", "a.db"} << false;
        QTest::newRow("broker only") << QStringList{"--clock", "virtual", "--auto-confirm"} << QStringList{}
                                     << QStringList{"--clock", "virtual", "--auto-confirm"} << false;
        QTest::newRow("unknown stays the parser's") << QStringList{"-frobnicate"} << QStringList{}
                                                    << QStringList{"-frobnicate"} << false;
        QTest::newRow("display") << QStringList{"-display", ":1", "-qwindowtitle", "Mine"}
                                 << QStringList{"-display", ":1", "-qwindowtitle", "Mine"} << QStringList{} << true;
    }

    void split()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QStringList, qt);
        QFETCH(QStringList, broker);
        QFETCH(bool, platform);
        const WindowCommandLine split = splitWindowCommandLine(arguments);
        QCOMPARE(split.qtOptions, qt);
        QCOMPARE(split.brokerArguments, broker);
        QCOMPARE(split.choosesPlatform, platform);
    }

    // What the broker's parser refused before (`relaydesk -style Fusion`) it now accepts.
    void brokerParser_acceptsWhatRemains()
    {
        const QStringList arguments{"-style", "Fusion", "-platform", "xcb", "--port", "0"};
        QVERIFY(std::holds_alternative<QString>(parseServeOptions(arguments, OptionsFor::Window)));
        const auto parsed = parseServeOptions(splitWindowCommandLine(arguments).brokerArguments, OptionsFor::Window);
        QVERIFY(std::holds_alternative<ServeOptions>(parsed));
        QCOMPARE(int(std::get<ServeOptions>(parsed).port), 0);
    }
};

RELAYDESK_TEST_MAIN(WindowCommandLineTest)
#include "window_command_line_test.moc"
