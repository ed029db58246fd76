// SPDX-License-Identifier: MIT
// BrokerService::runUnit: a protocol's own unit with the service's
// after-commit work (broker_service.h).
#include "engine/broker_service_unit.h"

#include "engine/delivery_worker.h"

namespace relaydesk {

using namespace service_unit;

void BrokerService::runUnit(UnitBody body, bool wakesDeliveries, QObject *context, Reply<std::any> reply)
{
    const StatePtr state = m_state;
    std::function<void(const std::any &)> afterCommit;
    if (wakesDeliveries) {
        afterCommit = [state](const std::any &) {
            if (DeliveryWorker *worker = state->worker.load())
                worker->wake();
        };
    }
    run<std::any>(
        state,
        [body = std::move(body)](UnitContext &unit, State &s, std::vector<std::string> &wake) -> Result<std::any> {
            return body(unit, s.identity, *s.ids, wake);
        },
        context, std::move(reply), std::move(afterCommit));
}

} // namespace relaydesk
