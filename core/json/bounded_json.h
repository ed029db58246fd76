// SPDX-License-Identifier: MIT
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <stdexcept>
#include <string_view>

namespace relaydesk {

// Every JSON text the broker reads from outside (SQS JSON protocol bodies,
// native API bodies, `serve --config` files, attribute values holding
// policies, policy files) is parsed through parseBoundedJson: a document
// nested deeper than kMaxJsonDepth arrays/objects is refused like a syntax
// error, as soon as the parser reaches that depth. Unbounded nesting would
// otherwise be built and later serialised or destroyed recursively — one
// request of 100 000 '[' took the process down. No real
// document of the broker's comes near this depth. Pure, thread-safe.
inline constexpr std::size_t kMaxJsonDepth = 64;

// Thrown by parseBoundedJson(…, allowExceptions = true) for a document nested
// too deeply (syntax errors throw Json::parse_error as Json::parse does).
class JsonTooDeep final : public std::runtime_error {
public:
    JsonTooDeep()
        : std::runtime_error("nesting deeper than " + std::to_string(kMaxJsonDepth) + " levels")
    {
    }
};

namespace bounded_json_detail {

// nlohmann's DOM builder, refusing (returning false: the parse stops at once)
// the array or object that would pass the depth bound.
template <class Json>
class DepthBoundedBuilder final {
public:
    DepthBoundedBuilder(Json &root, bool allowExceptions) : m_builder(root, allowExceptions) {}

    bool tooDeep() const { return m_tooDeep; }

    bool null() { return m_builder.null(); }
    bool boolean(bool value) { return m_builder.boolean(value); }
    bool number_integer(typename Json::number_integer_t value) { return m_builder.number_integer(value); }
    bool number_unsigned(typename Json::number_unsigned_t value) { return m_builder.number_unsigned(value); }
    bool number_float(typename Json::number_float_t value, const typename Json::string_t &text)
    {
        return m_builder.number_float(value, text);
    }
    bool string(typename Json::string_t &value) { return m_builder.string(value); }
    bool binary(typename Json::binary_t &value) { return m_builder.binary(value); }
    bool start_object(std::size_t size) { return deeper() && m_builder.start_object(size); }
    bool key(typename Json::string_t &value) { return m_builder.key(value); }
    bool end_object() { --m_depth; return m_builder.end_object(); }
    bool start_array(std::size_t size) { return deeper() && m_builder.start_array(size); }
    bool end_array() { --m_depth; return m_builder.end_array(); }
    template <class Exception>
    bool parse_error(std::size_t position, const std::string &token, const Exception &error)
    {
        return m_builder.parse_error(position, token, error);
    }

private:
    bool deeper()
    {
        if (++m_depth <= kMaxJsonDepth)
            return true;
        m_tooDeep = true;
        return false;
    }

    nlohmann::detail::json_sax_dom_parser<Json> m_builder;
    std::size_t m_depth = 0;
    bool m_tooDeep = false;
};

} // namespace bounded_json_detail

// `text` as JSON (Json is nlohmann::json or nlohmann::ordered_json). Without
// exceptions: a discarded value for a syntax error or a document nested past
// kMaxJsonDepth. With exceptions: Json::parse_error or JsonTooDeep.
template <class Json = nlohmann::json>
Json parseBoundedJson(std::string_view text, bool allowExceptions = false)
{
    Json result;
    bounded_json_detail::DepthBoundedBuilder<Json> builder(result, allowExceptions);
    const bool parsed = Json::sax_parse(text.begin(), text.end(), &builder);
    if (builder.tooDeep() && allowExceptions)
        throw JsonTooDeep();
    if (!parsed)
        return Json(Json::value_t::discarded);
    return result;
}

} // namespace relaydesk
