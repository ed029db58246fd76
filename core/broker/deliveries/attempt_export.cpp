// SPDX-License-Identifier: MIT
#include "broker/deliveries/attempt_export.h"

namespace relaydesk::attempt_export {

namespace {

// One RFC 4180 field: quoted (quotes doubled) when it holds , " CR or LF.
void appendField(std::string &out, std::string_view field)
{
    if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += field;
        return;
    }
    out += '"';
    for (char c : field) {
        if (c == '"')
            out += '"';
        out += c;
    }
    out += '"';
}

void appendRecord(std::string &out, const AttemptRecord &record)
{
    const std::string fields[] = {record.messageId,
                                  record.subscriptionArn,
                                  std::to_string(record.attempt),
                                  record.phase,
                                  formatIso8601(record.plannedAt),
                                  formatIso8601(record.startedAt),
                                  std::to_string(record.durationMs),
                                  record.httpStatus ? std::to_string(*record.httpStatus) : std::string(),
                                  record.outcome,
                                  record.final.value_or(std::string()),
                                  record.kind,
                                  record.errorKind.value_or(std::string()),
                                  std::to_string(record.redelivery),
                                  record.error.value_or(std::string())};
    static_assert(std::size(fields) == std::size(kCsvColumns));
    for (std::size_t i = 0; i < std::size(fields); ++i) {
        if (i > 0)
            out += ',';
        appendField(out, fields[i]);
    }
    out += "\r\n";
}

} // namespace

std::optional<AttemptExportFormat> formatNamed(std::string_view name)
{
    if (name == "csv")
        return AttemptExportFormat::Csv;
    if (name == "json")
        return AttemptExportFormat::Json;
    return std::nullopt;
}

std::string_view contentTypeOf(AttemptExportFormat format)
{
    return format == AttemptExportFormat::Csv ? "text/csv; charset=utf-8" : "application/json";
}

std::string_view suffixOf(AttemptExportFormat format)
{
    return format == AttemptExportFormat::Csv ? ".csv" : ".json";
}

std::string writeCsv(const std::vector<AttemptRecord> &records)
{
    std::string out;
    out.reserve(64 + records.size() * 200);
    for (std::size_t i = 0; i < std::size(kCsvColumns); ++i) {
        if (i > 0)
            out += ',';
        out += kCsvColumns[i];
    }
    out += "\r\n";
    for (const AttemptRecord &record : records)
        appendRecord(out, record);
    return out;
}

std::string write(const std::vector<AttemptRecord> &records, AttemptExportFormat format)
{
    return format == AttemptExportFormat::Csv ? writeCsv(records) : attempt_log::writeAttemptsJson(records);
}

} // namespace relaydesk::attempt_export
