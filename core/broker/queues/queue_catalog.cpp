// SPDX-License-Identifier: MIT
#include "broker/queues/queue_catalog.h"

#include "broker/attribute_text.h"
#include "broker/entity_names.h"
#include "broker/queues/queue_attributes.h"
#include "broker/queues/queue_depths.h"
#include "broker/queues/queue_records.h"
#include "broker/store_calls.h"

#include <algorithm>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

Status validateTags(const QueueTags &tags)
{
    for (const auto &[key, value] : tags) {
        if (std::optional<std::string> problem = tagProblem(key, value))
            return BrokerError(Code::InvalidParameterValue, *problem);
    }
    return {};
}

Status writeTags(Database &db, std::int64_t queueId, const QueueTags &tags)
{
    for (const auto &[key, value] : tags)
        if (Status written = executeStatement(
                db, "INSERT OR REPLACE INTO queue_tags (queue_id, key, value) VALUES (?, ?, ?)", queueId, key, value);
            !written)
            return written;
    return {};
}

std::string seconds(ClockTime time) { return std::to_string(toEpochMilliseconds(time) / 1000); }

} // namespace

Status QueueCatalog::checkRedriveTarget(std::string_view sourceName, const QueueAttributes &attributes)
{
    if (!attributes.redrivePolicy)
        return {};
    Result<std::string> target = m_identity->queueNameFromArn(attributes.redrivePolicy->deadLetterTargetArn);
    Result<std::optional<QueueRecord>> found = target ? queue_records::find(*m_db, *target)
                                                      : Result<std::optional<QueueRecord>>(std::nullopt);
    if (!found)
        return found.error();
    if (target && *target == sourceName)
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + writeQueueRedrivePolicy(*attributes.redrivePolicy)
                               + " for parameter RedrivePolicy is invalid. Reason: A queue cannot be its own "
                                 "dead-letter queue.");
    if (!found->has_value())
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + writeQueueRedrivePolicy(*attributes.redrivePolicy)
                               + " for parameter RedrivePolicy is invalid. Reason: Dead letter target does not exist.");
    const std::optional<RedriveAllowPolicy> &allowed = (*found)->attributes.redriveAllowPolicy;
    if (allowed && !allowed->allowsSource(m_identity->queueArn(sourceName)))
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + writeQueueRedrivePolicy(*attributes.redrivePolicy)
                               + " for parameter RedrivePolicy is invalid. Reason: The dead-letter queue's "
                                 "RedriveAllowPolicy does not allow this queue as a source.");
    return {};
}

Result<std::string> QueueCatalog::createQueue(std::string_view name, const AttributeMap &attributes,
                                              const QueueTags &tags, ClockTime now)
{
    if (Status valid = validateQueueName(name); !valid)
        return valid.error();
    Result<std::optional<QueueRecord>> existing = queue_records::find(*m_db, name);
    if (!existing)
        return existing.error();
    if (existing->has_value()) {
        if (Status same = checkSameQueueAttributes(name, (*existing)->attributes, attributes); !same)
            return same.error();
        return m_identity->queueUrl(name);
    }
    Result<QueueAttributes> parsed = parseQueueAttributes(name, attributes);
    if (!parsed)
        return parsed.error();
    if (Status target = checkRedriveTarget(name, *parsed); !target)
        return target.error();
    if (tags.size() > kMaxTags)
        return BrokerError(Code::InvalidParameterValue, "Too many tags added for queue " + std::string(name) + ".");
    if (Status valid = validateTags(tags); !valid)
        return valid.error();
    Result<std::int64_t> id = queue_records::insert(*m_db, name, *parsed, now);
    if (!id)
        return id.error();
    if (Status written = writeTags(*m_db, *id, tags); !written)
        return written.error();
    return m_identity->queueUrl(name);
}

Status QueueCatalog::deleteQueue(std::string_view name)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, name);
    if (!queue)
        return queue.error();
    return executeStatement(*m_db, "DELETE FROM queues WHERE id = ?", queue->id);
}

Result<std::string> QueueCatalog::queueUrl(std::string_view name)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, name);
    if (!queue)
        return queue.error();
    return m_identity->queueUrl(name);
}

Result<std::vector<std::string>> QueueCatalog::listQueueUrls(std::string_view prefix, std::size_t maxResults)
{
    if (maxResults < 1 || maxResults > kMaxListResults)
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + std::to_string(maxResults)
                               + " for parameter MaxResults is invalid. Reason: must be between 1 and 1000.");
    Result<std::vector<std::string>> names = selectColumn<std::string>(
        *m_db, "SELECT name FROM queues WHERE substr(name, 1, length(?1)) = ?1 ORDER BY name", prefix);
    if (!names)
        return names.error();
    std::vector<std::string> urls;
    for (const std::string &queue : *names) {
        if (urls.size() == maxResults)
            break;
        urls.push_back(m_identity->queueUrl(queue));
    }
    return urls;
}

Result<QueuePage> QueueCatalog::listQueues(std::string_view prefix, std::optional<std::size_t> maxResults,
                                           std::string_view nextToken)
{
    const std::size_t limit = maxResults.value_or(kMaxListResults);
    if (limit < 1 || limit > kMaxListResults)
        return BrokerError(Code::InvalidParameterValue,
                           "Value " + std::to_string(limit)
                               + " for parameter MaxResults is invalid. Reason: must be between 1 and 1000.");
    // A token is the last queue name of the previous page: anything else is
    // refused rather than read as a position (which would restart the list).
    if (!nextToken.empty() && !validateQueueName(nextToken))
        return BrokerError(Code::InvalidParameterValue, "Invalid NextToken value.");
    Result<std::vector<std::string>> names = selectColumn<std::string>(
        *m_db, "SELECT name FROM queues WHERE substr(name, 1, length(?1)) = ?1 AND name > ?2 ORDER BY name LIMIT ?3",
        prefix, nextToken, static_cast<std::int64_t>(limit) + 1);
    if (!names)
        return names.error();
    QueuePage page;
    for (std::size_t i = 0; i < names->size() && i < limit; ++i)
        page.queueUrls.push_back(m_identity->queueUrl((*names)[i]));
    if (maxResults && names->size() > limit)
        page.nextToken = (*names)[limit - 1];
    return page;
}

Result<AttributeMap> QueueCatalog::queueAttributes(std::string_view name, const std::vector<std::string> &names,
                                                   ClockTime now)
{
    for (const std::string &asked : names)
        if (!isQueueAttributeName(asked))
            return BrokerError(Code::InvalidAttributeName, "Unknown Attribute " + asked + ".");
    Result<QueueRecord> queue = queue_records::require(*m_db, name);
    if (!queue)
        return queue.error();
    // Expired messages are removed lazily, so they may still be counted (docs/behaviour.md §6).
    // From the kept counters, not a walk over the queue's messages; inside a
    // unit on the write connection, so it may move the queue's mark (queue_depths.h).
    Result<QueueDepths> depths = queue_depths::refresh(*m_db, queue->id, now);
    if (!depths)
        return depths.error();
    const QueueCounts &counts = depths->counts;

    AttributeMap all = writeQueueAttributes(queue->attributes);
    all["QueueArn"] = m_identity->queueArn(name);
    all["ApproximateNumberOfMessages"] = std::to_string(counts.available);
    all["ApproximateNumberOfMessagesNotVisible"] = std::to_string(counts.inFlight);
    all["ApproximateNumberOfMessagesDelayed"] = std::to_string(counts.delayed + counts.scheduled);
    all["CreatedTimestamp"] = seconds(queue->created);
    all["LastModifiedTimestamp"] = seconds(queue->lastModified);

    const bool everything = std::find(names.begin(), names.end(), "All") != names.end();
    if (everything)
        return all;
    AttributeMap chosen;
    for (const std::string &asked : names)
        if (const auto it = all.find(asked); it != all.end())
            chosen.insert(*it);
    return chosen;
}

Status QueueCatalog::setQueueAttributes(std::string_view name, const AttributeMap &changes, ClockTime now)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, name);
    if (!queue)
        return queue.error();
    Result<QueueAttributes> changed = applyQueueAttributes(queue->attributes, changes);
    if (!changed)
        return changed.error();
    if (changed->redrivePolicy != queue->attributes.redrivePolicy)
        if (Status target = checkRedriveTarget(name, *changed); !target)
            return target;
    return queue_records::update(*m_db, queue->id, *changed, now);
}

Status QueueCatalog::tagQueue(std::string_view name, const QueueTags &tags)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, name);
    if (!queue)
        return queue.error();
    if (Status valid = validateTags(tags); !valid)
        return valid;
    Result<QueueTags> current = queueTags(name);
    if (!current)
        return current.error();
    QueueTags merged = *current;
    for (const auto &[key, value] : tags)
        merged[key] = value;
    if (merged.size() > kMaxTags)
        return BrokerError(Code::InvalidParameterValue, "Too many tags added for queue " + std::string(name) + ".");
    return writeTags(*m_db, queue->id, tags);
}

Status QueueCatalog::untagQueue(std::string_view name, const std::vector<std::string> &keys)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, name);
    if (!queue)
        return queue.error();
    for (const std::string &key : keys)
        if (Status removed = executeStatement(*m_db, "DELETE FROM queue_tags WHERE queue_id = ? AND key = ?",
                                              queue->id, key);
            !removed)
            return removed;
    return {};
}

Result<QueueTags> QueueCatalog::queueTags(std::string_view name)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, name);
    if (!queue)
        return queue.error();
    Result<CachedStatement> statement =
        prepareBound(*m_db, "SELECT key, value FROM queue_tags WHERE queue_id = ? ORDER BY key", queue->id);
    if (!statement)
        return statement.error();
    QueueTags tags;
    if (Status read = forEachRow(**statement, [&](Statement &row) { tags[row.columnText(0)] = row.columnText(1); });
        !read)
        return read.error();
    return tags;
}

Result<std::vector<std::string>> QueueCatalog::deadLetterSourceQueueUrls(std::string_view name)
{
    Result<QueueRecord> queue = queue_records::require(*m_db, name);
    if (!queue)
        return queue.error();
    Result<std::vector<std::string>> names =
        selectColumn<std::string>(*m_db, "SELECT name FROM queues WHERE dead_letter_queue = ? ORDER BY name", name);
    if (!names)
        return names.error();
    std::vector<std::string> urls;
    for (const std::string &source : *names)
        urls.push_back(m_identity->queueUrl(source));
    return urls;
}

} // namespace relaydesk
