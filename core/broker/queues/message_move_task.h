// SPDX-License-Identifier: MIT
#pragma once

#include "broker/broker_identity.h"
#include "broker/clock_time.h"
#include "broker/result.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
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

// What one chunk of a move did: how many it moved, whether the task has
// ended (COMPLETED, FAILED or CANCELLED — nothing more to schedule), and the
// queues whose messages changed (the dead-letter queue and every queue that
// may have gained one).
struct MessageMoveChunk {
    std::int64_t moved = 0;
    bool ended = false;
    std::vector<std::string> changedQueues;
};

// What StartMessageMoveTask did: the handle and its first chunk.
struct StartedMessageMoveTask {
    std::string taskHandle;
    MessageMoveChunk first;
};

// Message move tasks (docs/behaviour.md §5.3; AWS StartMessageMoveTask,
// ListMessageMoveTasks, CancelMessageMoveTask). A task moves in chunks, one
// commit unit each, so its progress shows and it can be stopped half-way:
//  - start records the task RUNNING (ApproximateNumberOfMessagesToMove: the
//    dead-letter queue's messages then) and moves the first chunk in the
//    same unit; the caller runs moveNextChunk every chunkInterval() until a
//    chunk says the task ended (BrokerService does, on the ClockScheduler, so
//    the virtual clock drives it).
//  - a chunk moves MaxNumberOfMessagesPerSecond messages, one chunk per clock
//    second, as SQS honours that rate; without a rate kUnratedChunk messages,
//    chunk after chunk with no wait.
//  - the task ends COMPLETED when the messages to move are moved or none
//    that can move is left; FAILED with FailureReason
//    "CouldNotDetermineMessageSource" when some stayed (their source queue is
//    gone, or they were never dead-lettered), or with a plain reason when the
//    dead-letter or destination queue was deleted meanwhile; CANCELLED by
//    cancel. What was moved stays moved.
// Errors: a source or destination ARN that names no queue of this broker:
// ResourceNotFound; a source that is no queue's dead-letter queue, a
// MaxNumberOfMessagesPerSecond outside 1–500, a destination of the other
// queue type, MaxResults outside 1–10, a second task on a queue whose task
// still runs: InvalidParameterValue.
// Free functions over a Database& inside the caller's transaction; checks
// run before anything is written. Thread of `db`; `now` is clock time.
namespace message_move_tasks {

inline constexpr std::int64_t kMaxMessagesPerSecond = 500;
inline constexpr std::int64_t kUnratedChunk = 1000;
inline constexpr int kMaxListResults = 10;

// The wait between two chunks of a task with this rate: a clock second with
// one, none without.
ClockDuration chunkInterval(std::optional<std::int64_t> maxNumberOfMessagesPerSecond);

Result<StartedMessageMoveTask> start(Database &db, const BrokerIdentity &identity, IdSource &ids,
                                     std::string_view sourceArn, const std::optional<std::string> &destinationArn,
                                     std::optional<std::int64_t> maxNumberOfMessagesPerSecond, ClockTime now);
// The next chunk of the task `taskHandle`; ended at once (nothing moved) when
// the task is no longer RUNNING or unknown.
Result<MessageMoveChunk> moveNextChunk(Database &db, const BrokerIdentity &identity, std::string_view taskHandle,
                                       ClockTime now);
// The handles and rates of the RUNNING tasks (a broker that stopped
// mid-move resumes them when it starts again).
Result<std::vector<std::pair<std::string, std::optional<std::int64_t>>>> runningTasks(Database &db);
// The tasks of `sourceArn`, most recent first; maxResults 1–10 (1 when empty).
Result<std::vector<MessageMoveTask>> list(Database &db, const BrokerIdentity &identity, std::string_view sourceArn,
                                          std::optional<int> maxResults);
// Cancels a RUNNING task (its next chunk does not run); answers
// ApproximateNumberOfMessagesMoved. ResourceNotFound for a task that ended.
Result<std::int64_t> cancel(Database &db, std::string_view taskHandle);

} // namespace message_move_tasks

} // namespace relaydesk
