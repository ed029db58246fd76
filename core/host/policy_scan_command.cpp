// SPDX-License-Identifier: MIT
#include "policy_scan_command.h"

#include "command_help.h"
#include "policy_command.h"

#include "scan/policy_scan.h"
#include "scan/scan_comparison.h"
#include "scan/scan_report.h"

#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace relaydesk {

namespace {

constexpr const char *kSynopsis = "PATH... [--format text|markdown|sarif|json] [--charts DIR] [--chart-format png|svg] "
                                  "[--fail-on note|warning|error] [--expected-outage DURATION] [--base PATH]";

void write(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

int usageError(FILE *err, const QString &message)
{
    write(err, QStringLiteral("relaydesk: %1\nTry 'relaydesk policy scan --help'.\n").arg(message));
    return kExitUsage;
}

std::vector<std::string> paths(const QStringList &given)
{
    std::vector<std::string> out;
    for (const QString &path : given)
        out.push_back(path.toStdString());
    return out;
}

// "03-queue.yaml-OrdersTopic.svg": the index keeps names unique.
QString chartName(std::size_t index, const FoundPolicy &policy, const QString &suffix)
{
    static const QRegularExpression unsafe(QStringLiteral("[^A-Za-z0-9._-]+"));
    QString name = QString::fromStdString(policy.relativeFile + "-" + policy.name);
    name.replace(unsafe, QStringLiteral("-"));
    return QStringLiteral("%1-%2.%3").arg(index + 1, 2, 10, QLatin1Char('0')).arg(name.left(80), suffix);
}

} // namespace

std::optional<qint64> parseOutageDuration(const QString &text)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,9})([smhd]?)$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return std::nullopt;
    const qint64 count = match.captured(1).toLongLong();
    const QString unit = match.captured(2);
    const qint64 factor = unit == QLatin1String("m") ? 60 : unit == QLatin1String("h") ? 3600
                        : unit == QLatin1String("d") ? 86400 : 1;
    if (count == 0)
        return std::nullopt;
    return count * factor;
}

int runPolicyScanCommand(const QStringList &arguments, FILE *out, FILE *err, const PolicyChartWriter &charts)
{
    const QCommandLineOption format(QStringLiteral("format"), QStringLiteral("Report format (default text)."),
                                    QStringLiteral("text|markdown|sarif|json"), QStringLiteral("text"));
    const QCommandLineOption chartsDir(QStringLiteral("charts"),
                                       QStringLiteral("Write the chart of each delivery policy into DIR."),
                                       QStringLiteral("DIR"));
    const QCommandLineOption chartFormat(QStringLiteral("chart-format"), QStringLiteral("Chart files (default svg)."),
                                         QStringLiteral("png|svg"), QStringLiteral("svg"));
    const QCommandLineOption failOn(QStringLiteral("fail-on"),
                                    QStringLiteral("Exit 1 when a finding is at this level or above (default error)."),
                                    QStringLiteral("note|warning|error"), QStringLiteral("error"));
    const QCommandLineOption outage(QStringLiteral("expected-outage"),
                                    QStringLiteral("Retries must outlast an outage this long (default 15m): "
                                                   "seconds, or a number with s, m, h or d."),
                                    QStringLiteral("DURATION"), QStringLiteral("15m"));
    const QCommandLineOption base(QStringLiteral("base"),
                                  QStringLiteral("Compare with the policies under PATH (the base branch's tree)."),
                                  QStringLiteral("PATH"));
    const QCommandLineOption help({QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help."));
    const QCommandLineOption version(QStringLiteral("version"), QStringLiteral("Show the version."));
    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Find the delivery, redrive and Service Bus lifetime policies in templates (CloudFormation/SAM, Terraform plan "
        "JSON, ARM, Heat, Zaqar metadata, the Service Bus emulator's Config.json, policy files), check them and report "
        "what a review should notice. Files are recognised by content; folders are read recursively."));
    parser.addOptions({format, chartsDir, chartFormat, failOn, outage, base, help, version});
    parser.addPositionalArgument(QStringLiteral("PATH"), QStringLiteral("Files and folders to scan."),
                                 QStringLiteral("PATH..."));
    if (!parser.parse(QStringList{QStringLiteral("relaydesk policy scan")} + arguments.mid(1)))
        return usageError(err, parser.errorText());
    if (parser.isSet(help)) {
        write(out, commandHelpText(parser, QStringLiteral("relaydesk policy scan"), QLatin1String(kSynopsis)));
        return kExitOk;
    }
    if (parser.isSet(version)) {
        write(out, versionText());
        return kExitOk;
    }
    const QString kind = parser.value(format);
    if (!QStringList{QStringLiteral("text"), QStringLiteral("markdown"), QStringLiteral("sarif"), QStringLiteral("json")}
             .contains(kind))
        return usageError(err, QStringLiteral("--format must be text, markdown, sarif or json"));
    const auto level = parseFindingLevel(parser.value(failOn).toStdString());
    if (!level)
        return usageError(err, QStringLiteral("--fail-on must be note, warning or error"));
    ScanOptions options;
    const auto seconds = parseOutageDuration(parser.value(outage));
    if (!seconds)
        return usageError(err, QStringLiteral("--expected-outage must be a duration such as 900, 30m, 2h or 1d: %1")
                                   .arg(parser.value(outage)));
    options.expectedOutageSeconds = *seconds;
    const QString suffix = parser.value(chartFormat);
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return usageError(err, QStringLiteral("--chart-format must be png or svg"));
    if (parser.isSet(chartsDir) && !charts)
        return usageError(err, QStringLiteral("this build of relaydesk has no chart renderer (RELAYDESK_GUI=OFF)"));
    const QStringList given = parser.positionalArguments();
    if (given.isEmpty())
        return usageError(err, QStringLiteral("give the files or folders to scan"));
    QStringList all = given;
    if (parser.isSet(base))
        all << parser.value(base);
    for (const QString &path : all) {
        if (!QFileInfo::exists(path))
            return usageError(err, QStringLiteral("%1: no such file or folder").arg(path));
    }

    const ScanResult result = scanPaths(paths(given), options);
    std::optional<ScanResult> baseResult;
    std::optional<ScanComparison> comparison;
    if (parser.isSet(base)) {
        baseResult = scanPaths(paths({parser.value(base)}), options);
        comparison = compareScans(*baseResult, result);
    }

    int status = result.findingsAtOrAbove(*level) > 0 ? kExitInvalid : kExitOk;
    std::vector<std::string> chartPaths(result.policies.size());
    if (parser.isSet(chartsDir)) {
        const QString dir = parser.value(chartsDir);
        if (!QDir().mkpath(dir)) {
            write(err, QStringLiteral("relaydesk: cannot create %1\n").arg(dir));
            return kExitInvalid;
        }
        for (std::size_t i = 0; i < result.policies.size(); ++i) {
            const FoundPolicy &policy = result.policies[i];
            if (!policy.delivery || !policy.delivery->schedule)
                continue;
            std::optional<RetrySchedule> before;
            if (comparison) {
                for (const ScanComparison::Change &change : comparison->changed) {
                    if (change.after == &policy && change.before->delivery && change.before->delivery->schedule)
                        before = change.before->delivery->schedule;
                }
            }
            const QString path = QDir(dir).filePath(chartName(i, policy, suffix));
            const QString problem = charts(*policy.delivery->schedule, QString::fromStdString(policy.name), before, path);
            if (!problem.isEmpty()) {
                write(err, QStringLiteral("relaydesk: cannot write %1: %2\n").arg(path, problem));
                status = kExitInvalid;
                continue;
            }
            chartPaths[i] = path.toStdString();
        }
    }

    std::string report;
    if (kind == QLatin1String("text")) {
        report = scanReportText(result) + (comparison ? comparisonText(*comparison) : std::string());
    } else if (kind == QLatin1String("markdown")) {
        report = scanReportMarkdown(result, chartPaths) + (comparison ? comparisonMarkdown(*comparison) : std::string());
    } else if (kind == QLatin1String("json")) {
        nlohmann::json json = scanReportJson(result, chartPaths);
        if (comparison)
            json["comparison"] = comparisonJson(*comparison);
        report = json.dump(2) + "\n";
    } else {
        report = scanSarif(result, RELAYDESK_VERSION).dump(2) + "\n";
    }
    write(out, QString::fromStdString(report));
    return status;
}

} // namespace relaydesk
