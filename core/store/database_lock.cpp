// SPDX-License-Identifier: MIT
#include "store/database_lock.h"

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace relaydesk {

// Every file of a database (PATH, -wal, -shm, .lock) is owner read/write
// only: it holds message bodies and the signing key.
constexpr mode_t kOwnerOnlyFileMode = 0600;

StoreResult<DatabaseLock> DatabaseLock::acquire(const std::string &lockPath)
{
    const int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, kOwnerOnlyFileMode);
    if (fd < 0) {
        return StoreStatus::cannotOpen("cannot create the lock file " + lockPath + ": " + std::strerror(errno));
    }
    ::fchmod(fd, kOwnerOnlyFileMode);   // whatever the umask, and an older 0644 lock file too (best effort)
    int rc = 0;
    do {
        rc = ::flock(fd, LOCK_EX | LOCK_NB);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        const int error = errno;
        ::close(fd);
        if (error == EWOULDBLOCK) {
            return StoreStatus::inUse("the database is already in use by another Relaydesk process (lock file "
                                      + lockPath + " is held); stop that process or choose another database file");
        }
        return StoreStatus::cannotOpen("cannot lock " + lockPath + ": " + std::strerror(error));
    }
    DatabaseLock lock;
    lock.m_fd = fd;
    lock.m_path = lockPath;
    return lock;
}

DatabaseLock::DatabaseLock(DatabaseLock &&other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_path(std::move(other.m_path))
{
}

DatabaseLock &DatabaseLock::operator=(DatabaseLock &&other) noexcept
{
    if (this != &other) {
        release();
        m_fd = std::exchange(other.m_fd, -1);
        m_path = std::move(other.m_path);
    }
    return *this;
}

DatabaseLock::~DatabaseLock() { release(); }

void DatabaseLock::release()
{
    if (m_fd >= 0) {
        ::flock(m_fd, LOCK_UN);
        ::close(m_fd);
        m_fd = -1;
    }
}

} // namespace relaydesk
