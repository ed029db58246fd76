// SPDX-License-Identifier: MIT
#include "policy_input.h"

#include "json/bounded_json.h"
#include "policy/policy_presets.h"

#include <QFile>

#include <nlohmann/json.hpp>

#include <cstdio>

namespace relaydesk {

QString textPosition(const QByteArray &text, qsizetype byteOffset)
{
    qsizetype line = 1;
    qsizetype column = 1;
    const qsizetype end = std::min(byteOffset, text.size());
    for (qsizetype i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) {
            ++column;
        }
    }
    return QStringLiteral("%1:%2").arg(line).arg(column);
}

namespace {

// nlohmann's "[json.exception.parse_error.101] parse error at line 1, column 5:
// syntax error while parsing value - ..." => "syntax error while parsing value - ...".
QString parseErrorReason(const nlohmann::json::parse_error &error)
{
    QString what = QString::fromUtf8(error.what());
    const qsizetype column = what.indexOf(QLatin1String("column "));
    const qsizetype colon = what.indexOf(QLatin1String(": "), column < 0 ? 0 : column);
    return colon < 0 ? what : what.mid(colon + 2);
}

} // namespace

LoadedPolicy loadPolicy(const PolicySourceArgument &source, const PolicyCheckContext &context)
{
    LoadedPolicy loaded;
    if (!source.presetName.isEmpty()) {
        const auto preset = findPolicyPreset(source.presetName.toStdString());
        if (!preset) {
            loaded.error = QStringLiteral("relaydesk: unknown preset \"%1\"; presets: %2")
                               .arg(source.presetName, QString::fromStdString(policyPresetNameList()));
            return loaded;
        }
        loaded.explanation = explainPolicy(preset->policy, "preset " + preset->name, context);
        return loaded;
    }

    QFile file;
    const bool fromStdin = source.path == QLatin1String("-");
    if (!fromStdin)
        file.setFileName(source.path);
    const bool opened = fromStdin ? file.open(stdin, QIODevice::ReadOnly) : file.open(QIODevice::ReadOnly);
    const QString name = fromStdin ? QStringLiteral("<stdin>") : source.path;
    if (!opened) {
        loaded.error = QStringLiteral("relaydesk: cannot read %1: %2").arg(name, file.errorString());
        return loaded;
    }
    const QByteArray text = file.readAll();
    if (file.error() != QFileDevice::NoError) {
        loaded.error = QStringLiteral("relaydesk: cannot read %1: %2").arg(name, file.errorString());
        return loaded;
    }
    try {
        const nlohmann::json document =
            parseBoundedJson(std::string_view(text.constData(), std::size_t(text.size())), true);
        loaded.explanation = explainPolicy(document, (fromStdin ? QStringLiteral("-") : name).toStdString(), context);
    } catch (const JsonTooDeep &error) {
        loaded.error = QStringLiteral("relaydesk: %1: malformed JSON: %2").arg(name, QString::fromUtf8(error.what()));
    } catch (const nlohmann::json::parse_error &error) {
        // nlohmann's byte offset points one past the offending character.
        const qsizetype offset = error.byte > 0 ? qsizetype(error.byte) - 1 : 0;
        loaded.error = QStringLiteral("relaydesk: %1:%2: malformed JSON: %3")
                           .arg(name, textPosition(text, offset), parseErrorReason(error));
    }
    return loaded;
}

} // namespace relaydesk
