// SPDX-License-Identifier: MIT
#include "api/zaqar/zaqar_api.h"
namespace relaydesk::zaqar_routes {
bool subscriptions(const ZaqarRequest &, const ZaqarContext &, const ZaqarReply &) { return false; }
}
