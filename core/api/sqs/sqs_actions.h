// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/result.h"
#include "api/wire/action_input.h"
#include "api/wire/action_reply.h"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>

class QObject;

namespace relaydesk {

class BrokerService;

// What an SQS action needs besides its parameters. Borrowed; the service and
// the identity outlive every request.
struct SqsActionContext {
    BrokerService &service;
    const BrokerIdentity &identity;
    QObject *replyContext = nullptr;   // replies arrive on this object's thread
};

// Runs one SQS action (docs/behaviour.md §5, 8.2) by its name ("SendMessage") with its
// parameters in the JSON protocol's shape, and replies with the JSON
// protocol's output members (an empty object for actions that answer
// nothing) or the broker's error. An unknown name returns false without
// calling `reply`. Thread: the replyContext's thread.
bool runSqsAction(const std::string &action, const ActionInput &input, const SqsActionContext &context,
                  ActionReply reply);

// Whether `action` names an SQS action.
bool isSqsAction(const std::string &action);

// The parameters' error codes for SQS.
ActionInput sqsInput(nlohmann::json parameters);

} // namespace relaydesk
