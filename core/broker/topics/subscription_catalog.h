// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
class IdSource;

// What Subscribe answers. `subscriptionArn` is the ARN even while pending
// (the protocol layer answers "pending confirmation" then, as SNS); the
// token is what a SubscriptionConfirmation carries (empty once confirmed).
struct SubscribeReceipt {
    std::string subscriptionArn;
    bool pendingConfirmation = false;
    std::string confirmationToken;
};

// One row of ListSubscriptions / ListSubscriptionsByTopic.
struct SubscriptionSummary {
    std::string subscriptionArn;   // "PendingConfirmation" while pending, as SNS
    std::string owner;
    std::string protocol;
    std::string endpoint;
    std::string topicArn;
};

struct SubscriptionPage {
    std::vector<SubscriptionSummary> subscriptions;
    std::string nextToken;   // empty on the last page
};

// The SNS subscriptions of the broker (docs/behaviour.md §1, 2.3, 4.1, 4.6): Subscribe,
// ConfirmSubscription, Unsubscribe, ListSubscriptions(ByTopic),
// Get/SetSubscriptionAttributes. Topics are named by name, subscriptions by
// ARN (checked with BrokerIdentity::subscriptionFromArn).
//
// http/https subscriptions start pending with a random token (from `ids`)
// unless `autoConfirm` (harness switch, docs/behaviour.md §4.1); sqs subscriptions are
// confirmed at once and their endpoint must be an existing queue's ARN.
// Every method runs inside the caller's transaction on `db` and checks
// before it writes. Ownership: borrows `db`, `identity` and `ids`.
// Thread safety: none — the thread of `db`.
class SubscriptionCatalog final {
public:
    static constexpr std::size_t kPageSize = 100;

    SubscriptionCatalog(Database &db, const BrokerIdentity &identity, IdSource &ids)
        : m_db(&db), m_identity(&identity), m_ids(&ids) {}

    // Subscribing the same protocol and endpoint again answers the existing
    // subscription when the attributes are the same; different ones:
    // SnsInvalidParameter. Unknown topic: SnsNotFound. Bad protocol, endpoint,
    // attributes, a queue that does not exist, or a FIFO mismatch between
    // topic and queue: SnsInvalidParameter.
    Result<SubscribeReceipt> subscribe(std::string_view topicName, std::string_view protocol,
                                       std::string_view endpoint, const AttributeMap &attributes, bool autoConfirm,
                                       ClockTime now);
    // Confirms the subscription of `topicName` holding `token` (an already
    // confirmed one cannot be confirmed again: its token is spent).
    // SnsNotFound for an unknown topic, SnsInvalidParameter "Invalid
    // parameter: Token" for an unknown token.
    Result<std::string> confirmSubscription(std::string_view topicName, std::string_view token);
    // Removes the subscription and its pending deliveries. SnsNotFound when unknown.
    Status unsubscribe(std::string_view subscriptionArn);
    // All subscriptions (topicName empty) or those of one topic (SnsNotFound
    // when unknown), by creation, kPageSize at a time after `nextToken`.
    Result<SubscriptionPage> listSubscriptions(std::string_view topicName, std::string_view nextToken = {});
    // The stored attributes plus SubscriptionArn, TopicArn, Owner, Protocol,
    // Endpoint, PendingConfirmation, ConfirmationWasAuthenticated and
    // EffectiveDeliveryPolicy (http/https: subscription + topic, docs/behaviour.md §2.3).
    Result<AttributeMap> subscriptionAttributes(std::string_view subscriptionArn);
    Status setSubscriptionAttribute(std::string_view subscriptionArn, std::string_view name, std::string_view value);

private:
    Database *m_db = nullptr;
    const BrokerIdentity *m_identity = nullptr;
    IdSource *m_ids = nullptr;
};

} // namespace relaydesk
