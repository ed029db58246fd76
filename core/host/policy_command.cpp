// SPDX-License-Identifier: MIT
#include "policy_command.h"

#include "command_help.h"
#include "policy_input.h"
#include "policy_scan_command.h"

#include "policy/policy_presets.h"

#include <QCommandLineParser>

#include <nlohmann/json.hpp>

namespace relaydesk {

namespace {

void write(FILE *stream, const QString &text)
{
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, size_t(bytes.size()), stream);
    std::fflush(stream);
}

void write(FILE *stream, const std::string &text)
{
    std::fwrite(text.data(), 1, text.size(), stream);
    std::fflush(stream);
}

struct Subcommand {
    const char *name;
    const char *synopsis;
    const char *description;
};

constexpr Subcommand kSubcommands[] = {
    {"explain", "(FILE | - | --preset NAME) [--protocol http|https|sqs] [--format text|json]",
     "Print the retry schedule of a delivery policy: every phase, every delay, totals."},
    {"validate", "FILE|- [--protocol http|https|sqs] [--format text|json]",
     "Check a delivery policy against the service's rules; every error on its own line with its field path."},
    {"render", "(FILE | - | --preset NAME) --out PATH.png|PATH.svg [--size WxH] [--compare FILE2 | --compare-preset NAME]",
     "Draw the four-phase chart of a policy to a PNG or SVG file (no display needed)."},
    {"diff", "A B [--protocol http|https|sqs] [--format text|json]",
     "Show the fields that differ between two policies and how the schedule changes. "
     "A and B are files, '-' or preset:NAME."},
    {"scan", "PATH... [--format text|markdown|sarif|json] [--charts DIR] [--fail-on LEVEL] [--base PATH]",
     "Find the policies in templates (CloudFormation, Terraform plans, ARM, Heat, Zaqar, Config.json), check them, "
     "report findings."},
};

QString policyUsage()
{
    QString text = QStringLiteral("Usage: relaydesk policy explain|validate|render|diff|scan [options] ...\n\n"
                                  "Explain, check, draw and compare delivery policies, without a broker.\n\n"
                                  "Commands:\n");
    for (const Subcommand &sub : kSubcommands)
        text += QStringLiteral("  %1  %2\n").arg(QString::fromLatin1(sub.name).leftJustified(9), QLatin1String(sub.description));
    text += QStringLiteral("\nOptions:\n"
                           "  -h, --help  Show this help.\n"
                           "  --version   Show the version.\n"
                           "\nPolicy files may be in any of the three JSON forms (SNS subscription, SNS topic, "
                           "Zaqar); the form is detected.\nPresets: %1\nExit status: 0 ok, 1 invalid policy or "
                           "unreadable input, 2 usage error.\n"
                           "Each command has its own help: relaydesk policy COMMAND --help\n")
                .arg(QString::fromStdString(policyPresetNameList()));
    return text;
}

int usageError(FILE *err, const QString &message, const QString &subcommand)
{
    write(err, QStringLiteral("relaydesk: %1\nTry 'relaydesk policy %2--help'.\n")
                   .arg(message, subcommand.isEmpty() ? QString() : subcommand + QLatin1Char(' ')));
    return kExitUsage;
}

// Options shared by explain, validate and diff.
struct PolicyOptions {
    QCommandLineOption preset{QStringLiteral("preset"), QStringLiteral("Use the named preset instead of a file."),
                              QStringLiteral("NAME")};
    QCommandLineOption protocol{QStringLiteral("protocol"),
                                QStringLiteral("Endpoint protocol the policy is checked for (default http; the 3600 s "
                                               "cap applies to http and https)."),
                                QStringLiteral("http|https|sqs"), QStringLiteral("http")};
    QCommandLineOption format{QStringLiteral("format"), QStringLiteral("Output format (default text)."),
                              QStringLiteral("text|json"), QStringLiteral("text")};
    QCommandLineOption help{{QStringLiteral("h"), QStringLiteral("help")}, QStringLiteral("Show this help.")};
    QCommandLineOption version{QStringLiteral("version"), QStringLiteral("Show the version.")};
};

class PolicyCommand final {
public:
    PolicyCommand(FILE *out, FILE *err) : m_out(out), m_err(err) {}

    int run(const QStringList &arguments)
    {
        const QString name = arguments.value(0);
        if (name.isEmpty()) {
            return usageError(m_err, QStringLiteral("missing policy command (explain, validate, render or diff)"),
                              QString());
        }
        if (name == QLatin1String("--help") || name == QLatin1String("-h")) {
            write(m_out, policyUsage());
            return kExitOk;
        }
        if (name == QLatin1String("--version")) {
            write(m_out, versionText());
            return kExitOk;
        }
        const Subcommand *sub = nullptr;
        for (const Subcommand &candidate : kSubcommands) {
            if (name == QLatin1String(candidate.name))
                sub = &candidate;
        }
        if (!sub)
            return usageError(m_err, QStringLiteral("unknown policy command \"%1\"").arg(name), QString());
        if (name == QLatin1String("scan"))
            return runPolicyScanCommand(arguments, m_out, m_err);
        if (name == QLatin1String("render"))
            return usageError(m_err, QStringLiteral("this build of relaydesk has no chart renderer (RELAYDESK_GUI=OFF)"),
                              QString());

        QCommandLineParser parser;
        QString description = QLatin1String(sub->description);
        if (name == QLatin1String("explain")) {
            parser.addOption(m_options.preset);
            description += QStringLiteral("\nPresets: %1").arg(QString::fromStdString(policyPresetNameList()));
        }
        parser.setApplicationDescription(description);
        parser.addOption(m_options.protocol);
        parser.addOption(m_options.format);
        parser.addOption(m_options.help);
        parser.addOption(m_options.version);
        const bool isDiff = name == QLatin1String("diff");
        if (isDiff) {
            parser.addPositionalArgument(QStringLiteral("A"), QStringLiteral("First policy: file, '-' or preset:NAME."));
            parser.addPositionalArgument(QStringLiteral("B"), QStringLiteral("Second policy: file, '-' or preset:NAME."));
        } else {
            parser.addPositionalArgument(QStringLiteral("FILE"), QStringLiteral("Policy JSON file, or '-' for standard input."));
        }
        if (!parser.parse(QStringList{QStringLiteral("relaydesk policy ") + name} + arguments.mid(1)))
            return usageError(m_err, parser.errorText(), name);
        if (parser.isSet(m_options.help)) {
            write(m_out, commandHelpText(parser, QStringLiteral("relaydesk policy ") + name, QLatin1String(sub->synopsis)));
            return kExitOk;
        }
        if (parser.isSet(m_options.version)) {
            write(m_out, versionText());
            return kExitOk;
        }

        PolicyCheckContext context;
        if (!parseEndpointProtocol(parser.value(m_options.protocol).toStdString(), context.protocol))
            return usageError(m_err, QStringLiteral("--protocol must be http, https or sqs"), name);
        const QString format = parser.value(m_options.format);
        if (format != QLatin1String("text") && format != QLatin1String("json"))
            return usageError(m_err, QStringLiteral("--format must be text or json"), name);
        m_json = format == QLatin1String("json");

        const QStringList positional = parser.positionalArguments();
        if (isDiff) {
            if (positional.size() != 2)
                return usageError(m_err, QStringLiteral("diff needs two policies, A and B"), name);
            return diff(sourceOf(positional[0]), sourceOf(positional[1]), context);
        }
        PolicySourceArgument source;
        if (name == QLatin1String("explain") && parser.isSet(m_options.preset))
            source.presetName = parser.value(m_options.preset);
        if (positional.size() > 1 || (positional.size() == 1) == !source.presetName.isEmpty())
            return usageError(m_err,
                              source.presetName.isEmpty() ? QStringLiteral("give one policy file (or '-')")
                                                          : QStringLiteral("give either a file or --preset, not both"),
                              name);
        if (!positional.isEmpty())
            source.path = positional.front();
        if (!source.presetName.isEmpty() && !findPolicyPreset(source.presetName.toStdString()))
            return usageError(m_err,
                              QStringLiteral("unknown preset \"%1\"; presets: %2")
                                  .arg(source.presetName, QString::fromStdString(policyPresetNameList())),
                              name);
        return name == QLatin1String("explain") ? explain(source, context) : validate(source, context);
    }

private:
    static PolicySourceArgument sourceOf(const QString &argument)
    {
        PolicySourceArgument source;
        if (argument.startsWith(QLatin1String("preset:")))
            source.presetName = argument.mid(7);
        else
            source.path = argument;
        return source;
    }

    int explain(const PolicySourceArgument &source, const PolicyCheckContext &context)
    {
        const LoadedPolicy loaded = loadPolicy(source, context);
        if (!loaded.explanation) {
            write(m_err, loaded.error + QLatin1Char('\n'));
            return kExitInvalid;
        }
        const PolicyExplanation &e = *loaded.explanation;
        write(m_out, m_json ? explanationJson(e).dump(2) + "\n" : explanationText(e));
        return e.validation.valid() ? kExitOk : kExitInvalid;
    }

    int validate(const PolicySourceArgument &source, const PolicyCheckContext &context)
    {
        const LoadedPolicy loaded = loadPolicy(source, context);
        if (!loaded.explanation) {
            write(m_err, loaded.error + QLatin1Char('\n'));
            return kExitInvalid;
        }
        const PolicyExplanation &e = *loaded.explanation;
        if (m_json) {
            write(m_out, explanationJson(e).dump(2) + "\n");
            return e.validation.valid() ? kExitOk : kExitInvalid;
        }
        std::string text;
        for (const PolicyIssue &issue : e.validation.errors)
            text += "error: " + (issue.field.empty() ? std::string() : issue.field + ": ") + issue.message + "\n";
        for (const PolicyIssue &issue : e.validation.warnings)
            text += "warning: " + (issue.field.empty() ? std::string() : issue.field + ": ") + issue.message + "\n";
        if (e.validation.valid())
            text += "valid: " + e.source + " (" + std::string(policyFormName(e.validation.form)) + " form, " +
                    std::string(dialectName(e.validation.policy->dialect)) + " dialect, " +
                    std::string(endpointProtocolName(e.protocol)) + " endpoint) — " + scheduleSummary(*e.schedule) + "\n";
        else
            text += "invalid: " + e.source + " has " + std::to_string(e.validation.errors.size()) +
                    (e.validation.errors.size() == 1 ? " error\n" : " errors\n");
        write(m_out, text);
        return e.validation.valid() ? kExitOk : kExitInvalid;
    }

    int diff(const PolicySourceArgument &a, const PolicySourceArgument &b, const PolicyCheckContext &context)
    {
        if (a.path == QLatin1String("-") && b.path == QLatin1String("-"))
            return usageError(m_err, QStringLiteral("only one of A and B can be standard input"), QStringLiteral("diff"));
        for (const auto *source : {&a, &b}) {
            if (!source->presetName.isEmpty() && !findPolicyPreset(source->presetName.toStdString()))
                return usageError(m_err, QStringLiteral("unknown preset \"%1\"").arg(source->presetName),
                                  QStringLiteral("diff"));
        }
        const LoadedPolicy first = loadPolicy(a, context);
        const LoadedPolicy second = loadPolicy(b, context);
        for (const LoadedPolicy *loaded : {&first, &second}) {
            if (!loaded->explanation) {
                write(m_err, loaded->error + QLatin1Char('\n'));
                return kExitInvalid;
            }
        }
        const PolicyDiff result = diffPolicies(*first.explanation, *second.explanation);
        write(m_out, m_json ? diffJson(result).dump(2) + "\n" : diffText(result));
        const bool bothValid = result.a.validation.valid() && result.b.validation.valid();
        return bothValid ? kExitOk : kExitInvalid;
    }

    FILE *m_out = stdout;
    FILE *m_err = stderr;
    bool m_json = false;
    PolicyOptions m_options;
};

} // namespace

int runPolicyCommand(const QStringList &arguments, FILE *out, FILE *err)
{
    return PolicyCommand(out, err).run(arguments);
}

QString policyCommandUsage()
{
    return policyUsage();
}

} // namespace relaydesk
