// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// What a mock endpoint (docs/behaviour.md §4.7) does with one request.
enum class MockAction {
    Respond,   // answer `status` (after `delay`, zero unless scripted)
    Hang,      // never answer; close the connection after `delay`
    Close,     // drop the connection at once, without an answer
};

// One step of a script, taken by `count` requests in a row.
struct MockStep {
    MockAction action = MockAction::Respond;
    int status = 200;                      // Respond only: 100–999
    std::chrono::milliseconds delay{0};    // Respond: wait before answering; Hang: how long
    std::uint64_t count = 1;               // ≥ 1

    bool operator==(const MockStep &) const = default;
};

// A parsed mock-endpoint script: the steps requests go through in order;
// once the last step is reached it repeats forever (its own count does not
// matter).
//
// Grammar (keywords and units are case-insensitive; blanks are free, so
// "503x5" and "503 x 5" are the same):
//
//   script   := step { sep step } [ "always" ]
//   sep      := "," [ "then" ] | "then"
//   step     := action [ times ]
//   action   := STATUS                         answer STATUS (100–999)
//             | "hang" DURATION                never answer; close after DURATION
//             | "delay" DURATION ["then"] STATUS
//                                              answer STATUS after DURATION
//             | "close"                        drop the connection, no answer
//   times    := ("x" | "×") COUNT              COUNT (1 to 1 000 000) requests take this step
//   DURATION := NUMBER UNIT                    NUMBER may have a fraction ("1.5 s");
//                                              UNIT ms | s | sec | m | min;
//                                              0 < DURATION ≤ 1 hour
//
// Examples: "200", "503 × 5, then 200", "429 always", "hang 20 s",
// "close x 2, 200", "delay 1.5s then 200", "500 x 3 then close".
// A trailing "always" only states what the last step does anyway; nothing may
// follow it. Durations are wall time: a mock endpoint talks to real sockets,
// so the broker clock's virtual or scaled time does not apply to them.
//
// Plain value type; thread-safe like any value.
struct MockScript {
    std::string text;                      // as written
    std::vector<MockStep> steps;           // never empty

    // The step request number `index` (0-based since the script was set) takes.
    const MockStep &stepFor(std::uint64_t index) const;
};

// Parses `text`. Errors are InvalidParameterValue values whose message names
// the 1-based character position and what was expected there, e.g.
// `mock script: expected a status code, "hang", "delay" or "close" at
// character 7`. Pure, thread-safe.
Result<MockScript> parseMockScript(std::string_view text);

} // namespace relaydesk
