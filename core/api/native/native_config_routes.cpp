// SPDX-License-Identifier: MIT
// Native API: /config — GET exports the broker's state as a configuration
// document, POST applies one (format and rules in config/broker_config.h).
// POST answers {"created": n, "changed": n, "deleted": n}; a refused
// document (400 naming the entity and field) changes nothing. The mock
// endpoints it declares are served once it is applied.
#include "api/native/native_api.h"

#include "config/broker_config.h"
#include "mock/mock_endpoints.h"

namespace relaydesk::native_routes {

bool config(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.path.size() != 1 || request.path[0] != "config")
        return false;
    if (request.method == "GET") {
        const BrokerIdentity identity = context.identity;
        exportBrokerConfig(context.engine, context.identity, context.replyContext,
                           answerWith<BrokerConfig>(reply, [identity](const BrokerConfig &config) {
                               return writeBrokerConfig(config, identity);
                           }));
        return true;
    }
    if (request.method == "POST") {
        Result<BrokerConfig> config = readBrokerConfig(request.body, context.identity);
        if (!config) {
            reply(NativeAnswer::failure(config.error()));
            return true;
        }
        auto answer = answerWith<ConfigApplied>(reply, [](const ConfigApplied &applied) {
            return nlohmann::json{{"created", applied.created}, {"changed", applied.changed}, {"deleted", applied.deleted}};
        });
        std::vector<StoredMockEndpoint> mocks = config->mocks;
        applyBrokerConfig(context.engine, context.service, context.identity, std::move(config).value(),
                          context.replyContext,
                          [endpoints = context.mocks, mocks = std::move(mocks), answer](Result<ConfigApplied> applied) {
                              if (applied && endpoints != nullptr)
                                  endpoints->adopt(mocks); // stored by the apply; now served
                              answer(std::move(applied));
                          });
        return true;
    }
    reply(methodNotAllowed(request));
    return true;
}

} // namespace relaydesk::native_routes
