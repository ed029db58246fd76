// SPDX-License-Identifier: MIT
#include "api/query/query_form.h"

#include <QList>

#include <cstdlib>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

namespace relaydesk {

namespace {

using Json = nlohmann::json;
using Flat = std::map<std::string, std::string>;   // relative key -> value

// How one flattened family of keys becomes a member.
enum class Shape {
    List,         // PREFIX.N=value                      -> [value…]
    Map,          // PREFIX.N.<key>=k, PREFIX.N.<value>=v -> {k: v}
    StructMap,    // PREFIX.N.Name=k, PREFIX.N.Value.X=x  -> {k: {X: x}}
    StructList,   // PREFIX.N.rest=…                      -> [{rest…} (rules applied again)]
};

struct Rule {
    std::string_view prefix;   // before ".N"
    std::string_view member;
    Shape shape;
    std::string_view keyName = "Name";
    std::string_view valueName = "Value";
};

const std::vector<Rule> &rules(QueryService service)
{
    static const std::vector<Rule> sqs = {
        {"AttributeName", "AttributeNames", Shape::List},
        {"MessageAttributeName", "MessageAttributeNames", Shape::List},
        {"MessageSystemAttributeName", "MessageSystemAttributeNames", Shape::List},
        {"TagKey", "TagKeys", Shape::List},
        {"Attribute", "Attributes", Shape::Map},
        {"Tag", "Tags", Shape::Map, "Key", "Value"},
        {"MessageAttribute", "MessageAttributes", Shape::StructMap},
        {"MessageSystemAttribute", "MessageSystemAttributes", Shape::StructMap},
        {"SendMessageBatchRequestEntry", "Entries", Shape::StructList},
        {"DeleteMessageBatchRequestEntry", "Entries", Shape::StructList},
        {"ChangeMessageVisibilityBatchRequestEntry", "Entries", Shape::StructList},
    };
    static const std::vector<Rule> sns = {
        {"Attributes.entry", "Attributes", Shape::Map, "key", "value"},
        {"MessageAttributes.entry", "MessageAttributes", Shape::StructMap},
        {"Tags.member", "Tags", Shape::StructList},
        {"TagKeys.member", "TagKeys", Shape::List},
        {"PublishBatchRequestEntries.member", "PublishBatchRequestEntries", Shape::StructList},
    };
    return service == QueryService::Sqs ? sqs : sns;
}

// "PREFIX.N" or "PREFIX.N.rest": the index and the rest.
std::optional<std::pair<long, std::string>> splitIndexed(const std::string &key, std::string_view prefix)
{
    if (key.size() <= prefix.size() + 1 || key.compare(0, prefix.size(), prefix) != 0 || key[prefix.size()] != '.')
        return std::nullopt;
    const std::size_t start = prefix.size() + 1;
    std::size_t end = start;
    while (end < key.size() && key[end] >= '0' && key[end] <= '9')
        ++end;
    if (end == start || end - start > 6 || (end < key.size() && key[end] != '.'))
        return std::nullopt;
    const long index = std::strtol(key.c_str() + start, nullptr, 10);
    return std::make_pair(index, end < key.size() ? key.substr(end + 1) : std::string());
}

// `nested`: the fields of one StructList entry, where no StructList rule
// applies again — so a key repeating a list prefix cannot nest without bound.
Json convert(const Flat &flat, QueryService service, bool nested = false)
{
    Json out = Json::object();
    std::map<std::string, std::map<long, Flat>> grouped;   // member -> index -> rest -> value
    std::map<std::string, const Rule *> ruleOf;
    for (const auto &[key, value] : flat) {
        bool matched = false;
        for (const Rule &rule : rules(service)) {
            if (nested && rule.shape == Shape::StructList)
                continue;
            if (auto indexed = splitIndexed(key, rule.prefix)) {
                grouped[std::string(rule.member)][indexed->first][indexed->second] = value;
                ruleOf[std::string(rule.member)] = &rule;
                matched = true;
                break;
            }
        }
        if (!matched)
            out[key] = value;
    }
    for (const auto &[member, entries] : grouped) {
        const Rule &rule = *ruleOf[member];
        Json value = rule.shape == Shape::Map || rule.shape == Shape::StructMap ? Json::object() : Json::array();
        for (const auto &[index, fields] : entries) {
            switch (rule.shape) {
            case Shape::List:
                if (auto it = fields.find(""); it != fields.end())
                    value.push_back(it->second);
                break;
            case Shape::Map: {
                const auto key = fields.find(std::string(rule.keyName));
                const auto item = fields.find(std::string(rule.valueName));
                if (key != fields.end())
                    value[key->second] = item != fields.end() ? Json(item->second) : Json("");
                break;
            }
            case Shape::StructMap: {
                const auto key = fields.find("Name");
                if (key == fields.end())
                    break;
                Json structure = Json::object();
                for (const auto &[field, text] : fields) {
                    if (field.rfind("Value.", 0) == 0)
                        structure[field.substr(6)] = text;
                }
                value[key->second] = std::move(structure);
                break;
            }
            case Shape::StructList:
                value.push_back(convert(fields, service, true));
                break;
            }
        }
        out[member] = std::move(value);
    }
    return out;
}

} // namespace

nlohmann::json queryFormToJson(const QByteArray &form, QueryService service, std::string &action)
{
    // Decoded byte for byte (not through QString): invalid UTF-8 and
    // noncharacters reach the broker's checks as sent instead of being
    // replaced by U+FFFD.
    Flat flat;
    QByteArray spaced = form;
    spaced.replace('+', "%20");   // form encoding writes a space as '+'; a literal '+' is %2B
    for (const QByteArray &pair : spaced.split('&')) {
        if (pair.isEmpty())
            continue;
        const qsizetype equals = pair.indexOf('=');
        const QByteArray name = QByteArray::fromPercentEncoding(equals < 0 ? pair : pair.left(equals));
        const QByteArray value = equals < 0 ? QByteArray() : QByteArray::fromPercentEncoding(pair.mid(equals + 1));
        flat[name.toStdString()] = value.toStdString();
    }
    action.clear();
    if (auto it = flat.find("Action"); it != flat.end()) {
        action = it->second;
        flat.erase(it);
    }
    flat.erase("Version");
    return convert(flat, service);
}

bool hasMalformedPercentEscape(const QByteArray &form)
{
    const auto isHex = [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); };
    for (qsizetype i = 0; i < form.size(); ++i) {
        if (form[i] != '%')
            continue;
        if (i + 2 >= form.size() || !isHex(form[i + 1]) || !isHex(form[i + 2]))
            return true;
        i += 2;
    }
    return false;
}

} // namespace relaydesk
