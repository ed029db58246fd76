// SPDX-License-Identifier: MIT
// --help, --version and unknown options on every command, as a user meets
// them: the real binary, no display. One help per command, in the format of
// host/command_help.h (the man page and the bash completion are generated
// from it).
#include "support/test_main.h"

#include "cli_run.h"

#include <QRegularExpression>
#include <QTest>

namespace {

using Run = relaydesk::test::CliRun;
using relaydesk::test::runRelaydesk;

// Every command of docs/behaviour.md §8.1, as the words after "relaydesk".
void addCommandRows()
{
    QTest::addColumn<QStringList>("command");
    QTest::newRow("relaydesk") << QStringList{};
    QTest::newRow("serve") << QStringList{"serve"};
    QTest::newRow("policy") << QStringList{"policy"};
    QTest::newRow("policy explain") << QStringList{"policy", "explain"};
    QTest::newRow("policy validate") << QStringList{"policy", "validate"};
#if RELAYDESK_HAS_RENDER
    QTest::newRow("policy render") << QStringList{"policy", "render"};
#endif
    QTest::newRow("policy diff") << QStringList{"policy", "diff"};
}

QString commandLine(const QStringList &command)
{
    return (QStringList{QStringLiteral("relaydesk")} + command).join(QLatin1Char(' '));
}

} // namespace

class HelpCliTest final : public QObject {
    Q_OBJECT

private slots:
    void help_oneUsageNamingTheCommand_data() { addCommandRows(); }
    void help_oneUsageNamingTheCommand()
    {
        QFETCH(QStringList, command);
        for (const QString &flag : {QStringLiteral("--help"), QStringLiteral("-h")}) {
            const Run run = runRelaydesk(command + QStringList{flag});
            QCOMPARE(run.exitCode, 0);
            QCOMPARE(run.err, QString());
            QVERIFY2(run.out.startsWith(QStringLiteral("Usage: %1").arg(commandLine(command))), qPrintable(run.out));
            QCOMPARE(run.out.count(QLatin1String("Usage:")), 1);
            QVERIFY2(!run.out.contains(QStringLiteral(RELAYDESK_BINARY)), qPrintable(run.out)); // not the binary's path
            QVERIFY2(!run.out.contains(QLatin1String("[options]  —")), qPrintable(run.out));
            // The format the man page is generated from: a blank line after the
            // usage, the options as "  --name ..." lines under "Options:".
            QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("^Usage: [^\\n]*\\n(\\s+relaydesk[^\\n]*\\n)*\\n"))),
                     qPrintable(run.out));
            QVERIFY2(run.out.contains(QRegularExpression(QStringLiteral("\\nOptions:\\n(  [^\\n]*\\n)*  (-h, )?--help"))),
                     qPrintable(run.out));
            QVERIFY2(run.out.contains(QLatin1String("--version")), qPrintable(run.out));
        }
    }

    void version_printsTheVersion_data() { addCommandRows(); }
    void version_printsTheVersion()
    {
        QFETCH(QStringList, command);
        const Run run = runRelaydesk(command + QStringList{QStringLiteral("--version")});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(run.err, QString());
        QCOMPARE(run.out, QStringLiteral("relaydesk %1\n").arg(QLatin1String(RELAYDESK_VERSION)));
    }

    void unknownOption_usageErrorExitTwo_data() { addCommandRows(); }
    void unknownOption_usageErrorExitTwo()
    {
        QFETCH(QStringList, command);
        const Run run = runRelaydesk(command + QStringList{QStringLiteral("--no-such-option")});
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.out, QString());
        QVERIFY2(run.err.contains(QLatin1String("no-such-option")), qPrintable(run.err));
        // One line of error and where to look, not the whole help.
        QVERIFY2(run.err.contains(QStringLiteral("Try '%1 --help'.").arg(commandLine(command))), qPrintable(run.err));
        QVERIFY2(!run.err.contains(QLatin1String("Usage:")), qPrintable(run.err));
    }

    // The top-level help names every command, and each command's help is
    // reachable from it.
    void help_listsEveryCommand()
    {
        const Run top = runRelaydesk({QStringLiteral("--help")});
        for (const char *command : {"serve", "policy"})
            QVERIFY2(top.out.contains(QRegularExpression(QStringLiteral("\\n  %1 ").arg(QLatin1String(command)))),
                     command);
        const Run policy = runRelaydesk({QStringLiteral("policy"), QStringLiteral("--help")});
        for (const char *command : {"explain", "validate", "render", "diff"})
            QVERIFY2(policy.out.contains(QRegularExpression(QStringLiteral("\\n  %1 ").arg(QLatin1String(command)))),
                     command);
    }
};

RELAYDESK_TEST_MAIN(HelpCliTest)
#include "help_cli_test.moc"
