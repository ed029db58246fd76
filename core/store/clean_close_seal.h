// SPDX-License-Identifier: MIT
#pragma once

#include <string>

namespace relaydesk::clean_close_seal {

// PATH.clean: written after the writer closed PATH cleanly (SQLite
// checkpointed the WAL into PATH, synced it and removed the WAL), naming
// PATH's size, modification time, inode and device at that moment. A later
// writer that finds it matching knows nothing has written PATH since it was
// whole, so it may skip quick_check on a large file (docs/reliability.md,
// "Opening a database").

// Writes PATH.clean for PATH as it is now; best effort (a seal that cannot be
// written only means the next open checks). Not when PATH-wal exists: then
// the close did not end cleanly.
void write(const std::string &databasePath);

// Whether PATH.clean exists and matches PATH as it is now (and PATH-wal does
// not exist). Removes PATH.clean either way: the caller is about to write.
bool take(const std::string &databasePath);

} // namespace relaydesk::clean_close_seal
