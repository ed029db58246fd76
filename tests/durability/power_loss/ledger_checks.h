// SPDX-License-Identifier: MIT
#pragma once
// What the power-loss and I/O-fault tests require of a broker's file after
// the scenario of broker_scenario.h, given its Ledger.

#include "power_loss/broker_scenario.h"

#include <string>

namespace relaydesk::durability {

// What must hold in the broker's database (read in a unit of `broker`):
// integrity_check passes; every acknowledged body is stored exactly once
// with its MessageId and FIFO SequenceNumber; each FIFO group is stored in send order;
// no deleted or refused body is stored (`refusedMayExist`: a refused one may
// be stored once, as a crash's last operation may have committed unheard);
// each body of "work" counts at least its acknowledged receives;
// acknowledged queues exist, refused imports wrote nothing; "work"'s
// VisibilityTimeout is the last acknowledged value (or the unanswered one);
// each pending delivery's stored attempt equals its logged attempts. Empty
// when all holds, else what does not.
std::string checkLedger(ScenarioBroker &broker, const Ledger &ledger, bool refusedMayExist);

// Lets the endpoint answer 200 and advances the clock until nothing is
// pending; then every acknowledged publish was delivered to the HTTP
// subscription once, and each delivery's logged attempts are numbered 0..n
// with no gap or repeat. Empty when that holds.
std::string checkRetriesResume(ScenarioBroker &broker, const Ledger &ledger);

} // namespace relaydesk::durability
