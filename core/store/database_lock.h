// SPDX-License-Identifier: MIT
#pragma once

#include "store/store_status.h"

#include <memory>
#include <string>

namespace relaydesk {

// Proof that this process is the one writer of a database file: an exclusive
// advisory flock(2) on the side file `DB_PATH.lock`, held from acquire() until
// the DatabaseLock is destroyed (or the process dies — the kernel releases it,
// so a crash never leaves a stale lock).
//
// Why a side file and flock: SQLite itself takes POSIX (fcntl) locks on the
// database file, and POSIX locks are per process and released when *any*
// descriptor of the file is closed; an fcntl lock of ours on the database
// file would be silently dropped by SQLite. flock locks belong to the open
// file description, so two Database objects in one process also exclude each
// other — which is what the tests rely on.
//
// The side file is never deleted (deleting it would race with another process
// that has just opened it). Move-only; not thread-safe (owned by one Database).
class DatabaseLock final {
public:
    // Creates `lockPath` if needed and locks it without waiting. InUse when
    // another holder exists, CannotOpen when the file cannot be created.
    static StoreResult<DatabaseLock> acquire(const std::string &lockPath);

    DatabaseLock() = default;
    DatabaseLock(DatabaseLock &&other) noexcept;
    DatabaseLock &operator=(DatabaseLock &&other) noexcept;
    DatabaseLock(const DatabaseLock &) = delete;
    DatabaseLock &operator=(const DatabaseLock &) = delete;
    ~DatabaseLock();

    bool isHeld() const { return m_fd >= 0; }
    const std::string &path() const { return m_path; }

private:
    void release();

    int m_fd = -1;
    std::string m_path;
};

} // namespace relaydesk
