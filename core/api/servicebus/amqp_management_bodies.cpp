// SPDX-License-Identifier: MIT
#include "api/servicebus/amqp_message.h"

#include <proton/binary.hpp>
#include <proton/error.hpp>
#include <proton/message.hpp>
#include <proton/types.hpp>
#include <proton/value.hpp>

#include <map>
#include <stdexcept>

namespace relaydesk::amqp_message {

std::variant<std::vector<SendRequest>, std::string> scheduledSends(const proton::message &request)
{
    std::vector<SendRequest> sends;
    try {
        std::vector<proton::value> entries;
        proton::get(requestBodyEntry(request, "messages"), entries);
        for (const proton::value &entry : entries) {
            std::map<std::string, proton::value> fields;
            proton::get(entry, fields);
            const auto binary = proton::get<proton::binary>(fields.at("message"));
            Result<SendRequest> send = sendRequest(Bytes(binary.begin(), binary.end()));
            if (!send || !send->scheduledEnqueueTime)
                throw proton::error("a message without its scheduled enqueue time");
            sends.push_back(std::move(*send));
        }
    } catch (const std::exception &error) {
        return std::string(error.what());
    }
    return sends;
}

std::optional<std::vector<std::int64_t>> scheduledSequenceNumbers(const proton::message &request)
{
    std::vector<std::int64_t> numbers;
    try {
        proton::get(requestBodyEntry(request, "sequence-numbers"), numbers);
    } catch (const std::exception &) {
        return std::nullopt;
    }
    return numbers;
}

} // namespace relaydesk::amqp_message
