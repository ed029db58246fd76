// SPDX-License-Identifier: MIT
#include "engine/delivery_attempt.h"

#include "policy/jitter_sampler.h"

namespace relaydesk {

namespace {

// Whether `url` names a mock endpoint (a path under /_mock/), whose broker's
// own words about a 404 are worth logging.
bool isMockEndpointUrl(const std::string &url)
{
    const std::size_t scheme = url.find("://");
    const std::size_t path = url.find('/', scheme == std::string::npos ? 0 : scheme + 3);
    return path != std::string::npos && url.compare(path, 7, "/_mock/") == 0;
}

} // namespace

HttpDeliveryRequest buildDeliveryPost(const DeliveryJob &job, const BrokerIdentity &identity,
                                      const std::function<std::string(std::string)> &sign, std::string &signedEnvelope)
{
    const DeliveryRequest request = describeDeliveryRequest(job, identity);
    signedEnvelope = sign && !request.raw ? sign(request.envelope) : request.envelope; // raw: the envelope is not sent
    HttpDeliveryRequest http;
    http.url = job.endpoint;
    http.lane = job.subscriptionArn;
    http.headers = request.headers;
    http.headers.emplace_back("Content-Type", request.contentType);
    http.body = request.raw ? job.message : signedEnvelope;
    return http;
}

AttemptReport reportAttempt(DeliveryJob job, std::string signedEnvelope, ClockTime started,
                            const HttpDeliveryResult &result, JitterSampler &jitter, ClockTime now)
{
    AttemptReport report;
    report.startedAt = started;
    report.durationMs = result.duration.count();
    report.httpStatus = result.httpStatus;
    switch (result.failure) {
    case HttpDeliveryResult::Failure::None: report.failure = TransportFailure::None; break;
    case HttpDeliveryResult::Failure::Timeout: report.failure = TransportFailure::Timeout; break;
    case HttpDeliveryResult::Failure::ConnectionError: report.failure = TransportFailure::ConnectionError; break;
    }
    if (result.httpStatus && !result.errorText.empty() && isMockEndpointUrl(job.endpoint))
        report.error = result.errorText; // "mock endpoint NAME does not exist"
    report.outcome = classifyAttempt(job.effective.policy.dialect, report.httpStatus, report.failure);
    report.next = nextStepAfter(job.schedule, job.attempt, report.outcome);
    if (!report.next.ends) {
        const int planned = report.next.plannedDelaySeconds;
        report.nextDue = now + (planned == 0 ? ClockDuration(0) : ClockDuration(jitter.sample(planned).count()));
    }
    report.sentEnvelope = std::move(signedEnvelope);
    report.job = std::move(job);
    return report;
}

} // namespace relaydesk
