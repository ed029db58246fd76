// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

#include <cstdio>

namespace relaydesk {

// `relaydesk serve [options]` (docs/behaviour.md §8.1): the headless broker on one port.
// `arguments` are everything after "serve". Opens the database, starts the
// engine, the service and the HTTP server, prints exactly one line
// "relaydesk: listening on http://HOST:PORT" to `out` when ready, and runs
// until SIGINT or SIGTERM; then stops with everything committed and returns
// 0. Returns 1 when the database cannot be opened or the port cannot be
// bound, 2 for a usage error (message on `err`). Makes its own
// QCoreApplication; call from main() with none existing.
int runServeCommand(int argc, char **argv, const QStringList &arguments, FILE *out = stdout, FILE *err = stderr);

// The help text of `relaydesk serve`.
QString serveCommandUsage();

} // namespace relaydesk
