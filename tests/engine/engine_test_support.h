// SPDX-License-Identifier: MIT
#pragma once
// Helpers shared by the engine tests: a real database file, a row insert and
// a count as units of work.

#include "broker/result.h"
#include "store/database.h"

#include <QString>
#include <QTemporaryDir>

#include <cstdint>
#include <memory>
#include <string>

namespace relaydesk::testing {

inline std::unique_ptr<Database> openDatabase(const QTemporaryDir &dir, const char *name, OpenMode mode = OpenMode::ReadWrite)
{
    DatabaseOptions options;
    options.mode = mode;
    auto opened = Database::open(dir.filePath(QString::fromUtf8(name)).toStdString(), options);
    if (!opened.ok()) {
        qWarning("%s", opened.status().toString().c_str());
        return nullptr;
    }
    return std::move(opened).value();
}

inline Result<std::int64_t> insertSetting(Database &db, const std::string &key)
{
    auto insert = db.prepareCached("INSERT INTO settings (key, value) VALUES (?, 'v')");
    if (!insert.ok())
        return BrokerError(BrokerErrorCode::InternalError, insert.status().toString());
    if (StoreStatus status = (*insert)->bind(1, key); !status.ok())
        return BrokerError(BrokerErrorCode::InternalError, status.toString());
    if (StoreStatus status = (*insert)->execute(); !status.ok())
        return BrokerError(BrokerErrorCode::InternalError, status.toString());
    return db.lastInsertRowId();
}

inline Result<std::int64_t> countSettings(Database &db, const std::string &pattern)
{
    auto query = db.prepare("SELECT count(*) FROM settings WHERE key LIKE ?");
    if (!query.ok() || !query->bind(1, pattern).ok() || !query->step().ok())
        return BrokerError(BrokerErrorCode::InternalError, "count failed");
    return query->columnInt64(0);
}

} // namespace relaydesk::testing
