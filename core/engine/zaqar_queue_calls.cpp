// SPDX-License-Identifier: MIT
#include "engine/zaqar_queue_calls.h"

#include "engine/unit_context.h"

#include <any>

namespace relaydesk::zaqar_queue_calls {

void readFacts(BrokerService &service, std::string name, QObject *context,
               std::function<void(Result<std::optional<ZaqarQueueFacts>>)> reply)
{
    using Facts = std::optional<ZaqarQueueFacts>;
    service.runUnit(
        [name = std::move(name)](UnitContext &unit, const BrokerIdentity &, IdSource &,
                                 std::vector<std::string> &) -> Result<std::any> {
            Result<std::optional<std::int64_t>> id = zaqar_store::queueId(unit.database(), name);
            if (!id)
                return id.error();
            if (!*id)
                return std::any(Facts());
            ZaqarQueueFacts facts;
            Result<nlohmann::json> metadata = zaqar_store::metadata(unit.database(), **id);
            if (!metadata)
                return metadata.error();
            facts.metadata = std::move(*metadata);
            Result<std::int64_t> claims = zaqar_store::liveClaims(unit.database(), **id, unit.now());
            if (!claims)
                return claims.error();
            facts.liveClaims = *claims;
            auto subscriptions = zaqar_store::subscriptionsAfter(unit.database(), **id, {},
                                                                 ZaqarQueueFacts::kMaxSubscriptions, unit.now());
            if (!subscriptions)
                return subscriptions.error();
            facts.subscriptions = std::move(*subscriptions);
            return std::any(Facts(std::move(facts)));
        },
        false, context, [reply = std::move(reply)](Result<std::any> done) {
            if (!done)
                return reply(done.error());
            reply(std::any_cast<Facts>(*done));
        });
}

} // namespace relaydesk::zaqar_queue_calls
