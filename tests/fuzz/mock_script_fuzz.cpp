// SPDX-License-Identifier: MIT
// Fuzz target of the mock-endpoint script language ("503 x 2, then 200").
// Checked for every input: no crash or sanitizer report; an error is
// InvalidParameterValue naming a character position; a script read has at
// least one step, statuses from 100 to 999, and the same text.
#include "fuzz_check.h"
#include "broker/deliveries/mock_script.h"

#include <cstddef>
#include <cstdint>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {
constexpr const char *kTarget = "mock_script_fuzz";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const std::string_view text = fuzz::text(data, size);
    const Result<MockScript> script = parseMockScript(text);
    if (!script) {
        require(script.error().code == BrokerErrorCode::InvalidParameterValue, kTarget, "an error of another kind");
        require(script.error().message.find("character") != std::string::npos || text.empty() ||
                    script.error().message.find("mock script") != std::string::npos,
                kTarget, "an error that says neither where nor what");
        return 0;
    }
    require(!script->steps.empty(), kTarget, "a script without steps");
    require(script->text == text, kTarget, "the script's text changed");
    for (std::uint64_t i = 0; i < 64; ++i) {
        const MockStep &step = script->stepFor(i);
        require(step.action != MockAction::Respond || (step.status >= 100 && step.status <= 999), kTarget,
                "a status outside 100-999");
    }
    return 0;
}
