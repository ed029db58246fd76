// SPDX-License-Identifier: MIT
#include "power_loss_vfs.h"

#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <set>
#include <string>
#include <vector>

#include <fcntl.h>
#include <unistd.h>

namespace relaydesk::durability {
namespace {

constexpr std::int64_t kSector = 512;

// What one write or truncate replaced: the bytes at `offset` before it
// (shorter than the write where it grew the file) and the file's size then.
struct Undo {
    std::int64_t offset = 0;
    std::string prior;
    std::int64_t priorSize = 0;
    std::int64_t length = 0; // bytes written (0 for a truncate)
    bool write = false;
};

struct Journal {
    std::int64_t syncedSize = -1; // size at the last sync; -1 = nothing unsynced
    std::vector<Undo> undo;
};

struct State {
    std::mutex mutex;
    std::map<std::string, Journal> journals; // by path
    std::set<std::string> databases;         // main database paths seen (for their -shm)
    std::string lastPath;                    // the file of the newest undo record
    std::int64_t operations = 0;
    std::int64_t writes = 0;
    std::int64_t syncs = 0;
    std::int64_t reads = 0;
    std::int64_t crashAt = 0; // 0 = none
    bool crashed = false;
    std::int64_t faultsInjected = 0;
    std::int64_t unsyncedWrites = 0;
    bool faultArmed = false;
    FaultKind faultKind = FaultKind::Write;
    std::int64_t faultCountdown = 0;
    int faultCode = SQLITE_IOERR;
};

State &state()
{
    static State s;
    return s;
}

sqlite3_vfs g_vfs;
sqlite3_vfs *g_base = nullptr;
sqlite3_io_methods g_methods;

struct File {
    sqlite3_file base;
    sqlite3_file *real;
    bool tracked;
    std::string *path;
};

sqlite3_file *realOf(sqlite3_file *file) { return reinterpret_cast<File *>(file)->real; }
File *fileOf(sqlite3_file *file) { return reinterpret_cast<File *>(file); }

// Counts a write or sync of a tracked file; true when it must fail (crash).
bool countOperation(State &s)
{
    if (s.crashed)
        return true;
    ++s.operations;
    if (s.crashAt > 0 && s.operations >= s.crashAt) {
        s.crashed = true;
        return true;
    }
    return false;
}

// An armed fault of `kind` fires on this call: its code, else SQLITE_OK.
int takeFault(State &s, FaultKind kind)
{
    if (!s.faultArmed || s.faultKind != kind)
        return SQLITE_OK;
    if (--s.faultCountdown > 0)
        return SQLITE_OK;
    s.faultArmed = false;
    ++s.faultsInjected;
    return s.faultCode;
}

std::int64_t sizeOf(sqlite3_file *real)
{
    sqlite3_int64 size = 0;
    return real->pMethods->xFileSize(real, &size) == SQLITE_OK ? size : 0;
}

std::string readRange(sqlite3_file *real, std::int64_t offset, std::int64_t length)
{
    std::string bytes(std::size_t(length), '\0');
    if (length > 0)
        real->pMethods->xRead(real, bytes.data(), int(length), offset);
    return bytes;
}

int xClose(sqlite3_file *file)
{
    File *f = fileOf(file);
    const int rc = f->real->pMethods ? f->real->pMethods->xClose(f->real) : SQLITE_OK;
    delete f->path;
    f->path = nullptr;
    return rc;
}

int xRead(sqlite3_file *file, void *buffer, int amount, sqlite3_int64 offset)
{
    File *f = fileOf(file);
    if (f->tracked) {
        State &s = state();
        std::lock_guard lock(s.mutex);
        if (s.crashed)
            return SQLITE_IOERR_READ;
        ++s.reads;
        if (const int fault = takeFault(s, FaultKind::Read); fault != SQLITE_OK)
            return fault;
    }
    return f->real->pMethods->xRead(f->real, buffer, amount, offset);
}

int xWrite(sqlite3_file *file, const void *buffer, int amount, sqlite3_int64 offset)
{
    File *f = fileOf(file);
    if (!f->tracked)
        return f->real->pMethods->xWrite(f->real, buffer, amount, offset);
    State &s = state();
    std::lock_guard lock(s.mutex);
    if (countOperation(s))
        return SQLITE_IOERR_WRITE;
    ++s.writes;
    if (const int fault = takeFault(s, FaultKind::Write); fault != SQLITE_OK)
        return fault;
    Journal &journal = s.journals[*f->path];
    const std::int64_t size = sizeOf(f->real);
    if (journal.syncedSize < 0)
        journal.syncedSize = size;
    Undo undo;
    undo.offset = offset;
    undo.priorSize = size;
    undo.length = amount;
    undo.write = true;
    undo.prior = readRange(f->real, offset, std::max<std::int64_t>(0, std::min<std::int64_t>(amount, size - offset)));
    journal.undo.push_back(std::move(undo));
    s.lastPath = *f->path;
    return f->real->pMethods->xWrite(f->real, buffer, amount, offset);
}

int xTruncate(sqlite3_file *file, sqlite3_int64 size)
{
    File *f = fileOf(file);
    if (!f->tracked)
        return f->real->pMethods->xTruncate(f->real, size);
    State &s = state();
    std::lock_guard lock(s.mutex);
    if (s.crashed)
        return SQLITE_IOERR_TRUNCATE;
    Journal &journal = s.journals[*f->path];
    const std::int64_t current = sizeOf(f->real);
    if (journal.syncedSize < 0)
        journal.syncedSize = current;
    if (size < current) {
        Undo undo;
        undo.offset = size;
        undo.priorSize = current;
        undo.prior = readRange(f->real, size, current - size);
        journal.undo.push_back(std::move(undo));
        s.lastPath = *f->path;
    }
    return f->real->pMethods->xTruncate(f->real, size);
}

int xSync(sqlite3_file *file, int flags)
{
    File *f = fileOf(file);
    if (!f->tracked)
        return f->real->pMethods->xSync(f->real, flags);
    State &s = state();
    std::lock_guard lock(s.mutex);
    if (countOperation(s))
        return SQLITE_IOERR_FSYNC;
    ++s.syncs;
    if (const int fault = takeFault(s, FaultKind::Sync); fault != SQLITE_OK)
        return fault;
    s.journals.erase(*f->path); // durable from here: no real fsync needed in the model
    if (s.lastPath == *f->path)
        s.lastPath.clear();
    return SQLITE_OK;
}

int xFileSize(sqlite3_file *file, sqlite3_int64 *size)
{
    File *f = fileOf(file);
    if (f->tracked) {
        State &s = state();
        std::lock_guard lock(s.mutex);
        if (s.crashed)
            return SQLITE_IOERR_FSTAT;
    }
    return f->real->pMethods->xFileSize(f->real, size);
}

int xLock(sqlite3_file *file, int level) { return realOf(file)->pMethods->xLock(realOf(file), level); }
int xUnlock(sqlite3_file *file, int level) { return realOf(file)->pMethods->xUnlock(realOf(file), level); }
int xCheckReservedLock(sqlite3_file *file, int *out)
{
    return realOf(file)->pMethods->xCheckReservedLock(realOf(file), out);
}
int xFileControl(sqlite3_file *file, int op, void *arg)
{
    return realOf(file)->pMethods->xFileControl(realOf(file), op, arg);
}
int xSectorSize(sqlite3_file *file) { return realOf(file)->pMethods->xSectorSize(realOf(file)); }
int xDeviceCharacteristics(sqlite3_file *file)
{
    return realOf(file)->pMethods->xDeviceCharacteristics(realOf(file));
}
int xShmMap(sqlite3_file *file, int region, int size, int extend, void volatile **out)
{
    return realOf(file)->pMethods->xShmMap(realOf(file), region, size, extend, out);
}
int xShmLock(sqlite3_file *file, int offset, int n, int flags)
{
    return realOf(file)->pMethods->xShmLock(realOf(file), offset, n, flags);
}
void xShmBarrier(sqlite3_file *file) { realOf(file)->pMethods->xShmBarrier(realOf(file)); }
int xShmUnmap(sqlite3_file *file, int deleteFlag)
{
    return realOf(file)->pMethods->xShmUnmap(realOf(file), deleteFlag);
}
int xFetch(sqlite3_file *file, sqlite3_int64 offset, int amount, void **out)
{
    return realOf(file)->pMethods->xFetch(realOf(file), offset, amount, out);
}
int xUnfetch(sqlite3_file *file, sqlite3_int64 offset, void *page)
{
    return realOf(file)->pMethods->xUnfetch(realOf(file), offset, page);
}

int xOpen(sqlite3_vfs *, sqlite3_filename name, sqlite3_file *file, int flags, int *outFlags)
{
    File *f = fileOf(file);
    f->base.pMethods = nullptr;
    f->real = reinterpret_cast<sqlite3_file *>(reinterpret_cast<char *>(file) + sizeof(File));
    f->tracked = name != nullptr && (flags & (SQLITE_OPEN_MAIN_DB | SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL)) != 0;
    f->path = nullptr;
    if (f->tracked) {
        State &s = state();
        std::lock_guard lock(s.mutex);
        if (s.crashed)
            return SQLITE_CANTOPEN;
        if (flags & SQLITE_OPEN_MAIN_DB)
            s.databases.insert(name);
    }
    std::memset(f->real, 0, std::size_t(g_base->szOsFile));
    const int rc = g_base->xOpen(g_base, name, f->real, flags, outFlags);
    if (rc != SQLITE_OK)
        return rc;
    f->path = new std::string(name ? name : "");
    f->base.pMethods = &g_methods;
    return SQLITE_OK;
}

int xDelete(sqlite3_vfs *, const char *name, int syncDir)
{
    {
        State &s = state();
        std::lock_guard lock(s.mutex);
        s.journals.erase(name);
        if (s.lastPath == name)
            s.lastPath.clear();
    }
    return g_base->xDelete(g_base, name, syncDir);
}

// Writes `bytes` at `offset` of the open descriptor (test set-up: failures abort the test's checks later).
void writeAt(int fd, std::int64_t offset, const std::string &bytes)
{
    if (!bytes.empty() && ::pwrite(fd, bytes.data(), bytes.size(), offset) != ssize_t(bytes.size()))
        std::perror("power loss: pwrite");
}

// Reverts `undo` from byte `from` (a file offset inside the write) to its end.
void revertTail(int fd, const Undo &undo, std::int64_t from)
{
    const std::int64_t skip = from - undo.offset;
    if (skip < std::int64_t(undo.prior.size()))
        writeAt(fd, from, undo.prior.substr(std::size_t(skip)));
    const std::int64_t end = undo.offset + undo.length;
    if (end > undo.priorSize) {
        // The write grew the file: what it added past `from` was never there.
        const off_t now = ::lseek(fd, 0, SEEK_END);
        if (now == off_t(end))
            (void)::ftruncate(fd, std::max(from, undo.priorSize));
    }
}

} // namespace

bool installPowerLossVfs()
{
    static const bool prepared = [] {
        g_base = sqlite3_vfs_find(nullptr);
        if (!g_base)
            return false;
        g_vfs = *g_base;
        g_vfs.zName = "relaydesk-power-loss";
        g_vfs.szOsFile = int(sizeof(File)) + g_base->szOsFile;
        g_vfs.pAppData = nullptr;
        g_vfs.xOpen = xOpen;
        g_vfs.xDelete = xDelete;
        std::memset(&g_methods, 0, sizeof g_methods);
        g_methods.iVersion = 3;
        g_methods.xClose = xClose;
        g_methods.xRead = xRead;
        g_methods.xWrite = xWrite;
        g_methods.xTruncate = xTruncate;
        g_methods.xSync = xSync;
        g_methods.xFileSize = xFileSize;
        g_methods.xLock = xLock;
        g_methods.xUnlock = xUnlock;
        g_methods.xCheckReservedLock = xCheckReservedLock;
        g_methods.xFileControl = xFileControl;
        g_methods.xSectorSize = xSectorSize;
        g_methods.xDeviceCharacteristics = xDeviceCharacteristics;
        g_methods.xShmMap = xShmMap;
        g_methods.xShmLock = xShmLock;
        g_methods.xShmBarrier = xShmBarrier;
        g_methods.xShmUnmap = xShmUnmap;
        g_methods.xFetch = xFetch;
        g_methods.xUnfetch = xUnfetch;
        return true;
    }();
    return prepared && sqlite3_vfs_register(&g_vfs, 1) == SQLITE_OK;
}

void uninstallPowerLossVfs()
{
    if (!g_base)
        return;
    sqlite3_vfs_register(g_base, 1);
    sqlite3_vfs_unregister(&g_vfs);
}

void resetPowerLossVfs()
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    s.journals.clear();
    s.databases.clear();
    s.lastPath.clear();
    s.operations = 0;
    s.writes = 0;
    s.syncs = 0;
    s.reads = 0;
    s.crashAt = 0;
    s.crashed = false;
    s.faultsInjected = 0;
    s.unsyncedWrites = 0;
    s.faultArmed = false;
}

void setCrashAt(std::int64_t operation)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    s.crashAt = operation;
}

bool hasCrashed()
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    return s.crashed;
}

void failNext(FaultKind kind, std::int64_t n, int code)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    s.faultArmed = true;
    s.faultKind = kind;
    s.faultCountdown = n;
    s.faultCode = code;
}

bool faultArmed()
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    return s.faultArmed;
}

PowerLossFigures powerLossFigures()
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    return PowerLossFigures{s.operations, s.writes, s.syncs, s.reads, s.faultsInjected, s.unsyncedWrites};
}

void applyPowerLoss(PowerLossMode mode)
{
    State &s = state();
    std::lock_guard lock(s.mutex);
    for (auto &[path, journal] : s.journals) {
        if (journal.undo.empty())
            continue;
        s.unsyncedWrites += std::int64_t(journal.undo.size());
        const int fd = ::open(path.c_str(), O_RDWR | O_CLOEXEC);
        if (fd < 0)
            continue; // deleted meanwhile
        if (mode == PowerLossMode::DropUnsynced) {
            for (auto undo = journal.undo.rbegin(); undo != journal.undo.rend(); ++undo)
                writeAt(fd, undo->offset, undo->prior);
            if (::ftruncate(fd, journal.syncedSize) != 0)
                std::perror("power loss: ftruncate");
        } else if (path == s.lastPath && journal.undo.back().write) {
            const Undo &last = journal.undo.back();
            const std::int64_t firstSector = last.offset / kSector;
            const std::int64_t endSector = (last.offset + last.length + kSector - 1) / kSector;
            const std::int64_t keptSectors = (endSector - firstSector) / 2;
            const std::int64_t cut = std::max(last.offset, (firstSector + keptSectors) * kSector);
            revertTail(fd, last, cut);
        }
        ::close(fd);
    }
    for (const std::string &database : s.databases)
        ::unlink((database + "-shm").c_str());
    s.journals.clear();
    s.lastPath.clear();
    s.crashed = false;
    s.crashAt = 0;
}

} // namespace relaydesk::durability
