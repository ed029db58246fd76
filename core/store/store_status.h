// SPDX-License-Identifier: MIT
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace relaydesk {

// The outcome of a store operation: Ok, or an error kind and a sentence a
// person understands (it names the file or the SQL step that failed). Errors
// are values: nothing in core/store throws across its API. Plain value type,
// cheap to copy when Ok (the message is empty).
//
// The kinds are what a caller can act on; net/ maps them once to the wire
// error shapes (e.g. DiskFull and IoError -> a 500 "InternalError").
class StoreStatus final {
public:
    enum class Kind {
        Ok,
        InUse,          // the database is held by another Relaydesk process (or another Database in this one)
        Busy,           // SQLite could not get a lock within the busy timeout
        Corrupt,        // the file is damaged (header, pages, or quick_check failed)
        NotRelaydesk,   // not a SQLite file, or a SQLite file of another application
        NewerSchema,    // written by a newer Relaydesk: schema version above what this build knows
        OutdatedSchema, // read-only open of a database that needs migrating first
        DiskFull,       // the disk (or the database size limit) is full
        IoError,        // the operating system reported a read/write/fsync failure
        Constraint,     // a UNIQUE, NOT NULL, CHECK or FOREIGN KEY rule was violated
        ReadOnly,       // a write through a read-only connection
        CannotOpen,     // the file or its directory cannot be opened or created
        Misuse,         // the API was used wrongly (bad parameter name, wrong state)
        Closed,         // the CommitQueue no longer accepts work
        Failed,         // anything else (the message says what)
    };

    StoreStatus() = default; // Ok

    static StoreStatus inUse(std::string message) { return {Kind::InUse, std::move(message)}; }
    static StoreStatus busy(std::string message) { return {Kind::Busy, std::move(message)}; }
    static StoreStatus corrupt(std::string message) { return {Kind::Corrupt, std::move(message)}; }
    static StoreStatus notRelaydesk(std::string message) { return {Kind::NotRelaydesk, std::move(message)}; }
    static StoreStatus newerSchema(std::string message) { return {Kind::NewerSchema, std::move(message)}; }
    static StoreStatus outdatedSchema(std::string message) { return {Kind::OutdatedSchema, std::move(message)}; }
    static StoreStatus diskFull(std::string message) { return {Kind::DiskFull, std::move(message)}; }
    static StoreStatus ioError(std::string message) { return {Kind::IoError, std::move(message)}; }
    static StoreStatus constraint(std::string message) { return {Kind::Constraint, std::move(message)}; }
    static StoreStatus readOnly(std::string message) { return {Kind::ReadOnly, std::move(message)}; }
    static StoreStatus cannotOpen(std::string message) { return {Kind::CannotOpen, std::move(message)}; }
    static StoreStatus misuse(std::string message) { return {Kind::Misuse, std::move(message)}; }
    static StoreStatus closed(std::string message) { return {Kind::Closed, std::move(message)}; }
    static StoreStatus failed(std::string message) { return {Kind::Failed, std::move(message)}; }

    // Maps a SQLite result code (primary or extended) to a kind; `context`
    // says what was being done ("insert into messages", "open /x.db"),
    // `detail` is SQLite's own message. Keeps the extended code for logs.
    static StoreStatus fromSqlite(int sqliteCode, std::string_view context, std::string_view detail);

    bool ok() const { return m_kind == Kind::Ok; }
    Kind kind() const { return m_kind; }
    const std::string &message() const { return m_message; }
    int sqliteCode() const { return m_sqliteCode; } // 0 unless made by fromSqlite()

    // "disk full: insert into messages: database or disk is full"; "ok" when Ok.
    std::string toString() const;

    // The same kind with `context: ` put before the message (Ok stays Ok).
    StoreStatus withContext(std::string_view context) const;

private:
    StoreStatus(Kind kind, std::string message) : m_kind(kind), m_message(std::move(message)) {}

    Kind m_kind = Kind::Ok;
    std::string m_message;
    int m_sqliteCode = 0;
};

std::string_view storeStatusKindName(StoreStatus::Kind kind); // "disk full", "in use", ...

// A value or the error that prevented it. Construct from a T (success) or
// from a non-Ok StoreStatus (an Ok status given here becomes a Misuse error,
// since there would be no value). Check ok() before value(): reading the
// value of an error is undefined.
template <class T>
class StoreResult final {
public:
    StoreResult(T value) : m_value(std::move(value)) {}
    StoreResult(StoreStatus status)
        : m_status(status.ok() ? StoreStatus::misuse("StoreResult made from an Ok status without a value")
                               : std::move(status))
    {
    }

    bool ok() const { return m_value.has_value(); }
    const StoreStatus &status() const { return m_status; }

    T &value() & { return *m_value; }
    const T &value() const & { return *m_value; }
    T &&value() && { return std::move(*m_value); }
    T *operator->() { return &*m_value; }
    const T *operator->() const { return &*m_value; }
    T &operator*() & { return *m_value; }
    const T &operator*() const & { return *m_value; }

private:
    std::optional<T> m_value;
    StoreStatus m_status;
};

} // namespace relaydesk
