// SPDX-License-Identifier: MIT
#pragma once

#include "broker/result.h"

#include <string>
#include <string_view>
#include <vector>

namespace relaydesk {

// A queue's RedrivePolicy (docs/behaviour.md §5.3): after maxReceiveCount receives without
// a delete, the next receive moves the message to the dead-letter queue.
// Plain value type.
struct QueueRedrivePolicy {
    static constexpr int kMinMaxReceiveCount = 1;
    static constexpr int kMaxMaxReceiveCount = 1000;

    std::string deadLetterTargetArn;   // arn:aws:sqs:REGION:ACCOUNT:NAME
    int maxReceiveCount = 10;
    bool operator==(const QueueRedrivePolicy &) const = default;
};

// Reads the attribute text {"deadLetterTargetArn": ARN, "maxReceiveCount": N}
// (N a number or a numeric string, 1–1000). The ARN must be a well-formed
// SQS ARN, and the target's kind must match the source's: a FIFO queue's
// dead-letter queue is FIFO, a standard queue's is standard (told by the
// ".fifo" suffix). Whether the target exists is the broker's check.
// InvalidParameterValue "Value TEXT for parameter RedrivePolicy is invalid.
// Reason: ..." otherwise. Pure.
Result<QueueRedrivePolicy> parseQueueRedrivePolicy(std::string_view text, bool sourceIsFifo);
// {"deadLetterTargetArn":"…","maxReceiveCount":N}, compact, as SQS returns it.
std::string writeQueueRedrivePolicy(const QueueRedrivePolicy &policy);

// Which queues may use a queue as their dead-letter queue (RedriveAllowPolicy).
enum class RedrivePermission { AllowAll, DenyAll, ByQueue };
std::string_view redrivePermissionName(RedrivePermission permission);   // "allowAll", "denyAll", "byQueue"

struct RedriveAllowPolicy {
    static constexpr std::size_t kMaxSourceQueues = 10;

    RedrivePermission redrivePermission = RedrivePermission::AllowAll;
    std::vector<std::string> sourceQueueArns;   // byQueue only: 1–10 ARNs

    bool allowsSource(std::string_view sourceQueueArn) const;
    bool operator==(const RedriveAllowPolicy &) const = default;
};

// Reads {"redrivePermission": "allowAll"|"denyAll"|"byQueue", "sourceQueueArns": [...]}:
// sourceQueueArns is required (1–10 SQS ARNs) with byQueue and refused
// otherwise. InvalidParameterValue "Value TEXT for parameter
// RedriveAllowPolicy is invalid. Reason: ..." otherwise. Pure.
Result<RedriveAllowPolicy> parseRedriveAllowPolicy(std::string_view text);
std::string writeRedriveAllowPolicy(const RedriveAllowPolicy &policy);

} // namespace relaydesk
