// SPDX-License-Identifier: MIT
#pragma once
// Waiting for a BrokerService reply: the tests and benchmarks call the
// service with a reply callback and block until it comes. Any thread but the
// broker thread (the reply comes from there).

#include "broker/result.h"

#include <future>
#include <memory>
#include <utility>

namespace relaydesk::testing {

// `start(reply)` calls the service with `reply`; waits for it.
template <class T, class Start>
Result<T> callAndWait(Start start)
{
    auto promise = std::make_shared<std::promise<Result<T>>>();
    std::future<Result<T>> future = promise->get_future();
    start([promise](Result<T> result) { promise->set_value(std::move(result)); });
    return future.get();
}

// The same for the calls that reply with a Status only.
template <class Start>
Status callAndWaitStatus(Start start)
{
    auto promise = std::make_shared<std::promise<Status>>();
    std::future<Status> future = promise->get_future();
    start([promise](Status result) { promise->set_value(std::move(result)); });
    return future.get();
}

} // namespace relaydesk::testing
