// SPDX-License-Identifier: MIT
// The JSON half of scan_document.h: nlohmann (through the bounded reader)
// gives the values, and a walk over the text — already known to be valid
// JSON — gives each value's place, since nlohmann's SAX events carry none.
#include "scan_document.h"

#include "json/bounded_json.h"

namespace relaydesk {

std::string childPointer(const std::string &pointer, std::string_view key)
{
    std::string escaped;
    for (char c : key) {
        if (c == '~')
            escaped += "~0";
        else if (c == '/')
            escaped += "~1";
        else
            escaped += c;
    }
    return pointer + "/" + escaped;
}

std::string childPointer(const std::string &pointer, std::size_t index)
{
    return pointer + "/" + std::to_string(index);
}

TextPlace ScanDocument::placeOf(std::string pointer) const
{
    for (;;) {
        if (const auto it = places.find(pointer); it != places.end())
            return it->second;
        if (pointer.empty())
            return {};
        pointer.erase(pointer.rfind('/'));
    }
}

namespace {

// Walks valid JSON text, recording the place of every value by pointer.
class JsonPlaceWalk final {
public:
    JsonPlaceWalk(std::string_view text, std::map<std::string, TextPlace> &places) : m_text(text), m_places(places) {}

    void value(const std::string &pointer)
    {
        skipSpace();
        m_places[pointer] = {m_line, m_column};
        if (m_at >= m_text.size())
            return;
        const char c = m_text[m_at];
        if (c == '{') {
            advance();
            skipSpace();
            while (m_at < m_text.size() && m_text[m_at] != '}') {
                const std::string key = string();
                skipSpace();
                advance();   // ':'
                value(childPointer(pointer, key));
                skipSpace();
                if (m_at < m_text.size() && m_text[m_at] == ',')
                    advance();
                skipSpace();
            }
            advance();
        } else if (c == '[') {
            advance();
            skipSpace();
            for (std::size_t index = 0; m_at < m_text.size() && m_text[m_at] != ']'; ++index) {
                value(childPointer(pointer, index));
                skipSpace();
                if (m_at < m_text.size() && m_text[m_at] == ',')
                    advance();
                skipSpace();
            }
            advance();
        } else if (c == '"') {
            string();
        } else {
            while (m_at < m_text.size() && std::string_view(",]} \t\r\n").find(m_text[m_at]) == std::string_view::npos)
                advance();
        }
    }

private:
    std::string string()
    {
        const std::size_t start = m_at;
        bool escaped = false;
        advance();   // opening quote
        while (m_at < m_text.size() && m_text[m_at] != '"') {
            if (m_text[m_at] == '\\') {
                escaped = true;
                advance();
            }
            advance();
        }
        advance();   // closing quote
        const std::string_view token = m_text.substr(start, m_at - start);
        if (!escaped)
            return std::string(token.substr(1, token.size() - 2));
        const nlohmann::json decoded = nlohmann::json::parse(token, nullptr, false);
        return decoded.is_string() ? decoded.get<std::string>() : std::string();
    }

    void skipSpace()
    {
        while (m_at < m_text.size() && std::string_view(" \t\r\n").find(m_text[m_at]) != std::string_view::npos)
            advance();
    }

    void advance()
    {
        if (m_at >= m_text.size())
            return;
        const unsigned char c = static_cast<unsigned char>(m_text[m_at++]);
        if (c == '\n') {
            ++m_line;
            m_column = 1;
        } else if ((c & 0xC0) != 0x80) {
            ++m_column;
        }
    }

    std::string_view m_text;
    std::map<std::string, TextPlace> &m_places;
    std::size_t m_at = 0;
    int m_line = 1;
    int m_column = 1;
};

} // namespace

std::optional<ScanDocument> readJsonScanDocument(std::string_view text)
{
    ScanDocument document;
    document.root = parseBoundedJson(text);
    if (document.root.is_discarded())
        return std::nullopt;
    std::size_t start = 0;
    if (text.substr(0, 3) == "\xEF\xBB\xBF")
        start = 3;   // a byte-order mark
    JsonPlaceWalk(text.substr(start), document.places).value("");
    return document;
}

} // namespace relaydesk
