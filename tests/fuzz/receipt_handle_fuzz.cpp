// SPDX-License-Identifier: MIT
// Fuzz target of receipt handles (what a client hands DeleteMessage and
// ChangeMessageVisibility). The input is a handle. Checked for every input:
// no crash or sanitizer report; a handle naming a row under one key names the
// same row, or none, under the same key every time; a handle made for the
// named row with the input's token checks and names that row; a sealed
// handle with its last character changed names nothing.
#include "broker/queues/receipt_handle.h"
#include "fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {
constexpr const char *kTarget = "receipt_handle_fuzz";
const std::string kKey(64, 'f');
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view handle = fuzz::text(data, size);
    const std::optional<std::int64_t> row = receiptHandleMessageRow(kKey, handle, 7);
    require(row == receiptHandleMessageRow(kKey, handle, 7), kTarget, "reading a handle is not pure");
    if (!handle.empty()) {
        const std::string made = makeReceiptHandle(kKey, 7, 42, handle);
        require(receiptHandleMessageRow(kKey, made, 7) == std::optional<std::int64_t>(42), kTarget,
                "a handle made by the broker does not check");
        std::string altered = made;
        altered.back() = altered.back() == '0' ? '1' : '0';
        require(!receiptHandleMessageRow(kKey, altered, 7), kTarget, "a handle with its seal altered checks");
    }
    return 0;
}
