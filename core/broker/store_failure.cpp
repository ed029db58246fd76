// SPDX-License-Identifier: MIT
#include "broker/store_failure.h"

#include <cstdio>

namespace relaydesk {

namespace {

using Kind = StoreStatus::Kind;

const char *inWords(Kind kind)
{
    switch (kind) {
    case Kind::DiskFull:
        return "The broker's database or disk is full";
    case Kind::IoError:
        return "The broker could not read or write its database (an input/output error)";
    case Kind::Busy:
    case Kind::InUse:
        return "The broker's database is busy";
    case Kind::Corrupt:
        return "The broker's database file is damaged";
    case Kind::ReadOnly:
        return "The broker's database is read-only";
    case Kind::Closed:
        return "The broker is stopping";
    case Kind::Constraint:
        return "The change would break a rule of the broker's database";
    default:
        return "The broker's database could not complete the operation";
    }
}

} // namespace

BrokerError storeFailure(const StoreStatus &status)
{
    if (status.kind() != Kind::Closed) // a broker stopping is no failure of its storage
        std::fprintf(stderr, "relaydesk: storage failure: %s\n", status.toString().c_str());
    // Not SQLite's (an operation that threw, a closed queue): the broker's own words.
    if (status.sqliteCode() == 0 && status.kind() == Kind::Failed)
        return BrokerError(BrokerErrorCode::InternalError,
                           "The broker could not complete the operation (" + status.message() + ").");
    return BrokerError(BrokerErrorCode::InternalError,
                       std::string(inWords(status.kind())) + "; the operation changed nothing.");
}

} // namespace relaydesk
