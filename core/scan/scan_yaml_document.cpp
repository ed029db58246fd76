// SPDX-License-Identifier: MIT
// The YAML half of scan_document.h, through yaml-cpp: its Mark gives each
// node's place; CloudFormation's short tags become their long form.
#include "scan_document.h"

#include "json/bounded_json.h"

#include <yaml-cpp/yaml.h>

#include <regex>

namespace relaydesk {

namespace {

// Thrown past the bounded reader's depth, as JSON is refused there.
struct YamlTooDeep {};

// A plain (unquoted) scalar as YAML's core schema types it.
nlohmann::json plainScalar(const std::string &text)
{
    static const std::regex integer(R"([-+]?[0-9]+)");
    static const std::regex real(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
    if (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")
        return nullptr;
    if (text == "true" || text == "True" || text == "TRUE")
        return true;
    if (text == "false" || text == "False" || text == "FALSE")
        return false;
    if (std::regex_match(text, integer)) {
        try {
            return std::stoll(text);
        } catch (const std::out_of_range &) {
            return text;
        }
    }
    if (std::regex_match(text, real))
        return std::stod(text);
    return text;
}

class YamlToJson final {
public:
    explicit YamlToJson(std::map<std::string, TextPlace> &places) : m_places(places) {}

    nlohmann::json convert(const YAML::Node &node, const std::string &pointer, std::size_t depth = 0)
    {
        if (depth > kMaxJsonDepth)
            throw YamlTooDeep();
        const YAML::Mark mark = node.Mark();
        m_places[pointer] = {mark.line + 1, mark.column + 1};
        nlohmann::json value = plain(node, pointer, depth);
        const std::string &tag = node.Tag();
        if (tag.size() < 2 || tag[0] != '!' || tag[1] == '!')
            return value;   // untagged ("?", "!") or a standard tag
        // A CloudFormation short tag: !Ref X, !GetAtt A.B, !Sub …, !Join [...].
        const std::string name = tag.substr(1);
        if (name == "GetAtt" && value.is_string()) {
            const std::string text = value.get<std::string>();
            const std::size_t dot = text.find('.');
            value = dot == std::string::npos ? nlohmann::json::array({text})
                                             : nlohmann::json::array({text.substr(0, dot), text.substr(dot + 1)});
        }
        const std::string key = name == "Ref" || name == "Condition" ? name : "Fn::" + name;
        m_places[childPointer(pointer, key)] = m_places[pointer];
        return nlohmann::json{{key, value}};
    }

private:
    nlohmann::json plain(const YAML::Node &node, const std::string &pointer, std::size_t depth)
    {
        switch (node.Type()) {
        case YAML::NodeType::Map: {
            nlohmann::json object = nlohmann::json::object();
            for (const auto &entry : node) {
                const std::string key = entry.first.Scalar();
                object[key] = convert(entry.second, childPointer(pointer, key), depth + 1);
            }
            return object;
        }
        case YAML::NodeType::Sequence: {
            nlohmann::json array = nlohmann::json::array();
            std::size_t index = 0;
            for (const auto &item : node)
                array.push_back(convert(item, childPointer(pointer, index++), depth + 1));
            return array;
        }
        case YAML::NodeType::Scalar:
            return node.Tag() == "?" ? plainScalar(node.Scalar()) : nlohmann::json(node.Scalar());
        default:
            return nullptr;
        }
    }

    std::map<std::string, TextPlace> &m_places;
};

} // namespace

std::optional<ScanDocument> readYamlScanDocument(std::string_view text)
{
    try {
        const YAML::Node node = YAML::Load(std::string(text));
        if (!node.IsMap())
            return std::nullopt;
        ScanDocument document;
        document.root = YamlToJson(document.places).convert(node, "");
        return document;
    } catch (const YAML::Exception &) {
        return std::nullopt;
    } catch (const YamlTooDeep &) {
        return std::nullopt;
    }
}

} // namespace relaydesk
