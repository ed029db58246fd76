// SPDX-License-Identifier: MIT
#pragma once

#include "clock.h"
#include "clock_time.h"
#include "result.h"

#include <optional>

namespace relaydesk {

class Database;

// Broker time never goes backwards, across restarts too (docs/behaviour.md §7).
// The broker writes a clock mark — its clock time and the wall calendar time at
// that moment — into `settings` with every commit of broker work, after every
// mode switch or advance, while warping, and at shutdown. A broker that opens
// the database again resumes its clock from the mark.
struct ClockMark {
    ClockTime clock{}; // the broker clock's time
    ClockTime wall{};  // the wall calendar time at that moment
};

// The mark stored in the database, if any (a database of an older release has none).
Result<std::optional<ClockMark>> readClockMark(Database &db);
// Stores `mark`, replacing the previous one. Call inside a unit of work.
Status writeClockMark(Database &db, ClockMark mark);

// Where a clock starting in `mode` resumes at wall calendar time `wallNow`
// after `mark`: never before the mark's clock time plus, unless the clock is
// virtual, the wall time elapsed since it (an offset a warp built up is kept,
// and time passes while the broker is closed as on a wall clock; a wall clock
// set back since adds nothing). Otherwise at `start`, the time a caller asked
// for, or by default `wallNow`.
ClockTime resumeClockTime(const std::optional<ClockMark> &mark, ClockTime wallNow, std::optional<ClockTime> start,
                          ClockMode mode);

} // namespace relaydesk
