// SPDX-License-Identifier: MIT
// Fuzz target of the Zaqar v2 API's requests: what the routes read before
// the broker. The input is "METHOD TARGET", a newline, the Content-Type, a
// newline, then the body. Checked for every input: no crash or sanitizer
// report; a refused request is 415 or 400 with Zaqar's {"title",
// "description"}; on an accepted one, every body reader — posted messages,
// claim terms, subscription terms, queue metadata, a metadata JSON patch —
// accepts or names the problem, and what it accepted is within Zaqar's
// limits and reads the same once written back as JSON text; metadata
// accepted stays accepted with its reserved defaults filled in; a patch
// ends in 200 with an object, or 400/409 with a description; the query's
// limit is 1–20 or a 400.
#include "api/zaqar/zaqar_api.h"
#include "api/zaqar/zaqar_bodies.h"
#include "api/zaqar/zaqar_rules.h"
#include "api/zaqar/zaqar_unit.h"
#include "api/wire/action_input.h"
#include "fuzz_check.h"
#include "fuzz_http_input.h"
#include "json/bounded_json.h"

#include <cstddef>
#include <cstdint>
#include <string>

using namespace relaydesk;
using namespace relaydesk::zaqar;
using relaydesk::fuzz::require;

namespace {

constexpr const char *kTarget = "zaqar_body_fuzz";

nlohmann::json again(const nlohmann::json &value)
{
    const nlohmann::json read = parseBoundedJson(jsonText(value));
    require(!read.is_discarded(), kTarget, "a value written back does not parse");
    return read;
}

void requireProblem(const std::optional<std::string> &problem)
{
    require(!problem || !problem->empty(), kTarget, "a refusal without a description");
}

void checkPosted(const nlohmann::json &body)
{
    std::vector<PostedMessage> posted;
    const std::optional<std::string> problem = readPostedMessages(body, posted);
    requireProblem(problem);
    if (problem)
        return;
    require(!posted.empty() && posted.size() <= std::size_t(kMaxPerPage), kTarget, "a post of 0 or more than 20 messages");
    nlohmann::json written = {{"messages", nlohmann::json::array()}};
    for (const PostedMessage &message : posted) {
        nlohmann::json one = {{"body", message.body}};
        if (message.ttl)
            one["ttl"] = *message.ttl;
        if (message.delay)
            one["delay"] = *message.delay;
        written["messages"].push_back(std::move(one));
    }
    std::vector<PostedMessage> reread;
    require(!readPostedMessages(again(written), reread), kTarget, "posted messages written back are refused");
    require(reread.size() == posted.size(), kTarget, "posted messages written back changed in number");
    for (std::size_t i = 0; i < posted.size(); ++i)
        require(reread[i].body == posted[i].body && reread[i].ttl == posted[i].ttl && reread[i].delay == posted[i].delay,
                kTarget, "a posted message written back changed");
}

void checkClaim(const std::optional<nlohmann::json> &body)
{
    ClaimTerms terms;
    const std::optional<std::string> problem = readClaimTerms(body, terms);
    requireProblem(problem);
    if (problem)
        return;
    require(terms.ttl >= kMinClaimTtl && terms.ttl <= kMaxClaimTtl && terms.grace >= kMinClaimGrace
                && terms.grace <= kMaxClaimGrace,
            kTarget, "claim terms out of Zaqar's limits accepted");
    ClaimTerms reread;
    require(!readClaimTerms(again({{"ttl", terms.ttl}, {"grace", terms.grace}}), reread)
                && reread.ttl == terms.ttl && reread.grace == terms.grace,
            kTarget, "claim terms written back changed");
}

void checkSubscription(const std::optional<nlohmann::json> &body)
{
    SubscriptionTerms terms;
    const std::optional<std::string> problem = readSubscriptionTerms(body, terms);
    requireProblem(problem);
    if (problem)
        return;
    require(!terms.ttl || *terms.ttl >= kMinSubscriptionTtl, kTarget, "a subscription ttl below 60 accepted");
    require(!terms.ttl || *terms.ttl <= kLastSubscriptionSecond, kTarget, "a subscription ttl past year 9999 accepted");
    require(!terms.options || !retryPolicyProblem(*terms.options), kTarget, "options with a bad retry policy accepted");
    nlohmann::json written = nlohmann::json::object();
    if (terms.subscriber)
        written["subscriber"] = *terms.subscriber;
    if (terms.ttl)
        written["ttl"] = *terms.ttl;
    if (terms.options)
        written["options"] = *terms.options;
    if (written.empty())
        return;   // a body of unknown fields only: nothing to write back
    SubscriptionTerms reread;
    require(!readSubscriptionTerms(again(written), reread) && reread.subscriber == terms.subscriber
                && reread.ttl == terms.ttl && reread.options == terms.options,
            kTarget, "subscription terms written back changed");
}

void checkMetadata(const nlohmann::json &body)
{
    const std::optional<std::string> problem = metadataProblem(body);
    requireProblem(problem);
    if (!problem && body.is_object())
        require(!metadataProblem(withReservedDefaults(body)), kTarget,
                "accepted metadata refused once its reserved defaults are filled in");
    static const nlohmann::json stored = {{"_default_message_ttl", 600}, {"team", "billing"}};
    const PatchOutcome patched = applyMetadataPatch(stored, body);
    require(patched.status == 200 || patched.status == 400 || patched.status == 409, kTarget,
            "a patch outcome of another status");
    if (patched.status == 200)
        require(patched.metadata.is_object(), kTarget, "a patch made metadata that is not an object");
    else
        require(!patched.description.empty(), kTarget, "a refused patch without a description");
    if (patched.status == 200)
        requireProblem(metadataProblem(patched.metadata));
}

void checkQuery(const ZaqarRequest &request)
{
    std::optional<ZaqarAnswer> refusal;
    const std::optional<std::int64_t> limit = pageLimit(request, refusal);
    require(limit ? (*limit >= 1 && *limit <= kMaxPerPage && !refusal) : (refusal && refusal->status == 400), kTarget,
            "a page limit out of 1–20 or a refusal that is not 400");
    (void)flagParam(request, "echo");
    (void)listParam(request, "ids");
    if (request.path.size() >= 2)
        requireProblem(queueNameProblem(request.path[1]));
    (void)isClientId(request.clientId);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    const fuzz::HttpInput http = fuzz::httpInput(data, size, "/v2");

    const std::variant<ZaqarRequest, ZaqarAnswer> read =
        readZaqarRequest(http.method, http.url, http.contentType, "3b5f7d4e-8a47-4c7f-9a5e-1f2d3c4b5a69", "fuzz", http.body);
    if (const ZaqarAnswer *refused = std::get_if<ZaqarAnswer>(&read)) {
        require(refused->status == 415 || refused->status == 400, kTarget, "a refusal of the request of another status");
        require(refused->body && refused->body->contains("title") && refused->body->contains("description"), kTarget,
                "a refusal without Zaqar's title and description");
        return 0;
    }
    const ZaqarRequest &request = std::get<ZaqarRequest>(read);
    checkQuery(request);
    checkClaim(request.body);
    checkSubscription(request.body);
    if (!request.body)
        return 0;
    checkPosted(*request.body);
    checkMetadata(*request.body);
    return 0;
}
