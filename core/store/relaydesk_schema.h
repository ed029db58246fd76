// SPDX-License-Identifier: MIT
#pragma once

#include <span>

namespace relaydesk {

struct Migration;

// The broker's schema, as the ordered list of migrations this build knows
// (version 1 is the first schema; see relaydesk_schema.cpp for every table).
// The list is static and lives for the whole program; thread-safe to read.
std::span<const Migration> relaydeskMigrations();

} // namespace relaydesk
