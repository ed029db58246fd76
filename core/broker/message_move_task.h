// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

class Database;
class IdSource;

// One row of ListMessageMoveTasks, in the AWS shape.
struct MessageMoveTask {
    std::optional<std::string> taskHandle;                   // only while RUNNING, as AWS
    std::string status;                                      // RUNNING, COMPLETED, CANCELLED, FAILED
    std::string sourceArn;
    std::optional<std::string> destinationArn;
    std::optional<std::int64_t> maxNumberOfMessagesPerSecond;
    std::int64_t approximateNumberOfMessagesMoved = 0;
    std::int64_t approximateNumberOfMessagesToMove = 0;
    std::optional<std::string> failureReason;
    ClockTime startedTimestamp{};
};

// What StartMessageMoveTask did: the handle, and the queues whose messages
// changed (the dead-letter queue and every queue that may have gained one).
struct StartedMessageMoveTask {
    std::string taskHandle;
    std::int64_t moved = 0;
    std::vector<std::string> changedQueues;
};

// Message move tasks (SPEC 5.3; AWS StartMessageMoveTask,
// ListMessageMoveTasks, CancelMessageMoveTask). A move runs to its end inside
// the caller's transaction (moveDeadLettersBack) and is recorded in
// `message_move_tasks` with its final status: COMPLETED, or FAILED with
// FailureReason "CouldNotDetermineMessageSource" when some messages stayed
// (their source queue is gone). So no task is ever RUNNING and
// CancelMessageMoveTask always answers ResourceNotFound (AWS's
// ResourceNotFoundException for a task that is not running).
// Errors: a source or destination ARN that names no queue of this broker:
// ResourceNotFound; a source that is no queue's dead-letter queue, a
// MaxNumberOfMessagesPerSecond outside 1–500, a destination of the other
// queue type, MaxResults outside 1–10: InvalidParameterValue.
// Free functions over a Database& inside the caller's transaction; checks
// run before anything is written. Thread of `db`; `now` is clock time.
namespace message_move_tasks {

inline constexpr std::int64_t kMaxMessagesPerSecond = 500;
inline constexpr int kMaxListResults = 10;

Result<StartedMessageMoveTask> start(Database &db, const BrokerIdentity &identity, IdSource &ids,
                                     std::string_view sourceArn, const std::optional<std::string> &destinationArn,
                                     std::optional<std::int64_t> maxNumberOfMessagesPerSecond, ClockTime now);
// The tasks of `sourceArn`, most recent first; maxResults 1–10 (1 when empty).
Result<std::vector<MessageMoveTask>> list(Database &db, const BrokerIdentity &identity, std::string_view sourceArn,
                                          std::optional<int> maxResults);
// Cancels a RUNNING task; answers ApproximateNumberOfMessagesMoved.
Result<std::int64_t> cancel(Database &db, std::string_view taskHandle);

} // namespace message_move_tasks

} // namespace relaydesk
