// SPDX-License-Identifier: MIT
// Fuzz target of Http1ResponseParser (what a webhook answers is untrusted
// input). The first input byte picks a cut; the rest is a response. Checked
// for every input: no crash or sanitizer report; feed() never consumes more
// than it was given; the outcome (state, status, error, body counts, kept
// body, keep-alive) is the same fed whole, fed in two pieces at the cut and
// fed byte by byte; the kept body never exceeds its limit. A violation aborts.
#include "http/http1_response_parser.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

using relaydesk::Http1ResponseParser;

namespace {

struct Outcome {
    Http1ResponseParser::State state;
    int status;
    std::string error;
    std::uint64_t bodyBytes;
    std::string keptBody;
    bool keepAlive;
    bool operator==(const Outcome &) const = default;
};

void require(bool condition, const char *what)
{
    if (!condition) {
        std::fprintf(stderr, "http1_response_fuzz: %s\n", what);
        std::abort();
    }
}

Outcome parse(std::string_view response, const std::vector<std::size_t> &cuts)
{
    Http1ResponseParser::Limits limits;
    limits.maxHeaderBytes = 512;   // small, so the fuzzer reaches the limit
    limits.maxKeptBodyBytes = 16;
    Http1ResponseParser parser(limits);
    std::size_t at = 0;
    for (std::size_t i = 0; i <= cuts.size() && parser.state() == Http1ResponseParser::State::InProgress; ++i) {
        const std::size_t end = i < cuts.size() ? cuts[i] : response.size();
        if (end <= at)
            continue;
        const std::size_t given = end - at;
        const std::size_t used = parser.feed(response.substr(at, given));
        require(used <= given, "feed() consumed more than it was given");
        require(used == given || parser.state() != Http1ResponseParser::State::InProgress,
                "feed() left bytes unread while still in progress");
        at += used;
        if (used < given)
            break; // bytes beyond a complete response, or after an error
    }
    if (parser.state() == Http1ResponseParser::State::InProgress)
        parser.finishAtClose();
    require(parser.keptBody().size() <= limits.maxKeptBodyBytes, "kept more body than the limit");
    require(parser.state() != Http1ResponseParser::State::Error || !parser.error().empty(), "an error without a reason");
    return Outcome{parser.state(), parser.status(), parser.error(), parser.bodyBytes(), parser.keptBody(),
                   parser.keepAlive()};
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const std::string_view response(reinterpret_cast<const char *>(data + 1), size - 1);
    const std::size_t cut = response.empty() ? 0 : data[0] % (response.size() + 1);
    std::vector<std::size_t> everyByte;
    for (std::size_t i = 1; i < response.size(); ++i)
        everyByte.push_back(i);
    const Outcome whole = parse(response, {});
    require(parse(response, {cut}) == whole, "a cut changed the outcome");
    require(parse(response, everyByte) == whole, "feeding byte by byte changed the outcome");
    return 0;
}
