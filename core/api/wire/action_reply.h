// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <utility>

namespace relaydesk {

// How an SQS/SNS action answers: the output members as JSON, or the broker's error.
using ActionReply = std::function<void(Result<nlohmann::json>)>;

// Adapts a service reply of T: `write` makes the output members. Pure.
template <class T>
std::function<void(Result<T>)> mappedReply(ActionReply reply, nlohmann::json (*write)(const T &))
{
    return [reply = std::move(reply), write](Result<T> result) {
        reply(result ? Result<nlohmann::json>(write(*result)) : Result<nlohmann::json>(result.error()));
    };
}

// The same with a writer that carries state (the request's identity).
template <class T, class Write>
std::function<void(Result<T>)> mappedReplyWith(ActionReply reply, Write write)
{
    return [reply = std::move(reply), write = std::move(write)](Result<T> result) {
        reply(result ? Result<nlohmann::json>(write(*result)) : Result<nlohmann::json>(result.error()));
    };
}

// Adapts a service reply without a value: an empty object.
inline std::function<void(Status)> emptyReply(ActionReply reply)
{
    return [reply = std::move(reply)](Status status) {
        reply(status ? Result<nlohmann::json>(nlohmann::json::object()) : Result<nlohmann::json>(status.error()));
    };
}

} // namespace relaydesk
