// SPDX-License-Identifier: MIT
// Fuzz target of the config-file reader (`serve --config FILE`, File ▸
// Import, PUT /api/v1/config): JSON text in, a checked BrokerConfig or an
// error out. Checked for every input: no crash or sanitizer report; an error
// has a message; a config read has entity names the broker accepts.
#include "broker/broker_identity.h"
#include "broker/entity_names.h"
#include "config/broker_config.h"
#include "fuzz_check.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {
constexpr const char *kTarget = "broker_config_fuzz";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const Result<BrokerConfig> config = readBrokerConfigText(std::string(fuzz::text(data, size)), BrokerIdentity{});
    if (!config) {
        require(!config.error().message.empty(), kTarget, "an error without a message");
        return 0;
    }
    for (const auto &queue : config->queues)
        require(bool(validateQueueName(queue.name)), kTarget, "a queue name the broker refuses was read");
    for (const auto &topic : config->topics)
        require(bool(validateTopicName(topic.name)), kTarget, "a topic name the broker refuses was read");
    return 0;
}
