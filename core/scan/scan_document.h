// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// A place in a file: 1-based line and column (columns count characters).
struct TextPlace {
    int line = 0;
    int column = 0;
    bool known() const { return line > 0; }
    bool operator==(const TextPlace &) const = default;
};

// A template read into JSON values, with the place of every value (by its
// JSON pointer, "/Resources/Topic/Properties"), whether it came from JSON or
// YAML. YAML's short tags are written in their long form ({"Fn::Sub": …},
// {"Ref": …}), so readers see one shape. Plain value type.
struct ScanDocument {
    nlohmann::json root;
    std::map<std::string, TextPlace> places;

    // The place of `pointer`, or of its nearest ancestor that has one (a key
    // inside a JSON string inside the template has none of its own).
    TextPlace placeOf(std::string pointer) const;
};

// A JSON pointer one step down: pointer + "/" + the escaped key or index.
std::string childPointer(const std::string &pointer, std::string_view key);
std::string childPointer(const std::string &pointer, std::size_t index);

// JSON text => document with places; nothing when the text is not JSON (or
// nests past the bounded reader's depth). Pure.
std::optional<ScanDocument> readJsonScanDocument(std::string_view text);

// YAML text (one document) => document with places; nothing when the text is
// not YAML or not a mapping. Plain scalars become numbers, booleans and null
// where YAML 1.1 core says so; quoted ones stay text. Pure.
std::optional<ScanDocument> readYamlScanDocument(std::string_view text);

} // namespace relaydesk
