// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "broker/broker_error.h"
#include "broker/result.h"
#include "connections/connection_call.h"
#include "connections/connection_entities.h"

namespace relaydesk {

// The broker's error as a connection reports it: service "SQS", "SNS" or
// "Relaydesk"; the code as SQS's JSON protocol (SQS, native) or the query
// protocol (SNS) spell it; the broker's message.
ConnectionError connectionErrorOf(const BrokerError &error);

// The broker's attribute map in the boundary's type.
EntityAttributes entityAttributesOf(const AttributeMap &map);

// A BrokerService reply that settles `pending` with make(value), or the error.
template <class T, class V, class Make>
auto embeddedReply(PendingCall<T> pending, Make make)
{
    return [pending, make](Result<V> result) {
        if (!result)
            return pending.fail(connectionErrorOf(result.error()));
        pending.succeed(make(result.value()));
    };
}

// The same for a reply without a value.
inline auto embeddedDone(PendingCall<Done> pending)
{
    return [pending](Status status) {
        if (!status)
            return pending.fail(connectionErrorOf(status.error()));
        pending.succeed({});
    };
}

} // namespace relaydesk
