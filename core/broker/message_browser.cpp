// SPDX-License-Identifier: MIT
#include "broker/message_browser.h"

#include "broker/queue_records.h"
#include "broker/store_calls.h"

#include <algorithm>

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

// The query of one browse page, narrowed by `search`.
std::string browseSql(const BrowseSearch &search)
{
    std::string sql =
        "SELECT m.id, m.message_id, m.body, m.attributes, m.state, m.group_id, m.dedup_id, m.sequence_number, "
        "m.sent_ms, m.enqueued_ms, m.scheduled_ms, m.visible_at_ms, m.expires_at_ms, m.receive_count, "
        "m.first_receive_ms, m.dead_letter_reason, s.name FROM messages m INDEXED BY messages_by_queue "
        "LEFT JOIN queues s ON s.id = m.source_queue_id WHERE m.queue_id = ? AND m.id > ? ";
    switch (search.kind) {
    case BrowseSearch::Kind::Everything: break;
    case BrowseSearch::Kind::Attribute: sql += "AND json_extract(m.attributes, ?) = ? "; break;
    case BrowseSearch::Kind::Text: sql += "AND (m.message_id = ? OR instr(m.body, ?) > 0) "; break;
    }
    return sql + "ORDER BY m.id LIMIT ?";
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
    if (pageSize < 1 || pageSize > 1000)
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "Value " + std::to_string(pageSize) + " for parameter PageSize is invalid. Reason: must be "
                           "between 1 and 1000.");
    Result<QueueRecord> queue = queue_records::require(db, queueName);
    if (!queue)
        return queue.error();
    const BrowseSearch narrowed = parseBrowseSearch(search);
    const std::string sql = browseSql(narrowed);
    Result<CachedStatement> statement = [&] {
        switch (narrowed.kind) {
        case BrowseSearch::Kind::Attribute:
            return prepareBound(db, sql, queue->id, after.value_or(0),
                                "$.\"" + narrowed.attributeName + "\".StringValue", narrowed.value, pageSize + 1);
        case BrowseSearch::Kind::Text:
            return prepareBound(db, sql, queue->id, after.value_or(0), narrowed.value, narrowed.value, pageSize + 1);
        case BrowseSearch::Kind::Everything: break;
        }
        return prepareBound(db, sql, queue->id, after.value_or(0), pageSize + 1);
    }();
    if (!statement)
        return statement.error();
    const std::int64_t nowMs = toEpochMilliseconds(now);
    BrowsePage page;
    std::int64_t lastRow = 0;
    const Status read = forEachRow(**statement, [&](Statement &row) {
        if (page.messages.size() == static_cast<std::size_t>(pageSize)) {
            page.nextPageToken = lastRow;
            return false;
        }
        lastRow = row.columnInt64(0);
        BrowsedMessage message;
        message.messageId = row.columnText(1);
        message.body = row.columnText(2);
        message.attributes = queue_records::readMessageAttributes(row.columnText(3));
        const std::string stored = row.columnText(4);
        message.groupId = row.columnOptionalText(5);
        if (std::optional<std::string> dedup = row.columnOptionalText(6)) {
            const std::size_t mark = dedup->find('\x1f');
            message.deduplicationId = mark == std::string::npos ? *dedup : dedup->substr(mark + 1);
        }
        message.sequenceNumber = row.columnOptionalInt64(7);
        message.sent = fromEpochMilliseconds(row.columnInt64(8));
        message.enqueued = fromEpochMilliseconds(row.columnInt64(9));
        message.scheduledEnqueueTime = optionalTime(row.columnOptionalInt64(10));
        const std::int64_t visibleAt = row.columnInt64(11);
        message.visibleAt = fromEpochMilliseconds(visibleAt);
        const std::optional<std::int64_t> expiresAt = row.columnOptionalInt64(12);
        message.expiresAt = optionalTime(expiresAt);
        message.receiveCount = static_cast<int>(row.columnInt64(13));
        message.firstReceive = optionalTime(row.columnOptionalInt64(14));
        message.deadLetterReason = row.columnOptionalText(15);
        message.sourceQueue = row.columnOptionalText(16);

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
        page.messages.push_back(std::move(message));
        return true;
    });
    if (!read)
        return read.error();
    return page;
}

} // namespace relaydesk
