// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/result.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

using QueueTags = std::map<std::string, std::string>;

// One page of ListQueues: URLs by name, and the token of the next page
// (empty on the last page, and always without MaxResults, as SQS).
struct QueuePage {
    std::vector<std::string> queueUrls;
    std::string nextToken;
};

// The SQS queue catalog (docs/behaviour.md §1, 5, 10): CreateQueue, DeleteQueue,
// GetQueueUrl, ListQueues, Get/SetQueueAttributes (with the computed counts),
// tags, ListDeadLetterSourceQueues. Queues are named by their name; the
// protocol layer turns URLs into names with BrokerIdentity::queueNameFromUrl.
//
// Every method runs inside the transaction the caller holds on `db` (one
// CommitQueue unit); on an error nothing was written, provided the caller
// rolls back its unit (methods check before they write, so they also leave
// nothing behind on validation errors). `now` is clock time (docs/behaviour.md §7).
// Ownership: borrows `db` and `identity`, which must outlive it.
// Thread safety: none — the thread of `db`.
class QueueCatalog final {
public:
    static constexpr std::size_t kMaxTags = 50;
    static constexpr std::size_t kMaxListResults = 1000;

    QueueCatalog(Database &db, const BrokerIdentity &identity) : m_db(&db), m_identity(&identity) {}

    // The URL of the new or existing queue. An existing queue with the same
    // attributes is fine (idempotent; tags then ignored); different ones:
    // QueueAlreadyExists. A redrive target that does not exist, or whose
    // RedriveAllowPolicy refuses this queue: InvalidParameterValue.
    Result<std::string> createQueue(std::string_view name, const AttributeMap &attributes, const QueueTags &tags,
                                    ClockTime now);
    // Deletes the queue with its messages and dedup window; dead-lettered
    // messages elsewhere forget it as their source.
    Status deleteQueue(std::string_view name);
    Result<std::string> queueUrl(std::string_view name);
    // URLs of the queues whose name starts with `prefix`, by name, at most
    // maxResults (1–1000).
    Result<std::vector<std::string>> listQueueUrls(std::string_view prefix, std::size_t maxResults = kMaxListResults);
    // ListQueues with paging: at most maxResults (1–1000; 1000 when empty)
    // after `nextToken` (a token of an earlier page; it names the last queue
    // listed, so a page survives deletions).
    Result<QueuePage> listQueues(std::string_view prefix, std::optional<std::size_t> maxResults,
                                 std::string_view nextToken = {});
    // The attributes asked for ("All" = every one), with the computed ones:
    // QueueArn, the three approximate counts at `now`, Created/LastModified
    // timestamps (seconds). Unknown names: InvalidAttributeName.
    Result<AttributeMap> queueAttributes(std::string_view name, const std::vector<std::string> &names, ClockTime now);
    Status setQueueAttributes(std::string_view name, const AttributeMap &changes, ClockTime now);

    Status tagQueue(std::string_view name, const QueueTags &tags);
    Status untagQueue(std::string_view name, const std::vector<std::string> &keys);
    Result<QueueTags> queueTags(std::string_view name);

    // URLs of the queues whose redrive policy names `name` as dead-letter queue.
    Result<std::vector<std::string>> deadLetterSourceQueueUrls(std::string_view name);

private:
    Status checkRedriveTarget(std::string_view sourceName, const struct QueueAttributes &attributes);

    Database *m_db = nullptr;
    const BrokerIdentity *m_identity = nullptr;
};

} // namespace relaydesk
