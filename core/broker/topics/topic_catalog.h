// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

using TopicTags = std::map<std::string, std::string>;

// One page of ListTopics: topic ARNs by name, and the token of the next page
// (empty on the last page).
struct TopicPage {
    std::vector<std::string> topicArns;
    std::string nextToken;
};

// The SNS topic catalog (docs/behaviour.md §1, 6, 10): CreateTopic, DeleteTopic,
// ListTopics, Get/SetTopicAttributes, TagResource / UntagResource /
// ListTagsForResource. Topics are named by their name; the protocol layer
// turns ARNs into names with BrokerIdentity::topicNameFromArn.
//
// Every method runs inside the transaction the caller holds on `db`; it
// checks before it writes, so an error leaves nothing behind. `now` is clock
// time (docs/behaviour.md §7). Ownership: borrows `db` and `identity`, which must outlive it.
// Thread safety: none — the thread of `db`.
class TopicCatalog final {
public:
    static constexpr std::size_t kMaxTags = 50;
    static constexpr std::size_t kPageSize = 100;   // ListTopics, as SNS

    TopicCatalog(Database &db, const BrokerIdentity &identity) : m_db(&db), m_identity(&identity) {}

    // The ARN of the new or existing topic. An existing topic with the same
    // attributes is fine (idempotent; tags then ignored); different ones:
    // SnsInvalidParameter "Invalid parameter: Attributes Reason: Topic already
    // exists with different attributes". Bad name / attributes / tags:
    // SnsInvalidParameter.
    Result<std::string> createTopic(std::string_view name, const AttributeMap &attributes, const TopicTags &tags,
                                    ClockTime now);
    // Deletes the topic, its tags and subscriptions (with their pending
    // deliveries). A topic that does not exist is no error (as SNS).
    Status deleteTopic(std::string_view name);
    // The ARNs of the topic's subscriptions, confirmed or not (none for an
    // unknown topic): what deleteTopic removes with it.
    Result<std::vector<std::string>> subscriptionArns(std::string_view name);
    // At most kPageSize topic ARNs after `nextToken` (empty = from the start).
    Result<TopicPage> listTopics(std::string_view nextToken = {});
    // GetTopicAttributes: the stored attributes plus TopicArn, Owner,
    // SubscriptionsConfirmed/Pending/Deleted and EffectiveDeliveryPolicy.
    // Unknown topic: SnsNotFound.
    Result<AttributeMap> topicAttributes(std::string_view name);
    // SetTopicAttributes: one attribute; resets the topic's idle clock.
    Status setTopicAttribute(std::string_view name, std::string_view attribute, std::string_view value, ClockTime now);

    Status tagTopic(std::string_view name, const TopicTags &tags);
    Status untagTopic(std::string_view name, const std::vector<std::string> &keys);
    Result<TopicTags> topicTags(std::string_view name);

private:
    Database *m_db = nullptr;
    const BrokerIdentity *m_identity = nullptr;
};

} // namespace relaydesk
