// SPDX-License-Identifier: MIT
#pragma once

#include "broker/deliveries/attempt_log.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// The formats the attempt log exports to (Deliveries page "Export…",
// GET /api/v1/attempts?format=csv).
enum class AttemptExportFormat { Csv, Json };

// Export of attempt-log rows: pure functions, any thread.
namespace attempt_export {

// The CSV columns, in order: the docs/behaviour.md §4.4 columns, then kind, errorKind,
// redelivery and error (also the header row's names).
inline constexpr std::string_view kCsvColumns[] = {
    "messageId", "subscriptionArn", "attempt",  "phase", "plannedAt", "startedAt",  "durationMs",
    "httpStatus", "outcome",        "final",    "kind",  "errorKind", "redelivery", "error"};

// "csv" → Csv, "json" → Json; nothing for anything else.
std::optional<AttemptExportFormat> formatNamed(std::string_view name);
// "text/csv; charset=utf-8" or "application/json".
std::string_view contentTypeOf(AttemptExportFormat format);
// The file name suffix: ".csv" or ".json".
std::string_view suffixOf(AttemptExportFormat format);

// RFC 4180: the header row, then one record per row; CRLF line ends; a field
// is quoted (doubling its quotes) when it holds a comma, quote, CR or LF.
// Times are ISO 8601 UTC with milliseconds; an absent httpStatus, final,
// errorKind or error is an empty field.
std::string writeCsv(const std::vector<AttemptRecord> &records);
// attempt_log::writeAttemptsJson.
std::string write(const std::vector<AttemptRecord> &records, AttemptExportFormat format);

} // namespace attempt_export

} // namespace relaydesk
