// SPDX-License-Identifier: MIT
// Fuzz target of Http1RequestParser (every byte a client sends the broker's
// port). The first byte picks a cut; the rest is what a connection carries.
// Checked for every input: no crash or sanitizer report; the requests read
// (method, target, body, keep-alive, body too large) and the failure (status)
// are the same fed whole, fed in two pieces at the cut and fed byte by byte;
// a body never exceeds its limit; a failure has a reason and a 4xx/5xx status.
#include "fuzz_check.h"
#include "http/http1_request_parser.h"

#include <QByteArray>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

using relaydesk::Http1RequestParser;
using relaydesk::fuzz::require;

namespace {

constexpr const char *kTarget = "http1_request_fuzz";

std::vector<std::string> parse(const QByteArray &bytes, const std::vector<qsizetype> &cuts)
{
    Http1RequestParser::Limits limits;
    limits.maxHeadBytes = 512;   // small, so the fuzzer reaches the limits
    limits.maxBodyBytes = 64;
    Http1RequestParser parser(limits);
    std::vector<std::string> seen;
    QByteArray input;
    qsizetype at = 0;
    for (std::size_t i = 0; i <= cuts.size(); ++i) {
        const qsizetype end = i < cuts.size() ? cuts[i] : bytes.size();
        if (end > at)
            input += bytes.mid(at, end - at);
        at = std::max(at, end);
        for (;;) {
            const Http1RequestParser::Step step = parser.parse(input);
            if (step == Http1RequestParser::Step::NeedMore)
                break;
            if (step == Http1RequestParser::Step::Failed) {
                const auto &failure = parser.failure();
                require(failure.status >= 400 && failure.status <= 599, kTarget, "a failure without an error status");
                require(!failure.message.empty(), kTarget, "a failure without a reason");
                seen.push_back("failed " + std::to_string(failure.status));
                return seen;
            }
            const relaydesk::HttpRequest request = parser.takeRequest();
            require(std::size_t(request.body().size()) <= limits.maxBodyBytes, kTarget, "a body over the limit");
            seen.push_back(request.method().toStdString() + " " + request.target().toStdString() + " "
                           + request.body().toStdString() + (request.keepAlive() ? " keep" : " close")
                           + (request.bodyTooLarge() ? " too-large" : ""));
            if (parser.stopped())
                return seen;
        }
        if (parser.stopped())
            break;
    }
    return seen;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size == 0)
        return 0;
    const QByteArray bytes(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const qsizetype cut = bytes.isEmpty() ? 0 : data[0] % (bytes.size() + 1);
    std::vector<qsizetype> everyByte;
    for (qsizetype i = 1; i < bytes.size(); ++i)
        everyByte.push_back(i);
    const std::vector<std::string> whole = parse(bytes, {});
    require(parse(bytes, {cut}) == whole, kTarget, "a cut changed the requests read");
    require(parse(bytes, everyByte) == whole, kTarget, "feeding byte by byte changed the requests read");
    return 0;
}
