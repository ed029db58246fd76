// SPDX-License-Identifier: MIT
#include "broker/queues/message_browser.h"

#include "broker/queues/queue_depths.h"
#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

#include <algorithm>
#include <limits>

namespace relaydesk {

namespace {

std::optional<ClockTime> optionalTime(const std::optional<std::int64_t> &ms)
{
    return ms ? std::optional<ClockTime>(fromEpochMilliseconds(*ms)) : std::nullopt;
}

bool isAttributeNameCharacter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'
        || c == '.';
}

// The query of one browse page: every message in order from the token,
// with a column `hit` saying whether it matches `search` (the caller counts
// what it examined and keeps the hits).
std::string browseSql(const BrowseSearch &search, bool newestFirst)
{
    std::string hit = "1";
    switch (search.kind) {
    case BrowseSearch::Kind::Everything: break;
    case BrowseSearch::Kind::Attribute: hit = "json_extract(m.attributes, ?) IS ?"; break;
    case BrowseSearch::Kind::Text: hit = "(m.message_id = ? OR instr(m.body, ?) > 0)"; break;
    }
    return "SELECT m.id, " + hit
         + ", m.message_id, m.body, m.attributes, m.state, m.group_id, m.dedup_id, m.sequence_number, "
           "m.sent_ms, m.enqueued_ms, m.scheduled_ms, m.visible_at_ms, m.expires_at_ms, m.receive_count, "
           "m.first_receive_ms, m.dead_letter_reason, s.name, m.dead_letter_description, m.deferred FROM messages m INDEXED BY messages_by_queue "
           "LEFT JOIN queues s ON s.id = m.source_queue_id WHERE m.queue_id = ? AND m.id "
         + (newestFirst ? "< ? ORDER BY m.id DESC" : "> ? ORDER BY m.id") + " LIMIT ?";
}

// One stored row (columns as browseSql) as a browsed message at `nowMs`.
BrowsedMessage readMessage(Statement &row, std::int64_t nowMs)
{
    BrowsedMessage message;
    message.storageId = row.columnInt64(0);
    message.messageId = row.columnText(2);
    message.body = row.columnText(3);
    message.attributes = queue_records::readMessageAttributes(row.columnText(4));
    const std::string stored = row.columnText(5);
    message.groupId = row.columnOptionalText(6);
    if (std::optional<std::string> dedup = row.columnOptionalText(7)) {
        const std::size_t mark = dedup->find('\x1f');
        message.deduplicationId = mark == std::string::npos ? *dedup : dedup->substr(mark + 1);
    }
    message.sequenceNumber = row.columnOptionalInt64(8);
    message.sent = fromEpochMilliseconds(row.columnInt64(9));
    message.enqueued = fromEpochMilliseconds(row.columnInt64(10));
    message.scheduledEnqueueTime = optionalTime(row.columnOptionalInt64(11));
    const std::int64_t visibleAt = row.columnInt64(12);
    message.visibleAt = fromEpochMilliseconds(visibleAt);
    const std::optional<std::int64_t> expiresAt = row.columnOptionalInt64(13);
    message.expiresAt = optionalTime(expiresAt);
    message.receiveCount = static_cast<int>(row.columnInt64(14));
    message.firstReceive = optionalTime(row.columnOptionalInt64(15));
    message.deadLetterReason = row.columnOptionalText(16);
    message.sourceQueue = row.columnOptionalText(17);
    message.deadLetterDescription = row.columnOptionalText(18);
    message.deferred = row.columnInt64(19) != 0;

    const bool locked = visibleAt > nowMs;
    if (expiresAt && *expiresAt <= nowMs && !(locked && stored == "inflight"))
        message.state = MessageState::Expired;
    else if (locked && stored == "inflight")
        message.state = MessageState::InFlight;
    else if (locked && message.scheduledEnqueueTime)
        message.state = MessageState::Scheduled;
    else if (locked)
        message.state = MessageState::Delayed;
    else if (message.deadLetterReason)
        message.state = MessageState::DeadLettered;
    else
        message.state = MessageState::Available;
    return message;
}

} // namespace

BrowseSearch parseBrowseSearch(std::string_view search)
{
    BrowseSearch parsed;
    if (search.empty())
        return parsed;
    const std::size_t equals = search.find('=');
    const std::string_view key = equals == std::string_view::npos ? std::string_view() : search.substr(0, equals);
    if (!key.empty() && key.size() <= 256 && std::all_of(key.begin(), key.end(), isAttributeNameCharacter)) {
        parsed.kind = BrowseSearch::Kind::Attribute;
        parsed.attributeName = std::string(key);
        parsed.value = std::string(search.substr(equals + 1));
        return parsed;
    }
    parsed.kind = BrowseSearch::Kind::Text;
    parsed.value = std::string(search);
    return parsed;
}

std::string_view messageStateName(MessageState state)
{
    switch (state) {
    case MessageState::Available: return "available";
    case MessageState::InFlight: return "inFlight";
    case MessageState::Delayed: return "delayed";
    case MessageState::Scheduled: return "scheduled";
    case MessageState::Expired: return "expired";
    case MessageState::DeadLettered: return "deadLettered";
    }
    return "available";
}

Result<BrowsePage> browseQueue(Database &db, std::string_view queueName, ClockTime now,
                               std::optional<std::int64_t> after, int pageSize, std::string_view search)
{
    BrowseRequest request;
    request.after = after;
    request.pageSize = pageSize;
    request.search = std::string(search);
    return browseQueue(db, queueName, now, request);
}

Result<BrowsePage> browseQueue(Database &db, std::string_view queueName, ClockTime now, const BrowseRequest &request)
{
    const int pageSize = request.pageSize;
    if (pageSize < 1 || pageSize > 1000)
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "Value " + std::to_string(pageSize) + " for parameter PageSize is invalid. Reason: must be "
                           "between 1 and 1000.");
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    const BrowseSearch narrowed = parseBrowseSearch(request.search);
    const bool searching = narrowed.kind != BrowseSearch::Kind::Everything;
    const std::int64_t from =
        request.after.value_or(request.newestFirst ? std::numeric_limits<std::int64_t>::max() : 0);
    // A page is pageSize rows (a search: scanLimit rows examined) and one to
    // know there is more.
    const std::int64_t limit = searching ? (request.scanLimit ? *request.scanLimit + 1 : -1) : pageSize + 1;
    const std::string sql = browseSql(narrowed, request.newestFirst);
    Result<CachedStatement> statement = [&] {
        switch (narrowed.kind) {
        case BrowseSearch::Kind::Attribute:
            return prepareBound(db, sql, "$.\"" + narrowed.attributeName + "\".StringValue", narrowed.value, queue->id,
                                from, limit);
        case BrowseSearch::Kind::Text:
            return prepareBound(db, sql, narrowed.value, narrowed.value, queue->id, from, limit);
        case BrowseSearch::Kind::Everything: break;
        }
        return prepareBound(db, sql, queue->id, from, limit);
    }();
    if (!statement)
        return statement.error();
    const std::int64_t nowMs = toEpochMilliseconds(now);
    BrowsePage page;
    std::int64_t lastRow = 0;       // the last message on the page
    std::int64_t lastScanned = 0;   // the last message examined
    std::int64_t examined = 0;
    std::int64_t examinedToLastHit = 0;   // what the next page does not read again
    bool full = false;
    bool moreToScan = false;   // the scan limit was reached with messages left after it
    const Status read = forEachRow(**statement, [&](Statement &row) {
        const bool hit = row.columnInt64(1) != 0;
        if (hit && page.messages.size() == static_cast<std::size_t>(pageSize)) {
            full = true;
            page.nextPageToken = lastRow;
            return false;
        }
        if (request.scanLimit && examined == *request.scanLimit) {
            moreToScan = true;
            return false;
        }
        ++examined;
        lastScanned = row.columnInt64(0);
        if (!hit)
            return true;
        examinedToLastHit = examined;
        lastRow = row.columnInt64(0);
        page.messages.push_back(readMessage(row, nowMs));
        return true;
    });
    if (!read)
        return read.error();
    page.scanned = full ? examinedToLastHit : examined;
    if (searching && !full && moreToScan) {
        page.scanLimitReached = true;
        page.nextPageToken = lastScanned;
    }
    if (!request.after) {
        Result<std::int64_t> total = queue_depths::storedMessages(db, queue->id);
        if (!total)
            return total.error();
        page.total = *total;
    }
    return page;
}

} // namespace relaydesk
