// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/result.h"
#include "broker/topics/topic_attributes.h"

#include <cstdint>
#include <string>
#include <vector>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

class Database;

// One row of the `topics` table as the topic operations use it. Attributes
// are stored twice, like queues: as columns (what SQL filters on: fifo,
// dedup, delivery policy text, lifetime) and as the GetTopicAttributes map in
// the `attributes` JSON (the whole truth, read back through
// parseTopicAttributes). Plain value type.
struct TopicRecord {
    std::int64_t id = 0;
    std::string name;
    TopicAttributes attributes;
    ClockTime created{};
    ClockTime lastUsed{};   // idle clock of auto-delete (docs/behaviour.md §6): publish or attribute change

    bool isFifo() const { return attributes.fifoTopic; }
};

// The row mapping of topics shared by the topic operations. Free functions
// over a Database& the caller holds inside its transaction; same thread as the
// Database. Store failures come back as InternalError.
namespace topic_records {

Result<std::optional<TopicRecord>> find(Database &db, std::string_view name);
Result<std::optional<TopicRecord>> findById(Database &db, std::int64_t id);
// The topic named `name`, or SnsNotFound "Topic does not exist".
Result<TopicRecord> require(Database &db, std::string_view name);
// Inserts a new topic (created = lastUsed = now); returns its id.
Result<std::int64_t> insert(Database &db, std::string_view name, const TopicAttributes &attributes, ClockTime now);
// Rewrites the attribute columns and JSON of topic `id`; lastUsed = now.
Status update(Database &db, std::int64_t id, const TopicAttributes &attributes, ClockTime now);
// Sets last_used_ms = now (a publish, docs/behaviour.md §6).
Status touch(Database &db, std::int64_t id, ClockTime now);
// Every topic's name, by name.
Result<std::vector<std::string>> names(Database &db);
// The next FIFO topic SequenceNumber of topic `id` (strictly increasing).
Result<std::int64_t> takeSequenceNumber(Database &db, std::int64_t id);

// The attribute map of an `attributes` JSON column (an object of strings;
// other values are skipped, and text that is no object reads as empty), and
// the JSON text of a map. subscription_records stores its map the same way.
AttributeMap readAttributeJson(const std::string &json);
std::string writeAttributeJson(const AttributeMap &map);

} // namespace topic_records

} // namespace relaydesk
