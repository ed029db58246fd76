// SPDX-License-Identifier: MIT
#include "store/clean_close_seal.h"

#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

#include <sys/stat.h>
#include <unistd.h>

namespace relaydesk::clean_close_seal {

namespace {

constexpr const char *kFormat = "relaydesk clean close v1";

// What identifies PATH's state: size, modification time (ns), inode, device.
std::optional<std::string> fingerprint(const std::string &path)
{
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0 || !S_ISREG(info.st_mode))
        return std::nullopt;
    std::ostringstream text;
    text << kFormat << " size=" << info.st_size << " mtime=" << info.st_mtim.tv_sec << '.' << info.st_mtim.tv_nsec
         << " inode=" << info.st_ino << " device=" << info.st_dev << '\n';
    return text.str();
}

bool exists(const std::string &path)
{
    struct stat info {};
    return ::lstat(path.c_str(), &info) == 0;
}

std::string sealPath(const std::string &databasePath) { return databasePath + ".clean"; }

} // namespace

void write(const std::string &databasePath)
{
    if (exists(databasePath + "-wal"))
        return;
    const std::optional<std::string> now = fingerprint(databasePath);
    if (!now)
        return;
    const std::string seal = sealPath(databasePath);
    const std::string partial = seal + ".partial";
    {
        std::ofstream file(partial, std::ios::binary | std::ios::trunc);
        file << *now;
        if (!file.flush())
            return (void)std::remove(partial.c_str());
    }
    ::chmod(partial.c_str(), 0600); // as the database's other files: the owner's alone
    if (std::rename(partial.c_str(), seal.c_str()) != 0)
        std::remove(partial.c_str());
}

bool take(const std::string &databasePath)
{
    const std::string seal = sealPath(databasePath);
    std::string stored;
    {
        std::ifstream file(seal, std::ios::binary);
        if (!file)
            return false;
        std::ostringstream text;
        text << file.rdbuf();
        stored = text.str();
    }
    std::remove(seal.c_str());
    if (exists(databasePath + "-wal"))
        return false;
    const std::optional<std::string> now = fingerprint(databasePath);
    return now && *now == stored;
}

} // namespace relaydesk::clean_close_seal
