// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_error.h"
#include "store/store_status.h"

namespace relaydesk {

// The InternalError a failed store call becomes: what happened to the
// broker's database, in words a client can read ("The broker's database or
// disk is full; the operation changed nothing."), never SQL text (a failure
// not SQLite's, such as an operation that threw, keeps its own words). The whole
// status — the statement, SQLite's extended code — goes to standard error for
// whoever runs the broker (docs/behaviour.md §9).
BrokerError storeFailure(const StoreStatus &status);

} // namespace relaydesk
