// SPDX-License-Identifier: MIT
#include "engine/servicebus_message_calls.h"

#include "broker/queues/message_removal.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/queues/servicebus_send_rules.h"
#include "engine/unit_context.h"

#include <QUuid>

#include <any>
#include <set>

namespace relaydesk::servicebus_message_calls {

void resubmit(BrokerService &service, std::string fromQueue, std::string entityQueue,
              std::vector<Resubmission> messages, QObject *context, std::function<void(Result<Resubmitted>)> reply)
{
    service.runUnit(
        [fromQueue = std::move(fromQueue), entityQueue = std::move(entityQueue), messages = std::move(messages)](
            UnitContext &unit, const BrokerIdentity &, IdSource &ids, std::vector<std::string> &wake) -> Result<std::any> {
            const bool deadLetters = isServiceBusDeadLetterQueue(fromQueue);
            MessageSender sender(unit.database(), ids);
            Resubmitted done;
            std::set<std::string> touched;
            for (const Resubmission &message : messages) {
                if (deadLetters) {
                    Result<std::int64_t> removed =
                        deleteMessagesById(unit.database(), fromQueue, {message.storedMessageId});
                    if (!removed)
                        return removed.error();
                    if (*removed == 0) {
                        ++done.gone;
                        continue;
                    }
                    unit.countQueue(QueueCounter::Deleted, fromQueue);
                    touched.insert(fromQueue);
                }
                Result<std::optional<std::string>> target =
                    routeServiceBusMessage(unit.database(), entityQueue, message.copy, unit.now());
                if (!target)
                    return target.error();
                ++done.sent;
                if (!*target)
                    continue;   // a duplicate within the detection window: accepted, not stored
                if (auto sent = sender.send(**target, message.copy, unit.now()); !sent)
                    return sent.error();
                unit.countQueue(QueueCounter::Sent, **target);
                touched.insert(**target);
            }
            for (const std::string &queue : touched) {
                unit.reportChange({EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue,
                                   QString::fromStdString(queue)});
                wake.push_back(queue);
            }
            return std::any(done);
        },
        false, context, [reply = std::move(reply)](Result<std::any> done) {
            if (!done)
                return reply(done.error());
            reply(std::any_cast<Resubmitted>(*done));
        });
}

void acceptSession(BrokerService &service, std::string queue, std::optional<std::string> sessionId,
                   QObject *context, std::function<void(Result<SessionLock>)> reply)
{
    const std::string token = QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
    service.runUnit(
        [queue = std::move(queue), sessionId = std::move(sessionId), token](
            UnitContext &unit, const BrokerIdentity &, IdSource &, std::vector<std::string> &) -> Result<std::any> {
            Result<ServiceBusEntity> entity = servicebus_queues::find(unit.database(), queue);
            if (!entity)
                return entity.error();
            if (!entity->properties.requiresSession || entity->deadLetterQueue)
                return BrokerError(BrokerErrorCode::InvalidParameterValue,
                                   "The entity \"" + queue + "\" does not require sessions: receive without one.");
            Result<servicebus_sessions::Acceptance> accepted =
                servicebus_sessions::accept(unit.database(), queue, sessionId, token, unit.now());
            if (!accepted)
                return accepted.error();
            SessionLock lock{*accepted, {accepted->sessionId, token}};
            return std::any(std::move(lock));
        },
        false, context, [reply = std::move(reply)](Result<std::any> done) {
            if (!done)
                return reply(done.error());
            reply(std::any_cast<SessionLock>(*done));
        });
}

void releaseSession(BrokerService &service, std::string queue, ServiceBusSessionHold hold, QObject *context,
                    std::function<void(Status)> reply)
{
    service.runUnit(
        [queue = std::move(queue), hold = std::move(hold)](UnitContext &unit, const BrokerIdentity &, IdSource &,
                                                           std::vector<std::string> &wake) -> Result<std::any> {
            if (Status released = servicebus_sessions::release(unit.database(), queue, hold, unit.now()); !released)
                return released.error();
            unit.reportChange({EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue,
                               QString::fromStdString(queue)});
            wake.push_back(queue);
            return std::any(true);
        },
        false, context, [reply = std::move(reply)](Result<std::any> done) {
            if (reply)
                reply(done ? Status() : Status(done.error()));
        });
}

} // namespace relaydesk::servicebus_message_calls
