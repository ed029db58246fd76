// SPDX-License-Identifier: MIT
#pragma once

#include "result.h"

#include <optional>
#include <string>
#include <string_view>

namespace relaydesk {

// Who the broker says it is (docs/behaviour.md §1): the region and account in every ARN and
// the base of every queue URL. Both configurable; the defaults follow AWS so
// that SDK code runs unchanged. Plain value type.
struct BrokerIdentity {
    static constexpr std::string_view kDefaultRegion = "us-east-1";
    static constexpr std::string_view kDefaultAccountId = "000000000000";
    static constexpr std::string_view kDefaultEndpoint = "http://127.0.0.1:9911";

    std::string region = std::string(kDefaultRegion);
    std::string accountId = std::string(kDefaultAccountId);
    std::string endpoint = std::string(kDefaultEndpoint);   // "http://HOST:PORT", no trailing slash

    // Region: 1–32 of [a-z0-9-]; account: 12 digits; endpoint: http(s)://host[:port].
    // InvalidParameterValue naming the bad field otherwise.
    Status validate() const;

    std::string topicArn(std::string_view topicName) const;         // arn:aws:sns:REGION:ACCOUNT:NAME
    std::string queueArn(std::string_view queueName) const;         // arn:aws:sqs:REGION:ACCOUNT:NAME
    std::string queueUrl(std::string_view queueName) const;         // ENDPOINT/ACCOUNT/NAME
    // Topic ARN + ":" + UUID.
    std::string subscriptionArn(std::string_view topicName, std::string_view subscriptionId) const;

    // The queue a URL names, for QueueUrl parameters: "http(s)://ANY-HOST[:PORT]/ACCOUNT/NAME"
    // (any host, since clients reach the broker under many names) or the path
    // alone "/ACCOUNT/NAME", an optional trailing "/". QueueDoesNotExist when
    // the shape, the account or the name is wrong.
    Result<std::string> queueNameFromUrl(std::string_view url) const;
    // The queue an ARN names; QueueDoesNotExist for another region/account or
    // a malformed ARN.
    Result<std::string> queueNameFromArn(std::string_view arn) const;
    // The topic an ARN names: SnsInvalidParameter "Invalid parameter: TopicArn"
    // when malformed, SnsNotFound for another region or account.
    Result<std::string> topicNameFromArn(std::string_view arn) const;

    struct SubscriptionRef {
        std::string topicName;
        std::string subscriptionId;   // the UUID
    };
    // SnsInvalidParameter "Invalid parameter: SubscriptionArn" when malformed
    // (including a suffix that is not a UUID), SnsNotFound for another
    // region or account.
    Result<SubscriptionRef> subscriptionFromArn(std::string_view arn) const;
};

// The six fields of "arn:PARTITION:SERVICE:REGION:ACCOUNT:RESOURCE". The
// resource keeps any further ':' (a subscription ARN's UUID). Nothing when
// the text has fewer fields or does not start with "arn:". Pure.
struct ArnParts {
    std::string partition;
    std::string service;
    std::string region;
    std::string accountId;
    std::string resource;
};
std::optional<ArnParts> splitArn(std::string_view arn);

// 8-4-4-4-12 hexadecimal digits, either case.
bool isUuid(std::string_view text);

// Rebuilds a queue URL the broker produced (any host) on `identity`'s
// endpoint; `url` unchanged when it names no queue. Pure.
std::string rebasedQueueUrl(const BrokerIdentity &identity, const std::string &url);

} // namespace relaydesk
