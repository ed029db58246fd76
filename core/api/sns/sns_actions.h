// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "api/sqs/sqs_actions.h"

#include <string>

class QObject;

namespace relaydesk {

class BrokerService;

// What an SNS action needs besides its parameters. Borrowed.
struct SnsActionContext {
    BrokerService &service;
    const BrokerIdentity &identity;
    QObject *replyContext = nullptr;   // replies arrive on this object's thread
    bool autoConfirm = false;          // `serve --auto-confirm`: HTTP/S subscriptions start confirmed
};

// Runs one SNS action (docs/behaviour.md §8.2) by name with its parameters in the JSON
// shape query_form.h produces, replying with the output members (query_xml.h
// writes them) or the broker's error. Unknown name: false, no reply.
// Thread: the replyContext's thread.
bool runSnsAction(const std::string &action, const ActionInput &input, const SnsActionContext &context,
                  ActionReply reply);
bool isSnsAction(const std::string &action);

// The parameters' error codes for SNS (InvalidParameter for both).
ActionInput snsInput(nlohmann::json parameters);

} // namespace relaydesk
