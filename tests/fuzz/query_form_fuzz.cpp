// SPDX-License-Identifier: MIT
// Fuzz target of the query protocol's form reader (every SQS/SNS request in
// application/x-www-form-urlencoded, and a GET's URL query). Checked for every
// input: no crash or sanitizer report; the result is a JSON object for both
// services, free of "Action" and "Version"; a form with a malformed escape is
// told apart; dumping the result never throws (invalid UTF-8 replaced).
#include "api/query/query_form.h"
#include "fuzz_check.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <string>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {
constexpr const char *kTarget = "query_form_fuzz";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const QByteArray form(reinterpret_cast<const char *>(data), qsizetype(size));
    (void)hasMalformedPercentEscape(form);
    for (const QueryService service : {QueryService::Sqs, QueryService::Sns}) {
        std::string action;
        const nlohmann::json parameters = queryFormToJson(form, service, action);
        require(parameters.is_object(), kTarget, "the parameters are not an object");
        require(!parameters.contains("Action") && !parameters.contains("Version"), kTarget,
                "Action or Version left among the parameters");
        (void)parameters.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    return 0;
}
