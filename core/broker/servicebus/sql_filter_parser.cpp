// SPDX-License-Identifier: MIT
#include "broker/servicebus/sql_filter_parser.h"

#include "broker/echoed_value.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <cstdlib>

namespace relaydesk {

namespace {

using Node = SqlFilterNode;
using NodePtr = std::shared_ptr<Node>;

constexpr std::array<std::string_view, 17> kSystemProperties = {
    "MessageId", "CorrelationId", "To", "ReplyTo", "Label", "Subject", "SessionId", "ReplyToSessionId",
    "ContentType", "Size", "DeliveryCount", "SequenceNumber", "EnqueuedTimeUtc", "ScheduledEnqueueTimeUtc",
    "TimeToLive", "ExpiresAtUtc", "PartitionKey"};

bool equalsIgnoringCase(std::string_view a, std::string_view b)
{
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

// The system property's Azure spelling, or nothing.
std::string_view systemPropertyName(std::string_view name)
{
    for (const std::string_view known : kSystemProperties) {
        if (equalsIgnoringCase(known, name))
            return known == "Subject" ? std::string_view("Label") : known;
    }
    return {};
}

bool isNameStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '@'; }
bool isNameChar(char c) { return isNameStart(c) || std::isdigit(static_cast<unsigned char>(c)); }

struct Token {
    enum class Type { End, Name, Keyword, Text, Number, Symbol, Bracketed } type = Type::End;
    std::string text;        // Name/Bracketed: the name; Keyword: upper case; Text: the value; Symbol: the operator
    FilterValue number;      // Number
    std::size_t position = 0;   // 0-based offset in the expression
    std::size_t end = 0;        // just past it
};

class Parser {
public:
    explicit Parser(std::string_view text) : m_text(text) {}

    Result<SqlFilterExpression> parse()
    {
        if (Status scanned = scan(); !scanned)
            return scanned.error();
        auto expression = orExpression();
        if (!expression)
            return expression.error();
        if (peek().type != Token::Type::End)
            return error(peek(), "expected AND, OR or the end of the expression");
        return SqlFilterExpression(*expression);
    }

private:
    BrokerError error(std::size_t position, const std::string &problem) const
    {
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "The SQL filter expression \"" + echoedValue(m_text) + "\" is not valid at position "
                               + std::to_string(position + 1) + ": " + problem + ".");
    }
    BrokerError error(const Token &token, const std::string &problem) const
    {
        const std::string found = token.type == Token::Type::End ? "the end" : "\"" + echoedValue(tokenText(token)) + "\"";
        return error(token.position, problem + ", found " + found);
    }
    std::string tokenText(const Token &token) const
    {
        return std::string(m_text.substr(token.position, token.end - token.position));
    }

    Status scan()
    {
        std::size_t at = 0;
        while (true) {
            while (at < m_text.size() && std::isspace(static_cast<unsigned char>(m_text[at])))
                ++at;
            Token token;
            token.position = at;
            if (at == m_text.size()) {
                token.end = at;
                m_tokens.push_back(token);
                return {};
            }
            const char c = m_text[at];
            if (c == '\'') {
                token.type = Token::Type::Text;
                ++at;
                while (true) {
                    if (at == m_text.size())
                        return error(token.position, "the text constant has no closing quote");
                    if (m_text[at] == '\'') {
                        if (at + 1 < m_text.size() && m_text[at + 1] == '\'') {
                            token.text += '\'';
                            at += 2;
                            continue;
                        }
                        ++at;
                        break;
                    }
                    token.text += m_text[at++];
                }
            } else if (c == '[' || c == '"') {
                const char close = c == '[' ? ']' : '"';
                const std::size_t end = m_text.find(close, at + 1);
                if (end == std::string_view::npos || end == at + 1)
                    return error(at, "the delimited name has no closing " + std::string(1, close));
                token.type = Token::Type::Bracketed;
                token.text = std::string(m_text.substr(at + 1, end - at - 1));
                at = end + 1;
            } else if (std::isdigit(static_cast<unsigned char>(c))
                       || (c == '.' && at + 1 < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[at + 1])))) {
                const std::size_t start = at;
                bool decimal = false;
                while (at < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[at])))
                    ++at;
                if (at < m_text.size() && m_text[at] == '.') {
                    decimal = true;
                    ++at;
                    while (at < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[at])))
                        ++at;
                }
                if (at < m_text.size() && (m_text[at] == 'e' || m_text[at] == 'E')) {
                    decimal = true;
                    ++at;
                    if (at < m_text.size() && (m_text[at] == '+' || m_text[at] == '-'))
                        ++at;
                    if (at == m_text.size() || !std::isdigit(static_cast<unsigned char>(m_text[at])))
                        return error(at, "the number's exponent has no digits");
                    while (at < m_text.size() && std::isdigit(static_cast<unsigned char>(m_text[at])))
                        ++at;
                }
                if (at < m_text.size() && isNameStart(m_text[at]))
                    return error(at, "a number runs into a name");
                const std::string digits(m_text.substr(start, at - start));
                token.type = Token::Type::Number;
                token.text = digits;
                std::int64_t whole = 0;
                const auto [end, problem] = std::from_chars(digits.data(), digits.data() + digits.size(), whole);
                if (!decimal && problem == std::errc() && end == digits.data() + digits.size())
                    token.number = whole;
                else
                    token.number = std::strtod(digits.c_str(), nullptr);
            } else if (isNameStart(c)) {
                const std::size_t start = at;
                while (at < m_text.size() && isNameChar(m_text[at]))
                    ++at;
                token.text = std::string(m_text.substr(start, at - start));
                std::string upper = token.text;
                std::transform(upper.begin(), upper.end(), upper.begin(),
                               [](unsigned char x) { return static_cast<char>(std::toupper(x)); });
                static constexpr std::array<std::string_view, 12> keywords = {
                    "AND", "OR", "NOT", "IN", "LIKE", "ESCAPE", "IS", "NULL", "EXISTS", "TRUE", "FALSE", "BETWEEN"};
                if (std::find(keywords.begin(), keywords.end(), upper) != keywords.end()) {
                    token.type = Token::Type::Keyword;
                    token.text = upper;
                } else {
                    token.type = Token::Type::Name;
                }
            } else {
                static constexpr std::array<std::string_view, 15> symbols = {
                    "<>", "!=", "<=", ">=", "=", "<", ">", "(", ")", ",", "+", "-", "*", "/", "%"};
                for (const std::string_view symbol : symbols) {
                    if (m_text.substr(at, symbol.size()) == symbol) {
                        token.type = Token::Type::Symbol;
                        token.text = std::string(symbol);
                        break;
                    }
                }
                if (token.type != Token::Type::Symbol) {
                    if (c == '.')
                        token.text = ".";
                    else
                        return error(at, "\"" + echoedValue(m_text.substr(at, 1)) + "\" is not part of the SQL filter syntax");
                    token.type = Token::Type::Symbol;
                }
                at += token.text.size();
            }
            token.end = at;
            m_tokens.push_back(std::move(token));
        }
    }

    const Token &peek(std::size_t ahead = 0) const { return m_tokens[std::min(m_index + ahead, m_tokens.size() - 1)]; }
    bool isKeyword(std::string_view word, std::size_t ahead = 0) const
    {
        return peek(ahead).type == Token::Type::Keyword && peek(ahead).text == word;
    }
    bool isSymbol(std::string_view symbol) const
    {
        return peek().type == Token::Type::Symbol && peek().text == symbol;
    }
    const Token &take() { return m_tokens[std::min(m_index++, m_tokens.size() - 1)]; }

    static NodePtr node(Node::Kind kind, std::vector<SqlFilterExpression> children = {})
    {
        auto made = std::make_shared<Node>();
        made->kind = kind;
        made->children = std::move(children);
        return made;
    }

    Result<NodePtr> orExpression()
    {
        auto left = andExpression();
        while (left && isKeyword("OR")) {
            take();
            auto right = andExpression();
            if (!right)
                return right;
            left = node(Node::Kind::Or, {*left, *right});
        }
        return left;
    }

    Result<NodePtr> andExpression()
    {
        auto left = notExpression();
        while (left && isKeyword("AND")) {
            take();
            auto right = notExpression();
            if (!right)
                return right;
            left = node(Node::Kind::And, {*left, *right});
        }
        return left;
    }

    Result<NodePtr> notExpression()
    {
        if (!isKeyword("NOT"))
            return predicate();
        const Token &keyword = take();
        const Nesting nesting(m_nesting);
        if (nesting.tooDeep())
            return tooDeep(keyword);
        auto operand = notExpression();
        if (!operand)
            return operand;
        return node(Node::Kind::Not, {*operand});
    }

    Result<NodePtr> predicate()
    {
        if (isKeyword("EXISTS")) {
            take();
            if (!isSymbol("("))
                return error(peek(), "expected \"(\" after EXISTS");
            take();
            const Token &at = peek();
            auto property = primary();
            if (!property)
                return property;
            if ((*property)->kind != Node::Kind::Property)
                return error(at.position, "EXISTS takes a property");
            if (!isSymbol(")"))
                return error(peek(), "expected \")\"");
            take();
            return node(Node::Kind::Exists, {*property});
        }
        const Token &start = peek();
        auto left = additive();
        if (!left)
            return left;
        if (peek().type == Token::Type::Symbol) {
            const std::string op = peek().text;
            if (op == "=" || op == "<>" || op == "!=" || op == "<" || op == ">" || op == "<=" || op == ">=") {
                take();
                auto right = additive();
                if (!right)
                    return right;
                NodePtr compare = node(Node::Kind::Compare, {*left, *right});
                compare->op = op == "!=" ? "<>" : op;
                return compare;
            }
        }
        if (isKeyword("IS")) {
            take();
            if ((*left)->kind != Node::Kind::Property)
                return error(start.position, "IS NULL takes a property");
            NodePtr test = node(Node::Kind::IsNull, {*left});
            if (isKeyword("NOT")) {
                take();
                test->negated = true;
            }
            if (!isKeyword("NULL"))
                return error(peek(), "expected NULL");
            take();
            return test;
        }
        bool negated = false;
        if (isKeyword("NOT") && (isKeyword("IN", 1) || isKeyword("LIKE", 1))) {
            take();
            negated = true;
        }
        if (isKeyword("IN"))
            return inList(*left, negated);
        if (isKeyword("LIKE"))
            return like(*left, negated);
        return *left;
    }

    Result<NodePtr> inList(const NodePtr &operand, bool negated)
    {
        take();
        if (!isSymbol("("))
            return error(peek(), "expected \"(\" after IN");
        take();
        NodePtr list = node(Node::Kind::In, {operand});
        list->negated = negated;
        while (true) {
            auto item = additive();
            if (!item)
                return item;
            list->children.push_back(*item);
            if (isSymbol(",")) {
                take();
                continue;
            }
            if (!isSymbol(")"))
                return error(peek(), "expected \",\" or \")\" in the IN list");
            take();
            return list;
        }
    }

    Result<NodePtr> like(const NodePtr &operand, bool negated)
    {
        take();
        if (peek().type != Token::Type::Text)
            return error(peek(), "LIKE takes a text pattern");
        NodePtr test = node(Node::Kind::Like, {operand});
        test->negated = negated;
        test->text = take().text;
        if (isKeyword("ESCAPE")) {
            take();
            if (peek().type != Token::Type::Text || peek().text.size() != 1)
                return error(peek(), "ESCAPE takes one character in quotes");
            test->escape = take().text[0];
        }
        return test;
    }

    Result<NodePtr> additive()
    {
        auto left = multiplicative();
        while (left && (isSymbol("+") || isSymbol("-"))) {
            const std::string op = take().text;
            auto right = multiplicative();
            if (!right)
                return right;
            left = node(Node::Kind::Arithmetic, {*left, *right});
            (*left)->op = op;
        }
        return left;
    }

    Result<NodePtr> multiplicative()
    {
        auto left = unary();
        while (left && (isSymbol("*") || isSymbol("/") || isSymbol("%"))) {
            const std::string op = take().text;
            auto right = unary();
            if (!right)
                return right;
            left = node(Node::Kind::Arithmetic, {*left, *right});
            (*left)->op = op;
        }
        return left;
    }

    Result<NodePtr> unary()
    {
        if (isSymbol("-") || isSymbol("+")) {
            const Token &sign = take();
            const bool minus = sign.text == "-";
            const Nesting nesting(m_nesting);
            if (nesting.tooDeep())
                return tooDeep(sign);
            auto operand = unary();
            if (!operand || !minus)
                return operand;
            return node(Node::Kind::Negate, {*operand});
        }
        return primary();
    }

    Result<NodePtr> primary()
    {
        const Token &token = peek();
        switch (token.type) {
        case Token::Type::Text: {
            NodePtr constant = node(Node::Kind::Constant);
            constant->value = take().text;
            return constant;
        }
        case Token::Type::Number: {
            NodePtr constant = node(Node::Kind::Constant);
            constant->value = take().number;
            return constant;
        }
        case Token::Type::Keyword:
            if (token.text == "TRUE" || token.text == "FALSE" || token.text == "NULL") {
                NodePtr constant = node(Node::Kind::Constant);
                if (token.text != "NULL")
                    constant->value = token.text == "TRUE";
                take();
                return constant;
            }
            return error(token, "expected a constant, a property or \"(\"");
        case Token::Type::Bracketed: {
            NodePtr property = node(Node::Kind::Property);
            property->name = take().text;
            return property;
        }
        case Token::Type::Name:
            return property();
        case Token::Type::Symbol:
            if (token.text == "(") {
                take();
                const Nesting nesting(m_nesting);
                if (nesting.tooDeep())
                    return tooDeep(token);
                auto inner = orExpression();
                if (!inner)
                    return inner;
                if (!isSymbol(")"))
                    return error(peek(), "expected \")\"");
                take();
                return inner;
            }
            return error(token, "expected a constant, a property or \"(\"");
        case Token::Type::End:
            break;
        }
        return error(token, "expected a constant, a property or \"(\"");
    }

    // NAME, sys.NAME, user.NAME, sys.[NAME], user.[NAME].
    Result<NodePtr> property()
    {
        const Token &first = take();
        NodePtr property = node(Node::Kind::Property);
        property->name = first.text;
        if (!isSymbol("."))
            return property;
        const bool system = equalsIgnoringCase(first.text, "sys");
        if (!system && !equalsIgnoringCase(first.text, "user"))
            return error(peek().position, "a property's scope is sys or user");
        take();
        const Token &name = peek();
        if (name.type != Token::Type::Name && name.type != Token::Type::Bracketed && name.type != Token::Type::Keyword)
            return error(name, "expected a property name after \"" + first.text + ".\"");
        take();
        property->name = name.text;
        if (system) {
            const std::string_view known = systemPropertyName(name.text);
            if (known.empty())
                return error(name.position, "\"" + echoedValue(name.text) + "\" is not a system property");
            property->name = std::string(known);
            property->system = true;
        }
        return property;
    }

    std::string_view m_text;
    // Parentheses, NOT and signs nest by recursion: past kMaxNesting levels
    // the expression is refused rather than the stack run out.
    static constexpr int kMaxNesting = 64;
    class Nesting {
    public:
        explicit Nesting(int &depth) : m_depth(depth) { ++m_depth; }
        ~Nesting() { --m_depth; }
        Nesting(const Nesting &) = delete;
        Nesting &operator=(const Nesting &) = delete;
        bool tooDeep() const { return m_depth > kMaxNesting; }

    private:
        int &m_depth;
    };
    BrokerError tooDeep(const Token &token) const
    {
        return error(token.position, "parentheses, NOT and signs nest at most " + std::to_string(kMaxNesting) + " deep");
    }

    std::vector<Token> m_tokens;
    std::size_t m_index = 0;
    int m_nesting = 0;
};

} // namespace

Result<SqlFilterExpression> parseSqlFilter(std::string_view text)
{
    if (text.size() > 1024)
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "A SQL filter expression is at most 1024 characters.");
    return Parser(text).parse();
}

bool isServiceBusSystemProperty(std::string_view name) { return !systemPropertyName(name).empty(); }

} // namespace relaydesk
