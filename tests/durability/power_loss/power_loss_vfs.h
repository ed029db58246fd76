// SPDX-License-Identifier: MIT
#pragma once
// A test SQLite VFS over the default one ("unix") that models what a disk
// keeps when the power goes, and injects I/O faults.
//
// Installed as the default VFS (so Database::open goes through it
// unchanged). For every database and WAL file it counts writes and syncs and
// keeps, since that file's last xSync, the bytes each write or truncate
// replaced (an undo journal); a sync empties the file's journal. xSync
// itself only marks the file durable (the real fsync is skipped: durability
// is what this model says it is, and the runs stay fast).
//
//  - Crash point: setCrashAt(K) makes the K-th write or sync (counted over
//    all files since reset()) and every call after it fail with SQLITE_IOERR
//    (reads, writes, truncates, syncs, sizes, opens), so the broker stops
//    making progress. After the caller closed every connection,
//    applyPowerLoss() rewrites the files as the disk would have them:
//      DropUnsynced   every file reverts to its content at its last sync;
//      TornLastWrite  unsynced writes stay, except that the last write
//                     before the crash lands only in part: its first half
//                     of 512-byte sectors (by file offset) is kept, the rest
//                     reverts;
//    and the -shm files (memory) are deleted.
//  - Faults: failNext(kind, n, code) fails the n-th write, sync or read
//    (counted from the call) once with `code` (SQLITE_IOERR_*, SQLITE_FULL);
//    the failed write does not reach the file.
//
// Temporary files are passed through untracked. Thread-safe (one mutex).
// xDelete is taken as durable (SQLite syncs the directory where it matters).

#include <cstdint>
#include <string>

namespace relaydesk::durability {

enum class PowerLossMode { DropUnsynced, TornLastWrite };
enum class FaultKind { Write, Sync, Read };

struct PowerLossFigures {
    std::int64_t operations = 0;      // writes + syncs counted since reset()
    std::int64_t writes = 0;
    std::int64_t syncs = 0;
    std::int64_t reads = 0;
    std::int64_t faultsInjected = 0;  // calls failed by failNext() since reset()
    std::int64_t unsyncedWrites = 0;  // undo records applyPowerLoss() found (all files)
};

// Registers the VFS as SQLite's default (idempotent); false when SQLite refused.
bool installPowerLossVfs();
// Makes the VFS it wraps the default again and unregisters it (every
// connection through it must be closed): later opens sync for real.
void uninstallPowerLossVfs();

// Clears the journals, the counters, the crash point and any armed fault.
void resetPowerLossVfs();
// The K-th write or sync from the reset (1-based) fails, and so does every call after it.
void setCrashAt(std::int64_t operation);
bool hasCrashed();
// Arms one fault: the n-th call of `kind` from now (1-based) fails with `code`.
void failNext(FaultKind kind, std::int64_t n, int code);
// True while an armed fault has not fired yet.
bool faultArmed();
PowerLossFigures powerLossFigures();
// Rewrites every tracked file as a power loss leaves it (see above) and
// deletes the -shm files. Call with every connection closed; clears the
// journals and ends the crash (calls succeed again).
void applyPowerLoss(PowerLossMode mode);

} // namespace relaydesk::durability
