// SPDX-License-Identifier: MIT
#pragma once

#include "engine/entity_overview_reader.h"

#include <QString>

namespace relaydesk {

// The words of the clock's Next event (docs/window.md "The clock"): what
// falls due and when, and the question asked before a step that jumps far
// or expires messages. GUI thread (translations).
namespace next_event_text {

// A step longer than this asks first.
constexpr ClockDuration kAskBeyond = std::chrono::hours(1);

// "1 d 2 h", "2 min 5 s", "30 s": the two largest units, for a span ≥ 0.
QString span(ClockDuration span);
// "09:41:30", with the date when it is another day than `now`'s (UTC).
QString when(ClockTime at, ClockTime now);
// "Next: delivery attempt to http://… at 09:41:30 (+30 s)"; "Next: nothing due".
QString summary(const NextClockEvent &next);
// A jump longer than kAskBeyond, or messages expire on the way.
bool needsAsking(const NextClockEvent &next);
// "Move the virtual clock 3 d 23 h on, to 2026-12-02 09:37:00 UTC?" and, when
// messages expire, "5 messages of orders and 1 message of billing expire."
QString question(const NextClockEvent &next);

} // namespace next_event_text

} // namespace relaydesk
