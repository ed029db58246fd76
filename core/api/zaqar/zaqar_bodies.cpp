// SPDX-License-Identifier: MIT
#include "api/zaqar/zaqar_bodies.h"

#include <QString>
#include <QUrl>

#include <limits>

namespace relaydesk::zaqar {

std::optional<std::string> readPostedMessages(const nlohmann::json &request, std::vector<PostedMessage> &posted)
{
    if (!request.is_object() || !request.contains("messages"))
        return "No messages were found in the request body.";
    const nlohmann::json &messages = request["messages"];
    if (!messages.is_array())
        return "Request body could not be parsed.";
    if (messages.empty())
        return "No messages to enqueu.";
    if (messages.size() > std::size_t(kMaxPerPage))
        return "No more than " + std::to_string(kMaxPerPage) + " messages can be enqueued at once.";
    for (const nlohmann::json &message : messages) {
        if (!message.is_object() || !message.contains("body"))
            return "Missing \"body\" field.";
        PostedMessage one{message["body"], std::nullopt, std::nullopt};
        if (message.contains("ttl") && !message["ttl"].is_null()) {
            if (!message["ttl"].is_number_integer())
                return "\"ttl\" must be an integer.";
            one.ttl = message["ttl"].get<std::int64_t>();
        }
        if (message.contains("delay") && !message["delay"].is_null()) {
            if (!message["delay"].is_number_integer())
                return "\"delay\" must be an integer.";
            one.delay = message["delay"].get<std::int64_t>();
        }
        posted.push_back(std::move(one));
    }
    return std::nullopt;
}

std::optional<std::string> readClaimTerms(const std::optional<nlohmann::json> &body, ClaimTerms &terms)
{
    const nlohmann::json document = body.value_or(nlohmann::json::object());
    if (!document.is_object())
        return "Request body could not be parsed.";
    const std::optional<std::int64_t> ttl = integerField(document, "ttl", terms.ttl);
    const std::optional<std::int64_t> grace = integerField(document, "grace", terms.grace);
    if (!ttl || !grace)
        return "\"ttl\" and \"grace\" must be integers.";
    terms.ttl = *ttl;
    terms.grace = *grace;
    if (terms.ttl < kMinClaimTtl || terms.ttl > kMaxClaimTtl)
        return "The TTL for a claim may not exceed " + std::to_string(kMaxClaimTtl) + " seconds, and must be at least " +
               std::to_string(kMinClaimTtl) + " seconds long.";
    if (terms.grace < kMinClaimGrace || terms.grace > kMaxClaimGrace)
        return "The grace for a claim may not exceed " + std::to_string(kMaxClaimGrace) +
               " seconds, and must be at least " + std::to_string(kMinClaimGrace) + " seconds long.";
    if (document.contains("limit") && !document["limit"].is_null()) {
        const std::optional<std::int64_t> limit = integerField(document, "limit", 0);
        if (!limit)
            return "\"limit\" must be an integer.";
        if (*limit < 1 || *limit > kMaxPerPage)
            return kLimitProblem;
        terms.limit = *limit;
    }
    return std::nullopt;
}

std::optional<std::string> readSubscriptionTerms(const std::optional<nlohmann::json> &body, SubscriptionTerms &terms)
{
    if (!body || !body->is_object() || body->empty())
        return "No subscription to create.";
    const nlohmann::json &document = *body;
    if (document.contains("subscriber")) {
        if (!document["subscriber"].is_string())
            return "The subscriber type of subscription must be supported in the list ['http', 'https'].";
        const std::string subscriber = document["subscriber"].get<std::string>();
        const QUrl url(QString::fromStdString(subscriber), QUrl::StrictMode);
        const QString scheme = url.scheme();
        if (!url.isValid() || (scheme != QLatin1String("http") && scheme != QLatin1String("https")) || url.host().isEmpty())
            return "The subscriber type of subscription must be supported in the list ['http', 'https'].";
        if (subscriber.find('@') != std::string::npos && !url.userInfo().isEmpty())
            return "The subscriber may not carry user information (user:password@): it would be listed to every "
                   "client of the queue.";
        terms.subscriber = subscriber;
    }
    if (document.contains("options") && !document["options"].is_null()) {
        if (!document["options"].is_object())
            return "Options must be a dict.";
        if (std::optional<std::string> problem = retryPolicyProblem(document["options"]))
            return problem;
        terms.options = document["options"];
    }
    if (document.contains("ttl") && !document["ttl"].is_null()) {
        const nlohmann::json &ttl = document["ttl"];
        if (!ttl.is_number_integer())
            return "TTL must be an integer.";
        // A JSON integer above 2^63 - 1 reads as unsigned: taken as 2^63 - 1,
        // which is past any last second all the same.
        constexpr std::int64_t kLargest = std::numeric_limits<std::int64_t>::max();
        const std::int64_t seconds = ttl.is_number_unsigned() && ttl.get<std::uint64_t>() > std::uint64_t(kLargest)
            ? kLargest
            : ttl.get<std::int64_t>();
        if (seconds < kMinSubscriptionTtl)
            return "The TTL for a subscription must be at least " + std::to_string(kMinSubscriptionTtl) + " seconds long.";
        if (std::optional<std::string> late = subscriptionEndProblem(seconds, ClockTime{}))
            return late;
        terms.ttl = seconds;
    }
    return std::nullopt;
}

std::optional<std::string> subscriptionEndProblem(std::int64_t ttl, ClockTime now)
{
    if (ttl <= kLastSubscriptionSecond - toEpochMilliseconds(now) / 1000)
        return std::nullopt;
    return "The TTL seconds for a subscription plus current time must be less than 9999-12-31 23:59:59.999999.";
}

} // namespace relaydesk::zaqar
