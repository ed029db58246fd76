// SPDX-License-Identifier: MIT
// `relaydesk policy scan` as a reviewer's CI runs it (docs/policies.md,
// "policy scan"): the real binary over real files. Tables: fixture and options
// => exit status; real templates (tests/data/templates) => policies => rule
// ids, the same in each --format; --charts => files; base and head trees =>
// added, removed, changed.
#include "support/test_main.h"

#include "cli_run.h"

#include <QDir>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <nlohmann/json.hpp>

using nlohmann::json;
using relaydesk::test::CliRun;
using relaydesk::test::runRelaydesk;

namespace {

const QString kTemplates = QStringLiteral(RELAYDESK_TEST_DATA "/templates");

// What a scan found: one line per policy, "name | form | valid | rule rule …".
struct RealTemplate {
    const char *file;                   // under tests/data/templates
    std::vector<const char *> policies; // as above, in the order found
};

// What the real templates hold (tests/data/templates/README.md says where each is from).
const std::vector<RealTemplate> kRealTemplates = {
    {"cloudformation/SQSStandardQueue.yaml", {"SQSQueue | SQS redrive policy | valid | unresolved-intrinsic"}},
    {"cloudformation/SQSFIFOQueue.json", {"SQSQueue | SQS redrive policy | valid | unresolved-intrinsic"}},
    {"cloudformation/SNSTopic.yaml", {}},
    {"arm/servicebus-create-queue.json",
     {"[format('{0}/{1}', parameters('serviceBusNamespaceName'), parameters('serviceBusQueueName'))] | "
      "Service Bus queue | valid | unresolved-intrinsic"}},
    {"arm/servicebus-create-topic-and-subscription.json",
     {"[parameters('serviceBusTopicName')]/Subscriptions/[parameters('serviceBusSubscriptionName')] | "
      "Service Bus subscription | valid | unresolved-intrinsic"}},
    {"terraform/sns-complete.plan.json",
     {"module.complete_sns.aws_sns_topic.this[0] | SNS topic delivery policy | valid | retry-span-short"}},
    {"terraform/sqs-complete.plan.json",
     // The queues' own redrive_policy is computed (the configuration sets it on
     // aws_sqs_queue_redrive_policy), so only those two are policies.
     {"module.fifo_sqs.aws_sqs_queue_redrive_policy.dlq[0] | SQS redrive policy | valid | unresolved-intrinsic",
      "module.sse_encrypted_sqs.aws_sqs_queue_redrive_policy.this[0] | SQS redrive policy | valid | unresolved-intrinsic"}},
};

// Fixtures written by hand, one per exit-status case.
const QByteArray kClean = "{\"healthyRetryPolicy\": {\"numRetries\": 50, \"numMaxDelayRetries\": 40, "
                          "\"minDelayTarget\": 20, \"maxDelayTarget\": 60}}";
const QByteArray kWarning = "Resources:\n  Q:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy:\n"
                            "        deadLetterTargetArn: !GetAtt D.Arn\n        maxReceiveCount: 1\n"
                            "  D:\n    Type: AWS::SQS::Queue\n";
const QByteArray kNote = "Resources:\n  T:\n    Type: AWS::SNS::Topic\n    Properties:\n      DeliveryPolicy: !Sub '${P}'\n";
const QByteArray kInvalid = "{\"healthyRetryPolicy\": {\"numRetries\": 200}}";
const QByteArray kShortSpan = "{\"healthyRetryPolicy\": {\"numRetries\": 3, \"minDelayTarget\": 20, \"maxDelayTarget\": 20}}";

QString topicWithRetries(int retries)
{
    return QStringLiteral("Resources:\n  T:\n    Type: AWS::SNS::Topic\n    Properties:\n      DeliveryPolicy:\n"
                          "        http:\n          defaultHealthyRetryPolicy:\n            numRetries: %1\n")
        .arg(retries);
}

QString queueNamed(const QString &name, int maxReceiveCount)
{
    return QStringLiteral("Resources:\n  %1:\n    Type: AWS::SQS::Queue\n    Properties:\n      RedrivePolicy:\n"
                          "        deadLetterTargetArn: !GetAtt D.Arn\n        maxReceiveCount: %2\n"
                          "  D:\n    Type: AWS::SQS::Queue\n")
        .arg(name)
        .arg(maxReceiveCount);
}

void writeFile(const QString &path, const QByteArray &content)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot write %s", qPrintable(path));
    file.write(content);
}

// The rule ids a report names, in its order, read the way its reader would.
QStringList ruleIds(const QString &format, const QString &report)
{
    QStringList rules;
    if (format == QLatin1String("json") || format == QLatin1String("sarif")) {
        const json parsed = json::parse(report.toStdString());
        if (format == QLatin1String("sarif")) {
            for (const json &result : parsed["runs"][0]["results"])
                rules << QString::fromStdString(result["ruleId"].get<std::string>());
            return rules;
        }
        for (const json &policy : parsed["policies"]) {
            for (const json &finding : policy["findings"])
                rules << QString::fromStdString(finding["rule"].get<std::string>());
        }
        return rules;
    }
    static const QRegularExpression text(QStringLiteral("^  (?:error|warning|note) ([a-z0-9-]+) at "),
                                         QRegularExpression::MultilineOption);
    static const QRegularExpression markdown(QStringLiteral("(?:❌|⚠️|ℹ️) `([a-z0-9-]+)`"));
    auto it = (format == QLatin1String("text") ? text : markdown).globalMatch(report);
    while (it.hasNext())
        rules << it.next().captured(1);
    return rules;
}

QStringList describePolicies(const json &policies)
{
    QStringList lines;
    for (const json &policy : policies) {
        QString line = QString::fromStdString(policy["name"].get<std::string>() + " | " + policy["form"].get<std::string>() +
                                              " | " + (policy["valid"].get<bool>() ? "valid" : "invalid") + " |");
        for (const json &finding : policy["findings"])
            line += QLatin1Char(' ') + QString::fromStdString(finding["rule"].get<std::string>());
        lines << line;
    }
    return lines;
}

QStringList names(const json &policies, const char *side = nullptr)
{
    QStringList out;
    for (const json &entry : policies)
        out << QString::fromStdString((side ? entry[side] : entry)["name"].get<std::string>());
    return out;
}

} // namespace

class PolicyScanCliTest final : public QObject {
    Q_OBJECT

private slots:
    void exitStatus_data()
    {
        // "{file}" in the options is the fixture's path; no fixture, no file.
        QTest::addColumn<QByteArray>("fixture");
        QTest::addColumn<QStringList>("options");
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<QString>("error");   // on stderr, for usage errors
        const QStringList file{"{file}"};
        QTest::newRow("clean") << kClean << file << 0 << QString();
        QTest::newRow("warning, --fail-on error by default") << kWarning << file << 0 << QString();
        QTest::newRow("warning, --fail-on warning") << kWarning << file + QStringList{"--fail-on", "warning"} << 1 << QString();
        QTest::newRow("warning, --fail-on note") << kWarning << file + QStringList{"--fail-on", "note"} << 1 << QString();
        QTest::newRow("note, --fail-on warning") << kNote << file + QStringList{"--fail-on", "warning"} << 0 << QString();
        QTest::newRow("note, --fail-on note") << kNote << file + QStringList{"--fail-on", "note"} << 1 << QString();
        QTest::newRow("invalid policy") << kInvalid << file << 1 << QString();
        QTest::newRow("invalid policy, --fail-on error") << kInvalid << file + QStringList{"--fail-on", "error"} << 1 << QString();
        QTest::newRow("short span, --fail-on warning") << kShortSpan << file + QStringList{"--fail-on", "warning"} << 1 << QString();
        QTest::newRow("short span, shorter --expected-outage")
            << kShortSpan << file + QStringList{"--fail-on", "warning", "--expected-outage", "1m"} << 0 << QString();
        QTest::newRow("usage: --format") << kClean << file + QStringList{"--format", "html"} << 2
                                         << "--format must be text, markdown, sarif or json";
        QTest::newRow("usage: --fail-on") << kClean << file + QStringList{"--fail-on", "fatal"} << 2
                                          << "--fail-on must be note, warning or error";
        QTest::newRow("usage: --expected-outage") << kClean << file + QStringList{"--expected-outage", "0"} << 2
                                                  << "--expected-outage must be a duration";
        QTest::newRow("usage: --chart-format") << kClean << file + QStringList{"--chart-format", "gif"} << 2
                                               << "--chart-format must be png or svg";
        QTest::newRow("usage: no path") << QByteArray() << QStringList{} << 2 << "give the files or folders to scan";
        QTest::newRow("usage: a missing path") << QByteArray() << QStringList{"/nonexistent/x.yaml"} << 2
                                               << "/nonexistent/x.yaml: no such file or folder";
        QTest::newRow("usage: a missing --base") << kClean << file + QStringList{"--base", "/nonexistent"} << 2
                                                 << "/nonexistent: no such file or folder";
    }

    void exitStatus()
    {
        QFETCH(QByteArray, fixture);
        QFETCH(QStringList, options);
        QFETCH(int, exitCode);
        QFETCH(QString, error);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("template.yaml"));
        if (!fixture.isEmpty())
            writeFile(path, fixture);
        options.replaceInStrings(QStringLiteral("{file}"), path);
        const CliRun run = runRelaydesk(QStringList{"policy", "scan"} + options);
        QVERIFY2(run.exitCode == exitCode, qPrintable(QStringLiteral("exit %1\n%2%3").arg(run.exitCode).arg(run.out, run.err)));
        if (exitCode == 2) {
            QVERIFY2(run.err.contains(error), qPrintable(run.err));
            QVERIFY2(run.out.isEmpty(), qPrintable(run.out));   // a usage error reports nothing
        } else {
            QVERIFY2(run.err.isEmpty(), qPrintable(run.err));
        }
    }

    // What each real template holds, as the JSON report lists it.
    void realTemplates_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("expected");
        for (const RealTemplate &row : kRealTemplates) {
            QStringList expected;
            for (const char *policy : row.policies)
                expected << QString::fromUtf8(policy);
            QTest::newRow(row.file) << QString::fromUtf8(row.file) << expected;
        }
    }

    void realTemplates()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, expected);
        const CliRun run = runRelaydesk({"policy", "scan", "--format", "json", kTemplates + "/" + file});
        QCOMPARE(run.exitCode, 0);   // notes and warnings only: below --fail-on error
        const json report = json::parse(run.out.toStdString());
        QCOMPARE(describePolicies(report["policies"]), expected);
        QCOMPARE(report["files"].size(), std::size_t(1));   // recognised as a template, with or without policies
    }

    // Every format names the same findings, in the same order, for every real template.
    void formats_data()
    {
        QTest::addColumn<QString>("format");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("rules");
        for (const char *format : {"text", "markdown", "sarif", "json"}) {
            for (const RealTemplate &row : kRealTemplates) {
                QStringList rules;
                for (const char *policy : row.policies)
                    rules << QString::fromUtf8(policy).section(QLatin1Char('|'), 3).split(QLatin1Char(' '), Qt::SkipEmptyParts);
                QTest::addRow("%s %s", format, row.file) << QString::fromUtf8(format) << QString::fromUtf8(row.file) << rules;
            }
        }
    }

    void formats()
    {
        QFETCH(QString, format);
        QFETCH(QString, file);
        QFETCH(QStringList, rules);
        const QString path = kTemplates + "/" + file;
        const CliRun run = runRelaydesk({"policy", "scan", "--format", format, path});
        QCOMPARE(run.exitCode, 0);
        QCOMPARE(ruleIds(format, run.out), rules);
        if (format == QLatin1String("sarif")) {
            const json sarif = json::parse(run.out.toStdString());
            QCOMPARE(sarif["version"].get<std::string>(), std::string("2.1.0"));
            for (const json &result : sarif["runs"][0]["results"]) {
                const json &where = result["locations"][0]["physicalLocation"];
                QCOMPARE(QString::fromStdString(where["artifactLocation"]["uri"].get<std::string>()), path);
                QVERIFY(where["region"]["startLine"].get<int>() > 0);
            }
        }
        if (format == QLatin1String("markdown") && !rules.isEmpty())
            QVERIFY2(run.out.contains(QStringLiteral("### `%1`").arg(path)), qPrintable(run.out));   // a table per file
    }

    void charts_data()
    {
        QTest::addColumn<QString>("chartFormat");
        QTest::addColumn<QByteArray>("magic");
        QTest::newRow("svg") << "svg" << QByteArray("<?xml");
        QTest::newRow("png") << "png" << QByteArray("\x89PNG");
    }

    // One chart per delivery policy with a schedule (the SNS plan's topic); none
    // for redrives and Service Bus lifetimes. The markdown links it.
    void charts()
    {
        QFETCH(QString, chartFormat);
        QFETCH(QByteArray, magic);
        QTemporaryDir dir;
        const CliRun run = runRelaydesk({"policy", "scan", "--format", "markdown", "--charts", dir.path(),
                                         "--chart-format", chartFormat, kTemplates});
#if RELAYDESK_HAS_RENDER
        QCOMPARE(run.exitCode, 0);
        const QStringList files = QDir(dir.path()).entryList(QDir::Files);
        QCOMPARE(files.size(), 1);
        QVERIFY2(files[0].endsWith("aws_sns_topic.this-0-." + chartFormat), qPrintable(files[0]));
        QFile chart(QDir(dir.path()).filePath(files[0]));
        QVERIFY(chart.open(QIODevice::ReadOnly));
        QVERIFY(chart.read(magic.size()) == magic);
        QVERIFY2(run.out.contains(QStringLiteral("](%1)").arg(chart.fileName())), qPrintable(run.out));
#else
        Q_UNUSED(magic)
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.err.contains("no chart renderer"));
#endif
    }

    void base_data()
    {
        // Trees as file name => content; the same name in both pairs the files.
        using Tree = QMap<QString, QString>;
        QTest::addColumn<Tree>("base");
        QTest::addColumn<Tree>("head");
        QTest::addColumn<QStringList>("added");
        QTest::addColumn<QStringList>("removed");
        QTest::addColumn<QStringList>("changed");
        QTest::addColumn<QString>("diff");   // in the changed policy's diff
        QTest::newRow("the same") << Tree{{"t.yaml", topicWithRetries(3)}} << Tree{{"t.yaml", topicWithRetries(3)}}
                                  << QStringList{} << QStringList{} << QStringList{} << QString();
        QTest::newRow("a delivery policy changed")
            << Tree{{"t.yaml", topicWithRetries(3)}} << Tree{{"t.yaml", topicWithRetries(10)}} << QStringList{}
            << QStringList{} << QStringList{"T"} << "numRetries";
        QTest::newRow("a redrive changed") << Tree{{"q.yaml", queueNamed("Q", 1)}} << Tree{{"q.yaml", queueNamed("Q", 5)}}
                                           << QStringList{} << QStringList{} << QStringList{"Q"} << "maxReceiveCount";
        QTest::newRow("a queue renamed: one added, one removed")
            << Tree{{"q.yaml", queueNamed("Old", 5)}} << Tree{{"q.yaml", queueNamed("New", 5)}} << QStringList{"New"}
            << QStringList{"Old"} << QStringList{} << QString();
        QTest::newRow("a file added, a file removed")
            << Tree{{"a.yaml", topicWithRetries(3)}, {"b.yaml", queueNamed("Q", 5)}}
            << Tree{{"a.yaml", topicWithRetries(3)}, {"c.yaml", queueNamed("R", 5)}} << QStringList{"R"} << QStringList{"Q"}
            << QStringList{} << QString();
        QTest::newRow("the same policy in another file: paired by file")
            << Tree{{"a.yaml", queueNamed("Q", 5)}} << Tree{{"sub/a.yaml", queueNamed("Q", 5)}} << QStringList{"Q"}
            << QStringList{"Q"} << QStringList{} << QString();
    }

    void base()
    {
        using Tree = QMap<QString, QString>;
        QFETCH(Tree, base);
        QFETCH(Tree, head);
        QFETCH(QStringList, added);
        QFETCH(QStringList, removed);
        QFETCH(QStringList, changed);
        QFETCH(QString, diff);
        QTemporaryDir dir;
        for (auto it = base.cbegin(); it != base.cend(); ++it)
            writeFile(dir.filePath("base/" + it.key()), it.value().toUtf8());
        for (auto it = head.cbegin(); it != head.cend(); ++it)
            writeFile(dir.filePath("head/" + it.key()), it.value().toUtf8());
        const QStringList arguments{"policy", "scan", dir.filePath("head"), "--base", dir.filePath("base")};

        const CliRun run = runRelaydesk(arguments + QStringList{"--format", "json"});
        QCOMPARE(run.exitCode, 0);
        const json comparison = json::parse(run.out.toStdString())["comparison"];
        QCOMPARE(names(comparison["added"]), added);
        QCOMPARE(names(comparison["removed"]), removed);
        QCOMPARE(names(comparison["changed"], "after"), changed);
        for (const json &change : comparison["changed"])
            QVERIFY2(QString::fromStdString(change["diff"].get<std::string>()).contains(diff), change.dump().c_str());

        const QString counts = QStringLiteral("%1 added, %2 removed, %3 changed")
                                   .arg(added.size()).arg(removed.size()).arg(changed.size());
        for (const char *format : {"text", "markdown"}) {
            const CliRun shown = runRelaydesk(arguments + QStringList{"--format", format});
            QVERIFY2(shown.out.contains(counts), qPrintable(shown.out));
            if (!diff.isEmpty())
                QVERIFY2(shown.out.contains(diff), qPrintable(shown.out));
        }
    }
};

RELAYDESK_TEST_MAIN(PolicyScanCliTest)
#include "policy_scan_cli_test.moc"
