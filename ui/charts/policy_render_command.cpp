// SPDX-License-Identifier: MIT
#include "charts/policy_render_command.h"

#include "charts/policy_chart.h"
#include "host/command_help.h"
#include "host/policy_command.h"
#include "host/policy_input.h"

#include "policy/policy_presets.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QRegularExpression>

namespace relaydesk {
namespace {

constexpr const char *kSynopsis = "(FILE | - | --preset NAME) --out PATH.png|PATH.svg [--size WxH] "
                                  "[--compare FILE2 | --compare-preset NAME] [--protocol http|https|sqs]";
constexpr int kMaxSide = 10000;
constexpr int kMinSide = 200;

void write(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

int usageError(FILE *err, const QString &message)
{
    write(err, QStringLiteral("relaydesk: %1\nTry 'relaydesk policy render --help'.\n").arg(message));
    return kExitUsage;
}

// One policy to draw, where it came from and the name it is shown under.
struct RenderInput {
    PolicySourceArgument source;
    QString label;
};

RenderInput inputFrom(const QString &path, const QString &preset)
{
    if (!preset.isEmpty())
        return {{QString(), preset}, preset};
    return {{path, QString()}, path == QLatin1String("-") ? QStringLiteral("stdin") : QFileInfo(path).fileName()};
}

// Loads and plans one policy; on failure prints why and returns nothing.
std::optional<RetrySchedule> loadSchedule(const RenderInput &input, const PolicyCheckContext &context, FILE *err)
{
    const LoadedPolicy loaded = loadPolicy(input.source, context);
    if (!loaded.explanation) {
        write(err, loaded.error + QLatin1Char('\n'));
        return std::nullopt;
    }
    const PolicyExplanation &explanation = *loaded.explanation;
    for (const PolicyIssue &issue : explanation.validation.warnings)
        write(err,
              QStringLiteral("warning: %1: %2\n")
                  .arg(QString::fromStdString(issue.field), QString::fromStdString(issue.message)));
    if (!explanation.validation.valid() || !explanation.schedule) {
        for (const PolicyIssue &issue : explanation.validation.errors)
            write(err,
                  QStringLiteral("%1: %2\n")
                      .arg(issue.field.empty() ? QStringLiteral("(document)") : QString::fromStdString(issue.field),
                           QString::fromStdString(issue.message)));
        const QString source = explanation.source == "-" ? QStringLiteral("standard input")
                                                         : QString::fromStdString(explanation.source);
        write(err, QStringLiteral("relaydesk: %1 is not a valid policy; nothing written\n").arg(source));
        return std::nullopt;
    }
    return explanation.schedule;
}

} // namespace

int runPolicyRenderCommand(const QStringList &arguments, FILE *out, FILE *err)
{
    const QCommandLineOption outOption(QStringLiteral("out"), QStringLiteral("Write the chart to PATH (.png or .svg)."),
                                       QStringLiteral("PATH"));
    const QCommandLineOption sizeOption(QStringLiteral("size"),
                                        QStringLiteral("Image size in pixels (default 1200x700)."),
                                        QStringLiteral("WxH"), QStringLiteral("1200x700"));
    const QCommandLineOption presetOption(
        QStringLiteral("preset"), QStringLiteral("Draw the named preset instead of a file."), QStringLiteral("NAME"));
    const QCommandLineOption compareOption(QStringLiteral("compare"),
                                           QStringLiteral("Overlay a second policy file for comparison."),
                                           QStringLiteral("FILE2"));
    const QCommandLineOption comparePresetOption(
        QStringLiteral("compare-preset"), QStringLiteral("Overlay a preset for comparison."), QStringLiteral("NAME"));
    const QCommandLineOption protocolOption(
        QStringLiteral("protocol"),
        QStringLiteral("Endpoint protocol the policies are checked for (default http; the 3600 s cap applies to "
                       "http and https)."),
        QStringLiteral("http|https|sqs"), QStringLiteral("http"));
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")},
                                        QStringLiteral("Show this help."));
    const QCommandLineOption versionOption(QStringLiteral("version"), QStringLiteral("Show the version."));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Draw the four-phase chart of a delivery policy to a PNG or SVG file (no display needed).\n"
                       "Presets: %1")
            .arg(QString::fromStdString(policyPresetNameList())));
    parser.addOptions({outOption, sizeOption, presetOption, compareOption, comparePresetOption, protocolOption,
                       helpOption, versionOption});
    parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Policy JSON file, or '-' for standard input."),
                                 QStringLiteral("(FILE | - | --preset NAME)"));

    // The parser takes the first argument as the program name: "render" stands there.
    if (!parser.parse(QStringList{QStringLiteral("relaydesk policy render")} + arguments.mid(1)))
        return usageError(err, parser.errorText());
    if (parser.isSet(helpOption)) {
        write(out, commandHelpText(parser, QStringLiteral("relaydesk policy render"), QLatin1String(kSynopsis)));
        return kExitOk;
    }
    if (parser.isSet(versionOption)) {
        write(out, versionText());
        return kExitOk;
    }

    const QStringList positional = parser.positionalArguments();
    const QString preset = parser.value(presetOption);
    if (positional.size() > 1)
        return usageError(err, QStringLiteral("give one policy file (or '-'), not %1").arg(positional.size()));
    if (positional.isEmpty() == preset.isEmpty())
        return usageError(err,
                          preset.isEmpty() ? QStringLiteral("give a policy file, '-' or --preset NAME")
                                           : QStringLiteral("give either a file or --preset, not both"));
    if (parser.isSet(compareOption) && parser.isSet(comparePresetOption))
        return usageError(err, QStringLiteral("give either --compare or --compare-preset, not both"));
    for (const QString &name : {preset, parser.value(comparePresetOption)}) {
        if (!name.isEmpty() && !findPolicyPreset(name.toStdString()))
            return usageError(err,
                              QStringLiteral("unknown preset \"%1\"; presets: %2")
                                  .arg(name, QString::fromStdString(policyPresetNameList())));
    }
    if (!parser.isSet(outOption))
        return usageError(err, QStringLiteral("--out PATH.png or --out PATH.svg is required"));
    const QString outPath = parser.value(outOption);
    const QString suffix = QFileInfo(outPath).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return usageError(err, QStringLiteral("--out must end in .png or .svg: %1").arg(outPath));

    static const QRegularExpression sizePattern(QStringLiteral("^(\\d{1,5})x(\\d{1,5})$"));
    const QRegularExpressionMatch sizeMatch = sizePattern.match(parser.value(sizeOption));
    const QSize size =
        sizeMatch.hasMatch() ? QSize(sizeMatch.captured(1).toInt(), sizeMatch.captured(2).toInt()) : QSize();
    if (size.width() < kMinSide || size.height() < kMinSide || size.width() > kMaxSide || size.height() > kMaxSide)
        return usageError(err,
                          QStringLiteral("--size must be WIDTHxHEIGHT, each %1 to %2 pixels: %3")
                              .arg(kMinSide)
                              .arg(kMaxSide)
                              .arg(parser.value(sizeOption)));

    PolicyCheckContext context;
    if (!parseEndpointProtocol(parser.value(protocolOption).toStdString(), context.protocol))
        return usageError(err, QStringLiteral("--protocol must be http, https or sqs"));
    const bool comparing = parser.isSet(compareOption) || parser.isSet(comparePresetOption);
    if (!positional.isEmpty() && positional.front() == QLatin1String("-")
        && parser.value(compareOption) == QLatin1String("-"))
        return usageError(err, QStringLiteral("only one policy can come from standard input"));

    if (!qobject_cast<QApplication *>(QCoreApplication::instance())) {
        write(err, QStringLiteral("relaydesk: render needs a QApplication (internal error)\n"));
        return kExitInvalid;
    }

    const RenderInput main = inputFrom(positional.value(0), preset);
    const std::optional<RetrySchedule> schedule = loadSchedule(main, context, err);
    if (!schedule)
        return kExitInvalid;
    PolicyChart chart;
    chart.setSchedule(*schedule, main.label);
    if (comparing) {
        const RenderInput other = inputFrom(parser.value(compareOption), parser.value(comparePresetOption));
        const std::optional<RetrySchedule> comparison = loadSchedule(other, context, err);
        if (!comparison)
            return kExitInvalid;
        chart.setComparison(comparison, other.label);
    }

    QString error;
    if (!chart.exportTo(outPath, size, &error)) {
        write(err, QStringLiteral("relaydesk: cannot write %1: %2\n").arg(outPath, error));
        return kExitInvalid;
    }
    write(out, QStringLiteral("relaydesk: wrote %1 (%2x%3)\n").arg(outPath).arg(size.width()).arg(size.height()));
    return kExitOk;
}

} // namespace relaydesk
