// SPDX-License-Identifier: MIT
#include "broker/deliveries/mock_script.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>

namespace relaydesk {

namespace {

constexpr std::string_view kTimesSign = "\xC3\x97"; // U+00D7 MULTIPLICATION SIGN
constexpr double kMaxDurationMs = 3'600'000.0;
constexpr std::uint64_t kMaxRepeatCount = 1'000'000;

enum class TokenKind { Number, Word, Comma, Times, End };

struct Token {
    TokenKind kind = TokenKind::End;
    std::string text;        // Number: digits as written; Word: lower case
    std::size_t offset = 0;  // byte offset in the script
};

bool isAsciiAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

class ScriptParser final {
public:
    explicit ScriptParser(std::string_view text) : m_text(text) {}

    Result<MockScript> parse()
    {
        if (Status read = tokenize(); !read)
            return read.error();
        MockScript script;
        script.text = std::string(m_text);
        if (peek().kind == TokenKind::End)
            return failAt(peek(), "the script is empty: expected a status code, \"hang\", \"delay\" or \"close\"");
        for (;;) {
            Result<MockStep> step = parseStep();
            if (!step)
                return step.error();
            script.steps.push_back(*step);
            const Token &next = peek();
            if (next.kind == TokenKind::End)
                return script;
            if (isWord(next, "always")) {
                advance();
                if (peek().kind != TokenKind::End)
                    return failAt(peek(), "nothing may follow \"always\"");
                return script;
            }
            if (next.kind == TokenKind::Comma) {
                advance();
                if (isWord(peek(), "then"))
                    advance();
            } else if (isWord(next, "then")) {
                advance();
            } else {
                return failAt(next, "expected \",\", \"then\", \"always\" or the end of the script");
            }
        }
    }

private:
    Status tokenize()
    {
        std::size_t i = 0;
        while (i < m_text.size()) {
            const char c = m_text[i];
            if (isBlank(c)) {
                ++i;
            } else if (c == ',') {
                m_tokens.push_back({TokenKind::Comma, ",", i++});
            } else if (m_text.substr(i).starts_with(kTimesSign)) {
                m_tokens.push_back({TokenKind::Times, "x", i});
                i += kTimesSign.size();
            } else if (isDigit(c)) {
                const std::size_t start = i;
                while (i < m_text.size() && isDigit(m_text[i]))
                    ++i;
                if (i + 1 < m_text.size() && m_text[i] == '.' && isDigit(m_text[i + 1])) {
                    ++i;
                    while (i < m_text.size() && isDigit(m_text[i]))
                        ++i;
                }
                m_tokens.push_back({TokenKind::Number, std::string(m_text.substr(start, i - start)), start});
            } else if (isAsciiAlpha(c)) {
                const std::size_t start = i;
                std::string word;
                for (; i < m_text.size() && isAsciiAlpha(m_text[i]); ++i)
                    word.push_back(static_cast<char>(m_text[i] | 0x20)); // ASCII lower case
                if (word == "x")
                    m_tokens.push_back({TokenKind::Times, "x", start});
                else
                    m_tokens.push_back({TokenKind::Word, std::move(word), start});
            } else {
                return failAt(i, "unexpected character");
            }
        }
        m_tokens.push_back({TokenKind::End, {}, m_text.size()});
        return {};
    }

    Result<MockStep> parseStep()
    {
        MockStep step;
        const Token &first = peek();
        if (first.kind == TokenKind::Number) {
            Result<int> status = readStatus();
            if (!status)
                return status.error();
            step.status = *status;
        } else if (isWord(first, "hang")) {
            advance();
            step.action = MockAction::Hang;
            Result<std::chrono::milliseconds> duration = readDuration();
            if (!duration)
                return duration.error();
            step.delay = *duration;
        } else if (isWord(first, "delay")) {
            advance();
            Result<std::chrono::milliseconds> duration = readDuration();
            if (!duration)
                return duration.error();
            step.delay = *duration;
            if (isWord(peek(), "then"))
                advance();
            if (peek().kind != TokenKind::Number)
                return failAt(peek(), "expected the status code to answer after the delay");
            Result<int> status = readStatus();
            if (!status)
                return status.error();
            step.status = *status;
        } else if (isWord(first, "close")) {
            advance();
            step.action = MockAction::Close;
        } else {
            return failAt(first, "expected a status code, \"hang\", \"delay\" or \"close\"");
        }
        if (peek().kind == TokenKind::Times) {
            advance();
            const Token &countToken = peek();
            std::uint64_t count = 0;
            if (!readInteger(countToken, count) || count < 1 || count > kMaxRepeatCount)
                return failAt(countToken, "expected a repeat count (a whole number from 1 to 1000000) after \"x\"");
            advance();
            step.count = count;
        }
        return step;
    }

    Result<int> readStatus()
    {
        const Token &token = peek();
        std::uint64_t status = 0;
        if (!readInteger(token, status) || status < 100 || status > 999) // any three digits (RFC 9110 §15)
            return failAt(token, "expected a status code from 100 to 999");
        advance();
        return static_cast<int>(status);
    }

    Result<std::chrono::milliseconds> readDuration()
    {
        const Token &number = peek();
        if (number.kind != TokenKind::Number)
            return failAt(number, "expected a duration such as \"20 s\" or \"300 ms\"");
        double value = 0;
        const char *end = number.text.data() + number.text.size();
        if (const auto [stop, error] = std::from_chars(number.text.data(), end, value);
            error != std::errc() || stop != end)
            return failAt(number, "expected a duration above 0 and at most 1 hour");
        advance();
        const Token &unit = peek();
        double factor = 0;
        if (unit.kind == TokenKind::Word) {
            if (unit.text == "ms")
                factor = 1;
            else if (unit.text == "s" || unit.text == "sec")
                factor = 1000;
            else if (unit.text == "m" || unit.text == "min")
                factor = 60'000;
        }
        if (factor == 0)
            return failAt(unit, "expected a unit: ms, s or min");
        const double milliseconds = std::round(value * factor);
        if (milliseconds <= 0 || milliseconds > kMaxDurationMs)
            return failAt(number, "expected a duration above 0 and at most 1 hour");
        advance();
        return std::chrono::milliseconds(static_cast<std::int64_t>(milliseconds));
    }

    static bool readInteger(const Token &token, std::uint64_t &value)
    {
        if (token.kind != TokenKind::Number)
            return false;
        const char *end = token.text.data() + token.text.size();
        const auto [stop, error] = std::from_chars(token.text.data(), end, value);
        return error == std::errc() && stop == end;
    }

    static bool isWord(const Token &token, std::string_view word)
    {
        return token.kind == TokenKind::Word && token.text == word;
    }

    const Token &peek() const { return m_tokens[m_next]; }
    void advance() { m_next = std::min(m_next + 1, m_tokens.size() - 1); }

    BrokerError failAt(const Token &token, std::string_view what) const { return failAt(token.offset, what); }
    BrokerError failAt(std::size_t offset, std::string_view what) const
    {
        // 1-based position in characters (UTF-8: count the bytes that start one).
        const std::size_t position = 1 + static_cast<std::size_t>(std::count_if(
            m_text.begin(), m_text.begin() + static_cast<std::ptrdiff_t>(offset),
            [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "mock script: " + std::string(what) + " at character " + std::to_string(position));
    }

    std::string_view m_text;
    std::vector<Token> m_tokens;
    std::size_t m_next = 0;
};

} // namespace

const MockStep &MockScript::stepFor(std::uint64_t index) const
{
    for (std::size_t i = 0; i + 1 < steps.size(); ++i) {
        if (index < steps[i].count)
            return steps[i];
        index -= steps[i].count;
    }
    return steps.back();
}

Result<MockScript> parseMockScript(std::string_view text)
{
    return ScriptParser(text).parse();
}

} // namespace relaydesk
