// SPDX-License-Identifier: MIT
#include "store/store_status.h"

#include <sqlite3.h>

namespace relaydesk {

namespace {

StoreStatus::Kind kindOfSqliteCode(int code)
{
    switch (code & 0xff) {
    case SQLITE_OK:
    case SQLITE_ROW:
    case SQLITE_DONE:
        return StoreStatus::Kind::Ok;
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
        return StoreStatus::Kind::Busy;
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
        return StoreStatus::Kind::Corrupt;
    case SQLITE_FULL:
        return StoreStatus::Kind::DiskFull;
    case SQLITE_IOERR:
        return StoreStatus::Kind::IoError;
    case SQLITE_CONSTRAINT:
        return StoreStatus::Kind::Constraint;
    case SQLITE_READONLY:
        return StoreStatus::Kind::ReadOnly;
    case SQLITE_CANTOPEN:
    case SQLITE_PERM:
    case SQLITE_AUTH:
        return StoreStatus::Kind::CannotOpen;
    case SQLITE_MISUSE:
    case SQLITE_RANGE:
        return StoreStatus::Kind::Misuse;
    default:
        return StoreStatus::Kind::Failed;
    }
}

} // namespace

std::string_view storeStatusKindName(StoreStatus::Kind kind)
{
    switch (kind) {
    case StoreStatus::Kind::Ok: return "ok";
    case StoreStatus::Kind::InUse: return "in use";
    case StoreStatus::Kind::Busy: return "busy";
    case StoreStatus::Kind::Corrupt: return "corrupt";
    case StoreStatus::Kind::NotRelaydesk: return "foreign file";
    case StoreStatus::Kind::NewerSchema: return "newer schema";
    case StoreStatus::Kind::OutdatedSchema: return "outdated schema";
    case StoreStatus::Kind::DiskFull: return "disk full";
    case StoreStatus::Kind::IoError: return "I/O error";
    case StoreStatus::Kind::Constraint: return "constraint";
    case StoreStatus::Kind::ReadOnly: return "read-only";
    case StoreStatus::Kind::CannotOpen: return "cannot open";
    case StoreStatus::Kind::Misuse: return "misuse";
    case StoreStatus::Kind::Closed: return "closed";
    case StoreStatus::Kind::Failed: return "failed";
    }
    return "failed";
}

StoreStatus StoreStatus::fromSqlite(int sqliteCode, std::string_view context, std::string_view detail)
{
    Kind kind = kindOfSqliteCode(sqliteCode);
    if (kind == Kind::Ok)
        return {};
    std::string message(context);
    if (!detail.empty()) {
        if (!message.empty())
            message += ": ";
        message += detail;
    }
    StoreStatus status(kind, std::move(message));
    status.m_sqliteCode = sqliteCode;
    return status;
}

std::string StoreStatus::toString() const
{
    if (ok())
        return "ok";
    std::string text(storeStatusKindName(m_kind));
    if (!m_message.empty())
        text += ": " + m_message;
    return text;
}

StoreStatus StoreStatus::withContext(std::string_view context) const
{
    if (ok() || context.empty())
        return *this;
    StoreStatus status = *this;
    status.m_message = std::string(context) + (m_message.empty() ? "" : ": " + m_message);
    return status;
}

} // namespace relaydesk
