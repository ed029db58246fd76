// SPDX-License-Identifier: MIT
#include "broker/deliveries/zaqar_notification.h"

#include "broker/store_calls.h"

namespace relaydesk::zaqar_notification {

Result<bool> isZaqarSubscription(Database &db, std::int64_t subscriptionId)
{
    auto found = selectOptionalInt64(db, "SELECT 1 FROM zaqar_subscriptions WHERE subscription_id = ?", subscriptionId);
    if (!found)
        return found.error();
    return found->has_value();
}

DeliveryRequest describe(const DeliveryJob &job)
{
    DeliveryRequest request;
    request.headers.emplace_back("User-Agent", "Relaydesk Zaqar notifier");
    request.contentType = "application/json";
    request.envelope = job.message;
    request.raw = true;
    return request;
}

} // namespace relaydesk::zaqar_notification
