// SPDX-License-Identifier: MIT
// The main of a folder's test runner: `RUNNER CLASS [QtTest arguments]` runs
// the QtTest class CLASS (registered by RELAYDESK_TEST_MAIN), `RUNNER` alone
// lists them. Built with RELAYDESK_GUI_TESTS for tests/ui (a QApplication with
// 96 dpi fonts, as QTEST_MAIN makes), without it for the rest. Every class
// runs with QStandardPaths in test mode and its settings in a temporary
// folder of its own: no test reads or writes the user's.
#include "support/test_main.h"

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#ifdef RELAYDESK_GUI_TESTS
#include "widgets/english_plurals.h"

#include <QApplication>
#endif

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace relaydesk::test {

namespace {

std::map<std::string, TestRun> &registry()
{
    static std::map<std::string, TestRun> tests;
    return tests;
}

} // namespace

bool registerTest(const char *name, TestRun run)
{
    return registry().emplace(name, run).second;
}

} // namespace relaydesk::test

int main(int argc, char **argv)
{
    const auto &tests = relaydesk::test::registry();
    const auto found = argc >= 2 ? tests.find(argv[1]) : tests.end();
    if (found == tests.end()) {
        std::fprintf(stderr, "usage: %s CLASS [QtTest arguments]; the classes:\n", argv[0]);
        for (const auto &[name, run] : tests)
            std::fprintf(stderr, "  %s\n", name.c_str());
        return 2;
    }
    // QtTest sees the program and its own arguments, as under QTEST_MAIN.
    std::vector<char *> arguments{argv[0]};
    arguments.insert(arguments.end(), argv + 2, argv + argc);
    int count = static_cast<int>(arguments.size());
    arguments.push_back(nullptr);
#ifdef RELAYDESK_GUI_TESTS
    QApplication app(count, arguments.data());
    app.setAttribute(Qt::AA_Use96Dpi, true);
    relaydesk::installEnglishPlurals(); // as the window's main does
#else
    QCoreApplication app(count, arguments.data());
#endif
    QStandardPaths::setTestModeEnabled(true);
    const QTemporaryDir settings;
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, settings.path());
    return found->second(count, arguments.data());
}
