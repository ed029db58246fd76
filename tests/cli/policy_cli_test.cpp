// SPDX-License-Identifier: MIT
// `relaydesk policy ...` as a user runs it: a real process, a headless
// environment (no DISPLAY, no QT_QPA_PLATFORM), real files.
#include "support/test_main.h"

#include "cli_run.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#if RELAYDESK_HAS_RENDER
#include <QImage>
#endif

#include <nlohmann/json.hpp>

#include <set>

using nlohmann::json;

// QCOMPARE cannot compare nlohmann::json; this shows both sides on failure.
#define COMPARE_JSON(actual, expected)                                                                              \
    do {                                                                                                           \
        const json a_ = (actual), e_ = (expected);                                                                 \
        QVERIFY2(a_ == e_, qPrintable(QStringLiteral("actual %1, expected %2")                                   \
                                          .arg(QString::fromStdString(a_.dump()), QString::fromStdString(e_.dump())))); \
    } while (false)

namespace {

using Run = relaydesk::test::CliRun;
using relaydesk::test::runRelaydesk;

} // namespace

class PolicyCliTest final : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;

    QString writeFile(const QString &name, const QByteArray &content)
    {
        const QString path = m_dir.filePath(name);
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly))
            qFatal("cannot write %s", qPrintable(path));
        file.write(content);
        return path;
    }

private slots:
    void explainJson_presetMatchesSpec36()
    {
        const Run run = runRelaydesk({"policy", "explain", "--preset", "sns-example", "--format", "json"});
        QCOMPARE(run.exitCode, 0);
        const json out = json::parse(run.out.toStdString());
        COMPARE_JSON(out["dialect"], "sns");
        COMPARE_JSON(out["valid"], true);
        COMPARE_JSON(out["errors"], json::array());
        COMPARE_JSON(out["warnings"], json::array());
        COMPARE_JSON(out["retries"], 50);
        COMPARE_JSON(out["attempts"], 51);
        COMPARE_JSON(out["totalDelaySeconds"], 2205);
        const json expectedPhases = json::parse(R"([
            {"phase": "immediate",   "retries": 3,  "delaySeconds": 0},
            {"phase": "preBackoff",  "retries": 2,  "delaySeconds": 1},
            {"phase": "backoff",     "retries": 10, "function": "exponential", "delaysSeconds": [1,1,1,1,1,2,4,9,23,60]},
            {"phase": "postBackoff", "retries": 35, "delaySeconds": 60}])");
        COMPARE_JSON(out["phases"].size(), expectedPhases.size());
        for (size_t i = 0; i < expectedPhases.size(); ++i) {
            for (const auto &[key, value] : expectedPhases[i].items())
                COMPARE_JSON(out["phases"][i][key], value);
        }
    }

    void explainText_showsTableAndSummary()
    {
        const Run run = runRelaydesk({"policy", "explain", "--preset", "sns-example"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains("51 attempts over 36 min 45 s"), qPrintable(run.out));
        for (const char *phase : {"immediate", "preBackoff", "backoff (exponential)", "postBackoff"})
            QVERIFY2(run.out.contains(QLatin1String(phase)), phase);
        QVERIFY(run.out.contains("1 1 1 1 1 2 4 9 23 60 s"));
        QVERIFY(run.out.contains("SNS subscription form"));
    }

    void explain_detectsEachForm_data()
    {
        QTest::addColumn<QByteArray>("document");
        QTest::addColumn<QString>("formName");
        QTest::addColumn<QString>("dialect");
        QTest::addColumn<int>("attempts");
        QTest::newRow("subscription") << QByteArray(R"({"healthyRetryPolicy": {"numRetries": 5, "minDelayTarget": 2, "maxDelayTarget": 10}})")
                                      << "subscription" << "sns" << 6;
        QTest::newRow("topic") << QByteArray(R"({"http": {"defaultHealthyRetryPolicy": {"numRetries": 7}, "disableSubscriptionOverrides": true}})")
                               << "topic" << "sns" << 8;
        QTest::newRow("zaqar-example") << QByteArray(R"({"_retry_policy": {"retries_with_no_delay": 3, "minimum_delay_retries": 3, "minimum_delay": 5, "maximum_delay": 60, "maximum_delay_retries": 3, "retry_backoff_function": "linear"}})")
                                       << "zaqar" << "zaqar" << 1 + 3 + 3 + 12 + 3;
        QTest::newRow("zaqar-empty") << QByteArray(R"({"_retry_policy": {}})") << "zaqar" << "zaqar" << 16;
    }

    void explain_detectsEachForm()
    {
        QFETCH(QByteArray, document);
        QFETCH(QString, formName);
        QFETCH(QString, dialect);
        QFETCH(int, attempts);
        const Run run = runRelaydesk({"policy", "explain", writeFile("form.json", document), "--format", "json"});
        QCOMPARE(run.exitCode, 0);
        const json out = json::parse(run.out.toStdString());
        QCOMPARE(QString::fromStdString(out["form"]), formName);
        QCOMPARE(QString::fromStdString(out["dialect"]), dialect);
        COMPARE_JSON(out["attempts"].get<int>(), attempts);
    }

    void explain_readsStandardInput()
    {
        const Run run = runRelaydesk({"policy", "explain", "-", "--format", "json"},
                                     R"({"healthyRetryPolicy": {"numRetries": 10, "minDelayTarget": 5, "maxDelayTarget": 260, "backoffFunction": "geometric"}})");
        QCOMPARE(run.exitCode, 0);
        const json out = json::parse(run.out.toStdString());
        COMPARE_JSON(out["phases"][2]["delaysSeconds"], json::parse("[5,6,7,10,16,26,44,79,142,260]"));
        COMPARE_JSON(out["totalDelaySeconds"], 595);
    }

    void explain_invalidPolicyExitsOneWithEveryError()
    {
        const QString path = writeFile("bad.json", R"({"healthyRetryPolicy": {"minDelayTarget": 0, "maxDelayTarget": 4000, "numRetries": 101, "backoffFunction": "cubic"}})");
        const Run run = runRelaydesk({"policy", "explain", path, "--format", "json"});
        QCOMPARE(run.exitCode, 1);
        const json out = json::parse(run.out.toStdString());
        COMPARE_JSON(out["valid"], false);
        std::set<std::string> fields;
        for (const json &error : out["errors"]) {
            QVERIFY(!error["message"].get<std::string>().empty());
            fields.insert(error["field"].get<std::string>());
        }
        const std::set<std::string> expected = {"healthyRetryPolicy.minDelayTarget", "healthyRetryPolicy.maxDelayTarget",
                                                "healthyRetryPolicy.numRetries", "healthyRetryPolicy.backoffFunction"};
        QCOMPARE(fields, expected);
    }

    void validate_printsEachErrorOnItsOwnLine()
    {
        const QString path = writeFile("bad2.json", R"({"healthyRetryPolicy": {"minDelayTaget": 3, "numRetries": -1}})");
        const Run run = runRelaydesk({"policy", "validate", path});
        QCOMPARE(run.exitCode, 1);
        const QStringList lines = run.out.split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.filter(QRegularExpression("^error: healthyRetryPolicy\\.minDelayTaget: .*did you mean \"minDelayTarget\"")).size() == 1, qPrintable(run.out));
        QVERIFY2(lines.filter(QRegularExpression("^error: healthyRetryPolicy\\.numRetries: ")).size() == 1, qPrintable(run.out));
    }

    void validate_validFileExitsZero()
    {
        const QString path = writeFile("ok.json", R"({"healthyRetryPolicy": {"numRetries": 3}, "sicklyRetryPolicy": null})");
        const Run run = runRelaydesk({"policy", "validate", path});
        QCOMPARE(run.exitCode, 0);
        QVERIFY(run.out.contains("valid: "));
        QVERIFY(run.out.contains("warning: sicklyRetryPolicy: is deprecated"));
    }

    void validate_capDependsOnProtocol_data()
    {
        QTest::addColumn<QString>("protocol");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("http") << "http" << 1;
        QTest::newRow("https") << "https" << 1;
        QTest::newRow("sqs") << "sqs" << 0;
    }

    void validate_capDependsOnProtocol()
    {
        QFETCH(QString, protocol);
        QFETCH(int, exitCode);
        // 40 post-backoff retries of 100 s plan 4000 s > 3600 s.
        const QString path = writeFile("cap.json", R"({"healthyRetryPolicy": {"numRetries": 41, "numMaxDelayRetries": 40, "minDelayTarget": 100, "maxDelayTarget": 100}})");
        const Run run = runRelaydesk({"policy", "validate", path, "--protocol", protocol});
        QCOMPARE(run.exitCode, exitCode);
    }

    void malformedJson_oneLineErrorWithPosition()
    {
        const QString path = writeFile("broken.json", "{\n  \"healthyRetryPolicy\": {\n    \"numRetries\": 3,\n  }\n}\n");
        const Run run = runRelaydesk({"policy", "explain", path});
        QCOMPARE(run.exitCode, 1);
        const QStringList lines = run.err.split('\n', Qt::SkipEmptyParts);
        QCOMPARE(lines.size(), 1);
        QVERIFY2(lines[0].startsWith("relaydesk: " + path + ":4:3: malformed JSON"), qPrintable(lines[0]));
    }

    void unreadableFile_oneLineError()
    {
        const Run run = runRelaydesk({"policy", "validate", m_dir.filePath("missing.json")});
        QCOMPARE(run.exitCode, 1);
        QVERIFY2(run.err.startsWith("relaydesk: cannot read " + m_dir.filePath("missing.json")), qPrintable(run.err));
        QCOMPARE(run.err.count('\n'), 1);
    }

    void usageErrors_exitTwo_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::newRow("unknown option") << QStringList{"policy", "explain", "--preset", "sns-default", "--bogus"};
        QTest::newRow("unknown subcommand") << QStringList{"policy", "frobnicate"};
        QTest::newRow("no subcommand") << QStringList{"policy"};
        QTest::newRow("unknown preset") << QStringList{"policy", "explain", "--preset", "nope"};
        QTest::newRow("file and preset") << QStringList{"policy", "explain", "x.json", "--preset", "sns-default"};
        QTest::newRow("bad format") << QStringList{"policy", "explain", "--preset", "sns-default", "--format", "xml"};
        QTest::newRow("bad protocol") << QStringList{"policy", "validate", "x.json", "--protocol", "smtp"};
        QTest::newRow("diff one argument") << QStringList{"policy", "diff", "a.json"};
        QTest::newRow("top-level unknown option") << QStringList{"--bogus"};
    }

    void usageErrors_exitTwo()
    {
        QFETCH(QStringList, arguments);
        const Run run = runRelaydesk(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.startsWith("relaydesk: "));
    }

    void helpAndVersion_exitZero_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("expected");
        QTest::newRow("--help") << QStringList{"--help"} << "relaydesk policy explain|validate|render|diff";
        QTest::newRow("--version") << QStringList{"--version"} << "relaydesk 0.";
        QTest::newRow("policy --help") << QStringList{"policy", "--help"} << "explain";
        QTest::newRow("explain --help") << QStringList{"policy", "explain", "--help"} << "--preset";
        QTest::newRow("diff --version") << QStringList{"policy", "diff", "--version"} << "relaydesk 0.";
    }

    void helpAndVersion_exitZero()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, expected);
        const Run run = runRelaydesk(arguments);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.contains(expected), qPrintable(run.out));
    }

    void diff_reportsFieldsAndScheduleChange()
    {
        const QString a = writeFile("a.json", R"({"healthyRetryPolicy": {"numRetries": 10, "minDelayTarget": 5, "maxDelayTarget": 260, "backoffFunction": "linear"}})");
        const QString b = writeFile("b.json", R"({"healthyRetryPolicy": {"numRetries": 10, "minDelayTarget": 5, "maxDelayTarget": 260, "backoffFunction": "exponential"}})");
        const Run run = runRelaydesk({"policy", "diff", a, b, "--format", "json"});
        QCOMPARE(run.exitCode, 0);
        const json out = json::parse(run.out.toStdString());
        COMPARE_JSON(out["fields"].size(), 1u);
        COMPARE_JSON(out["fields"][0]["field"], "backoffFunction");
        COMPARE_JSON(out["schedule"]["totalDelaySeconds"]["a"], 1325);
        COMPARE_JSON(out["schedule"]["totalDelaySeconds"]["b"], 454);
        const Run text = runRelaydesk({"policy", "diff", a, "preset:sns-default"});
        QCOMPARE(text.exitCode, 0);
        QVERIFY2(text.out.contains("numRetries") && text.out.contains("10 → 3"), qPrintable(text.out));
    }

#if RELAYDESK_HAS_RENDER
    void render_worksWithoutDisplay()
    {
        const QString png = m_dir.filePath("chart.png");
        const Run run = runRelaydesk({"policy", "render", "--preset", "sns-example", "--out", png, "--size", "640x360"});
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(!run.err.contains("could not connect to display"), qPrintable(run.err));
        QImage image(png);
        QCOMPARE(image.size(), QSize(640, 360));
    }
#endif
};

RELAYDESK_TEST_MAIN(PolicyCliTest)
#include "policy_cli_test.moc"
