// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/queues/message_attributes.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;

// The state a browsed message is in at the browse time (docs/behaviour.md §8.4). One
// state per message, the first that applies in this order: Expired (past
// its expiry and not locked; removed lazily), InFlight (locked by a
// receive), Scheduled (scheduled enqueue time ahead), Delayed (DelaySeconds
// running), DeadLettered (available in a dead-letter queue, moved there with
// a reason), Available.
enum class MessageState { Available, InFlight, Delayed, Scheduled, Expired, DeadLettered };
std::string_view messageStateName(MessageState state);   // "available", "inFlight", …

struct BrowsedMessage {
    std::int64_t storageId = 0;   // the row id: storage order, a Service Bus sequence number
    std::string messageId;
    std::string body;
    MessageAttributes attributes;
    MessageState state = MessageState::Available;
    std::optional<std::string> groupId;
    std::optional<std::string> deduplicationId;
    std::optional<std::int64_t> sequenceNumber;
    ClockTime sent{};
    ClockTime enqueued{};
    std::optional<ClockTime> scheduledEnqueueTime;
    ClockTime visibleAt{};                    // end of the delay, schedule or lock
    std::optional<ClockTime> expiresAt;
    int receiveCount = 0;
    std::optional<ClockTime> firstReceive;
    std::optional<std::string> deadLetterReason;
    std::optional<std::string> sourceQueue;   // the queue it was dead-lettered from, if it still exists
    std::optional<std::string> deadLetterDescription;   // a Service Bus dead letter's description, when given
    bool deferred = false;   // a deferred Service Bus message: receives pass it over (state stays as above)
};

struct BrowsePage {
    std::vector<BrowsedMessage> messages;
    std::optional<std::int64_t> nextPageToken;   // pass as `after` for the next page; empty on the last page
    // A search's progress: the messages it examined for this page; whether it
    // stopped at its scan limit before the page was full (the next page goes
    // on from nextPageToken).
    std::int64_t scanned = 0;
    bool scanLimitReached = false;
    // On the first page (no `after`), searching or not: the queue's stored
    // message count (its depth counter, no scan) — the window's "row N of M".
    std::optional<std::int64_t> total;
};

// What one browse call asks for.
struct BrowseRequest {
    std::optional<std::int64_t> after;       // the previous page's nextPageToken
    int pageSize = 100;                      // 1–1000
    std::string search;                      // see browseQueue
    bool newestFirst = false;                // storage order backwards (the newest message first)
    std::optional<std::int64_t> scanLimit;   // at most this many messages examined per page by a search
};

// Browse (peek without receiving, docs/behaviour.md §8.2/8.4): every message of a queue in
// every state, in storage order — the order they arrived in, so by sent
// time — or that order backwards (newestFirst), both read along the
// messages_by_queue index, `pageSize` (1–1000) at a time after the token of
// the previous page. Changes nothing (works on a read-only
// connection). QueueDoesNotExist / InvalidParameterValue. Thread of `db`.
// `search` (the window's search box) narrows it: empty shows every message;
// `key=value`, where key is a valid attribute name, the messages whose
// String or Number attribute `key` is exactly `value`; any other text the
// message with that id and the messages whose body contains it (bytewise,
// case-sensitive). A search examines the messages in order and, with a
// scanLimit, stops after that many even when it found fewer than pageSize
// (scanLimitReached), so a search that matches nothing costs a bounded read
// per page, never a scan of the whole queue; without one a page may hold
// fewer rows than `pageSize` only on the last page.
Result<BrowsePage> browseQueue(Database &db, std::string_view queueName, ClockTime now, const BrowseRequest &request);
Result<BrowsePage> browseQueue(Database &db, std::string_view queueName, ClockTime now,
                               std::optional<std::int64_t> after = std::nullopt, int pageSize = 100,
                               std::string_view search = {});

// How `search` is read: an attribute filter when it has the `key=value`
// shape (key 1–256 of [A-Za-z0-9_.-]), else a text (id or body) search. Pure.
struct BrowseSearch {
    enum class Kind { Everything, Attribute, Text };
    Kind kind = Kind::Everything;
    std::string attributeName;   // Attribute
    std::string value;           // Attribute: the value; Text: the text
};
BrowseSearch parseBrowseSearch(std::string_view search);

} // namespace relaydesk
