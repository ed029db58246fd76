// SPDX-License-Identifier: MIT
#pragma once

#include <QTest>

// RELAYDESK_TEST_MAIN(Class) in place of QTEST_MAIN: registers a QtTest class
// with its folder's test runner (tests/support/test_runner_main.cpp), one
// executable per test folder. `RUNNER Class [QtTest arguments]` runs Class
// alone, in a process of its own, as QTEST_MAIN would: CTest has one entry
// per class (tests/CMakeLists.txt, relaydesk_add_test). The runner makes the
// application object (QApplication for ui/, QCoreApplication elsewhere)
// before the class is constructed.
namespace relaydesk::test {

using TestRun = int (*)(int argc, char **argv);

// Adds `name` to the runner's table; called from a static initialiser.
bool registerTest(const char *name, TestRun run);

} // namespace relaydesk::test

#define RELAYDESK_TEST_MAIN(Class) RELAYDESK_TEST_REGISTER(Class, __LINE__)
#define RELAYDESK_TEST_REGISTER(Class, line) RELAYDESK_TEST_REGISTER_AT(Class, line)
#define RELAYDESK_TEST_REGISTER_AT(Class, line)                                                       \
    namespace {                                                                                       \
    int relaydeskRunTest##line(int argc, char **argv)                                                 \
    {                                                                                                 \
        Class test;                                                                                   \
        return QTest::qExec(&test, argc, argv);                                                       \
    }                                                                                                 \
    [[maybe_unused]] const bool relaydeskTestRegistered##line =                                       \
        relaydesk::test::registerTest(#Class, relaydeskRunTest##line);                                \
    }
