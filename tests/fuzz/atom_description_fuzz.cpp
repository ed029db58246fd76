// SPDX-License-Identifier: MIT
// Fuzz target of the Service Bus management API's request bodies
// (api/servicebus/management/atom_element.h, atom_descriptions.h): the input
// is the body of a PUT. Checked for every input: no crash or sanitizer
// report; a refusal names its problem; a queue, subscription or rule the
// readers accept reads back the same once written as the API answers it
// (atom_description_writer.h) and read again.
#include "api/servicebus/management/atom_description_writer.h"
#include "api/servicebus/management/atom_descriptions.h"
#include "api/servicebus/management/atom_element.h"
#include "fuzz_check.h"

#include <QXmlStreamWriter>

#include <cstddef>
#include <cstdint>

using namespace relaydesk;
using relaydesk::fuzz::require;

namespace {

constexpr const char *kTarget = "atom_description_fuzz";

template <class T>
bool accepted(const Result<T> &read)
{
    require(read || !read.error().message.empty(), kTarget, "a refusal without a message");
    return bool(read);
}

// `write` as the content of an entry, read back as an element.
template <class Write>
AtomElement written(Write write)
{
    QByteArray bytes;
    QXmlStreamWriter xml(&bytes);
    xml.writeStartElement(QStringLiteral("entry"));
    xml.writeStartElement(QStringLiteral("content"));
    write(xml);
    xml.writeEndElement();
    xml.writeEndElement();
    auto element = readAtomElement(bytes);
    require(bool(element), kTarget, "a written description does not read");
    return *element;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const auto entry = readAtomElement(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (!accepted(entry))
        return 0;
    if (auto queue = readQueueDescription(*entry, "fuzz"); accepted(queue)) {
        const AtomElement again = written([&](QXmlStreamWriter &xml) { writeQueueDescription(xml, *queue, {}); });
        const auto reread = readQueueDescription(again, "fuzz");
        require(reread && *reread == *queue, kTarget, "a queue reads differently once written");
    }
    if (auto subscription = readSubscriptionDescription(*entry, "topic", "fuzz"); accepted(subscription)) {
        const AtomElement again =
            written([&](QXmlStreamWriter &xml) { writeSubscriptionDescription(xml, *subscription, {}); });
        const auto reread = readSubscriptionDescription(again, "topic", "fuzz");
        require(reread && reread->properties == subscription->properties, kTarget,
                "a subscription reads differently once written");
    }
    if (auto topic = readTopicDescription(*entry, "fuzz"); accepted(topic)) {
        const AtomElement again = written([&](QXmlStreamWriter &xml) { writeTopicDescription(xml, *topic, {}); });
        const auto reread = readTopicDescription(again, "fuzz");
        require(reread && reread->defaultMessageTimeToLive == topic->defaultMessageTimeToLive, kTarget,
                "a topic reads differently once written");
    }
    if (auto rule = readRuleDescription(*entry, "fuzz"); accepted(rule)) {
        const AtomElement again = written([&](QXmlStreamWriter &xml) { writeRuleDescription(xml, *rule); });
        const auto reread = readRuleDescription(again, "fuzz");
        require(reread && reread->sqlExpression == rule->sqlExpression && reread->correlation == rule->correlation &&
                    reread->correlationProperties == rule->correlationProperties &&
                    reread->action.sqlExpression == rule->action.sqlExpression,
                kTarget, "a rule reads differently once written");
    }
    return 0;
}
