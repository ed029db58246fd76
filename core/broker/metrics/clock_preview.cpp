// SPDX-License-Identifier: MIT
#include "broker/metrics/clock_preview.h"

#include "broker/store_calls.h"

namespace relaydesk {

namespace {

constexpr std::string_view kNextDelivery =
    "SELECT p.due_ms, s.endpoint FROM pending_deliveries p INDEXED BY pending_deliveries_by_due"
    " JOIN subscriptions s ON s.id = p.subscription_id WHERE p.due_ms > ? ORDER BY p.due_ms LIMIT 1";
constexpr std::string_view kNextExpiry =
    "SELECT m.expires_at_ms, q.name FROM messages m INDEXED BY messages_by_expiry JOIN queues q ON q.id = m.queue_id"
    " WHERE m.expires_at_ms > ? ORDER BY m.expires_at_ms LIMIT 1";
constexpr std::string_view kExpiring =
    "SELECT q.name, count(*) FROM messages m INDEXED BY messages_by_expiry JOIN queues q ON q.id = m.queue_id"
    " WHERE m.expires_at_ms <= ?1 AND (m.state <> 'inflight' OR m.visible_at_ms <= ?1)"
    " GROUP BY q.name ORDER BY q.name";

} // namespace

Result<ClockEvents> readClockEvents(Database &db, ClockTime now)
{
    ClockEvents events;
    auto delivery = selectRow(db, kNextDelivery, toEpochMilliseconds(now));
    if (!delivery)
        return delivery.error();
    if (*delivery) {
        events.nextDelivery = fromEpochMilliseconds((**delivery)->columnInt64(0));
        events.deliveryEndpoint = (**delivery)->columnText(1);
    }
    auto expiry = selectRow(db, kNextExpiry, toEpochMilliseconds(now));
    if (!expiry)
        return expiry.error();
    if (*expiry) {
        events.nextExpiry = fromEpochMilliseconds((**expiry)->columnInt64(0));
        events.expiryQueue = (**expiry)->columnText(1);
    }
    return events;
}

Result<std::vector<ExpiringMessages>> readExpiringBy(Database &db, ClockTime to)
{
    auto statement = prepareBound(db, kExpiring, toEpochMilliseconds(to));
    if (!statement)
        return statement.error();
    std::vector<ExpiringMessages> expiring;
    Status walked = forEachRow(**statement, [&](Statement &row) {
        expiring.push_back({row.columnText(0), row.columnInt64(1)});
    });
    if (!walked)
        return walked.error();
    return expiring;
}

} // namespace relaydesk
