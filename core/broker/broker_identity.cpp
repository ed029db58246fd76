// SPDX-License-Identifier: MIT
#include "broker_identity.h"

#include "entity_names.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <optional>

namespace relaydesk {

namespace {

bool isDigit(char c) { return c >= '0' && c <= '9'; }
bool isHex(char c) { return isDigit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

std::string arn(std::string_view service, const BrokerIdentity &identity, std::string_view resource)
{
    std::string out = "arn:aws:";
    out.append(service).append(":").append(identity.region).append(":").append(identity.accountId).append(":");
    out.append(resource);
    return out;
}

BrokerError noSuchQueue(std::string_view given)
{
    return BrokerError(BrokerErrorCode::QueueDoesNotExist, "The specified queue does not exist: " + std::string(given) + ".");
}

// An ARN of another region or account: says which ones this broker has
// (one region and account per broker, whatever region a request is signed for).
std::string elsewhere(const ArnParts &parts, const BrokerIdentity &identity)
{
    return " (" + std::string(parts.region != identity.region ? "region " + parts.region : "account " + parts.accountId) +
           "): this broker is region " + identity.region + ", account " + identity.accountId +
           " (relaydesk serve --region, --account)";
}

} // namespace

std::optional<ArnParts> splitArn(std::string_view text)
{
    if (text.substr(0, 4) != "arn:")
        return std::nullopt;
    std::string_view rest = text.substr(4);
    std::string fields[4];
    for (std::string &field : fields) {
        const auto colon = rest.find(':');
        if (colon == std::string_view::npos)
            return std::nullopt;
        field = std::string(rest.substr(0, colon));
        rest.remove_prefix(colon + 1);
    }
    return ArnParts{fields[0], fields[1], fields[2], fields[3], std::string(rest)};
}

bool isUuid(std::string_view text)
{
    if (text.size() != 36)
        return false;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const bool dash = i == 8 || i == 13 || i == 18 || i == 23;
        if (dash ? text[i] != '-' : !isHex(text[i]))
            return false;
    }
    return true;
}

namespace {

// What is wrong with HOST[:PORT] of an endpoint, if anything: a host name
// (letters, digits, '.', '-', '_'; at most 253 characters) or an IPv6
// address in brackets, and a port from 1 to 65535 when given.
std::optional<std::string> endpointAuthorityProblem(std::string_view authority)
{
    std::string_view host = authority;
    std::string_view port;
    if (!authority.empty() && authority.front() == '[') {
        const std::size_t close = authority.find(']');
        if (close == std::string_view::npos || close == 1)
            return "The endpoint's IPv6 host must be in brackets, like http://[::1]:9911.";
        host = authority.substr(0, close + 1);
        const std::string_view rest = authority.substr(close + 1);
        if (!rest.empty() && rest.front() != ':')
            return "The endpoint must be http://HOST:PORT or https://HOST:PORT without a path.";
        port = rest.empty() ? rest : rest.substr(1);
        if (!std::all_of(host.begin() + 1, host.end() - 1, [](char c) { return isHex(c) || c == ':' || c == '.'; }))
            return "The endpoint's IPv6 host is not an address.";
    } else {
        const std::size_t colon = authority.rfind(':');
        if (colon != std::string_view::npos) {
            host = authority.substr(0, colon);
            port = authority.substr(colon + 1);
        }
        const bool hostOk = !host.empty() && host.size() <= 253 && std::all_of(host.begin(), host.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || isDigit(c) || c == '.' || c == '-' || c == '_';
        });
        if (!hostOk)
            return "The endpoint's host must be a name or address of at most 253 letters, digits, '.', '-' or '_'.";
    }
    if (authority.size() > host.size()) {
        int number = 0;
        const bool digits = !port.empty() && port.size() <= 5 && std::all_of(port.begin(), port.end(), isDigit);
        if (digits)
            std::from_chars(port.data(), port.data() + port.size(), number);
        if (!digits || number < 1 || number > 65535)
            return "The endpoint's port must be a number from 1 to 65535.";
    }
    return std::nullopt;
}

} // namespace

Status BrokerIdentity::validate() const
{
    const bool regionOk = !region.empty() && region.size() <= 32 &&
                          std::all_of(region.begin(), region.end(),
                                      [](char c) { return (c >= 'a' && c <= 'z') || isDigit(c) || c == '-'; });
    if (!regionOk)
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "The region must be 1 to 32 lowercase letters, digits or hyphens, like us-east-1.");
    if (accountId.size() != 12 || !std::all_of(accountId.begin(), accountId.end(), isDigit))
        return BrokerError(BrokerErrorCode::InvalidParameterValue, "The account id must be 12 digits.");
    const std::string_view e = endpoint;
    const auto scheme = e.substr(0, 7) == "http://" ? 7 : e.substr(0, 8) == "https://" ? 8 : 0;
    const std::string_view authority = scheme ? e.substr(scheme) : std::string_view();
    if (authority.empty() || authority.find_first_of("/?# ") != std::string_view::npos)
        return BrokerError(BrokerErrorCode::InvalidParameterValue,
                           "The endpoint must be http://HOST:PORT or https://HOST:PORT without a path.");
    if (std::optional<std::string> problem = endpointAuthorityProblem(authority))
        return BrokerError(BrokerErrorCode::InvalidParameterValue, *problem);
    return {};
}

std::string BrokerIdentity::topicArn(std::string_view topicName) const { return arn("sns", *this, topicName); }

std::string BrokerIdentity::queueArn(std::string_view queueName) const { return arn("sqs", *this, queueName); }

std::string BrokerIdentity::queueUrl(std::string_view queueName) const
{
    std::string out = endpoint;
    out.append("/").append(accountId).append("/").append(queueName);
    return out;
}

std::string BrokerIdentity::subscriptionArn(std::string_view topicName, std::string_view subscriptionId) const
{
    std::string out = topicArn(topicName);
    out.append(":").append(subscriptionId);
    return out;
}

Result<std::string> BrokerIdentity::queueNameFromUrl(std::string_view url) const
{
    std::string_view path = url;
    for (std::string_view scheme : {std::string_view("http://"), std::string_view("https://")}) {
        if (url.substr(0, scheme.size()) == scheme) {
            const std::string_view rest = url.substr(scheme.size());
            const auto slash = rest.find('/');
            if (slash == 0 || slash == std::string_view::npos)
                return noSuchQueue(url);
            path = rest.substr(slash);
            break;
        }
    }
    if (path.empty() || path.front() != '/')
        return noSuchQueue(url);
    path.remove_prefix(1);
    if (!path.empty() && path.back() == '/')
        path.remove_suffix(1);
    const auto slash = path.find('/');
    if (slash == std::string_view::npos)
        return noSuchQueue(url);
    if (path.substr(0, slash) != accountId)
        return BrokerError(BrokerErrorCode::QueueDoesNotExist,
                           "The specified queue does not exist: " + std::string(url) + " names account " +
                               std::string(path.substr(0, slash)) + "; this broker is account " + accountId +
                               " (relaydesk serve --account).");
    const std::string_view name = path.substr(slash + 1);
    if (!validateQueueName(name))
        return noSuchQueue(url);
    return std::string(name);
}

Result<std::string> BrokerIdentity::queueNameFromArn(std::string_view text) const
{
    const auto parts = splitArn(text);
    if (!parts || parts->service != "sqs" || !validateQueueName(parts->resource))
        return noSuchQueue(text);
    if (parts->region != region || parts->accountId != accountId)
        return BrokerError(BrokerErrorCode::QueueDoesNotExist,
                           "The specified queue does not exist: " + std::string(text) + elsewhere(*parts, *this) + ".");
    return parts->resource;
}

Result<std::string> BrokerIdentity::topicNameFromArn(std::string_view text) const
{
    const auto parts = splitArn(text);
    if (!parts || parts->service != "sns" || !validateTopicName(parts->resource))
        return BrokerError(BrokerErrorCode::SnsInvalidParameter, "Invalid parameter: TopicArn");
    if (parts->region != region || parts->accountId != accountId)
        return BrokerError(BrokerErrorCode::SnsNotFound, "Topic does not exist: " + std::string(text) + elsewhere(*parts, *this));
    return parts->resource;
}

Result<BrokerIdentity::SubscriptionRef> BrokerIdentity::subscriptionFromArn(std::string_view text) const
{
    const BrokerError malformed(BrokerErrorCode::SnsInvalidParameter, "Invalid parameter: SubscriptionArn");
    const auto parts = splitArn(text);
    if (!parts || parts->service != "sns")
        return malformed;
    const auto colon = parts->resource.rfind(':');
    if (colon == std::string::npos)
        return malformed;
    SubscriptionRef ref{parts->resource.substr(0, colon), parts->resource.substr(colon + 1)};
    if (!validateTopicName(ref.topicName) || !isUuid(ref.subscriptionId))
        return malformed;
    if (parts->region != region || parts->accountId != accountId)
        return BrokerError(BrokerErrorCode::SnsNotFound,
                           "Subscription does not exist: " + std::string(text) + elsewhere(*parts, *this));
    return ref;
}

std::string rebasedQueueUrl(const BrokerIdentity &identity, const std::string &url)
{
    Result<std::string> name = identity.queueNameFromUrl(url);
    return name ? identity.queueUrl(*name) : url;
}

} // namespace relaydesk
