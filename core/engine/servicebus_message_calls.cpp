// SPDX-License-Identifier: MIT
#include "engine/servicebus_message_calls.h"

#include "broker/queues/message_removal.h"
#include "broker/queues/servicebus_queue.h"
#include "broker/queues/servicebus_send_rules.h"
#include "engine/unit_context.h"

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

} // namespace relaydesk::servicebus_message_calls
