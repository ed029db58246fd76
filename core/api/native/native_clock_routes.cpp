// SPDX-License-Identifier: MIT
// Native API: /clock and /policies.
#include "api/native/native_api.h"

#include "broker/clock.h"
#include "engine/broker_engine.h"
#include "api/wire/action_input.h"
#include "policy/policy_json.h"
#include "policy/policy_report.h"

#include <cmath>

namespace relaydesk::native_routes {

namespace {

using Json = nlohmann::json;

void advance(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    BrokerEngine &engine = context.engine;
    auto answer = [reply, &engine](Result<ClockTime> result) {
        reply(result ? NativeAnswer{200, clockJson(engine.clock())} : NativeAnswer::failure(result.error()));
    };
    const Json &body = request.body;
    if (body.contains("to") && body.contains("seconds"))
        return reply(NativeAnswer::invalid("Give either \"seconds\" or \"to\", not both."));
    if (body.contains("to")) {
        const auto to = body["to"].is_string() ? parseIso8601(body["to"].get<std::string>()) : std::nullopt;
        if (!to)
            return reply(NativeAnswer::invalid("\"to\" must be an ISO 8601 UTC time such as 2026-01-01T00:00:00.000Z."));
        return engine.advanceClockTo(*to, context.replyContext, answer);
    }
    const Json seconds = body.value("seconds", Json());
    if (!seconds.is_number() || !std::isfinite(seconds.get<double>()) || seconds.get<double>() < 0 ||
        seconds.get<double>() > 100.0 * 365 * 86400)
        return reply(NativeAnswer::invalid("\"seconds\" must be a number of seconds from 0 to 100 years."));
    const auto by = ClockDuration(static_cast<std::int64_t>(std::llround(seconds.get<double>() * 1000.0)));
    engine.advanceClock(by, context.replyContext, answer);
}

void setMode(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    const Json &body = request.body;
    const auto mode = body.value("mode", Json()).is_string() ? parseClockMode(body["mode"].get<std::string>()) : std::nullopt;
    if (!mode)
        return reply(NativeAnswer::invalid("\"mode\" must be real, scaled or virtual."));
    const Json scale = body.value("scale", Json(1.0));
    if (!scale.is_number())
        return reply(NativeAnswer::invalid("\"scale\" must be a number."));
    BrokerEngine &engine = context.engine;
    engine.setClockMode(*mode, scale.get<double>(), context.replyContext, [reply, &engine](Status status) {
        reply(status ? NativeAnswer{200, clockJson(engine.clock())} : NativeAnswer::failure(status.error()));
    });
}

Json issuesJson(const PolicyIssues &issues)
{
    Json list = Json::array();
    for (const PolicyIssue &issue : issues)
        list.push_back({{"field", issue.field}, {"message", issue.message}});
    return list;
}

} // namespace

Json clockJson(const Clock &clock)
{
    const ClockTime now = clock.now();
    return {{"mode", std::string(clockModeName(clock.mode()))},
            {"scale", clock.scale()},
            {"now", formatIso8601(now)},
            {"nowMs", toEpochMilliseconds(now)}};
}

bool clock(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.path.empty() || request.path[0] != "clock" || request.path.size() > 2)
        return false;
    if (request.path.size() == 1) {
        if (request.method == "GET")
            reply(NativeAnswer{200, clockJson(context.engine.clock())});
        else if (request.method == "PUT")
            setMode(request, context, reply);
        else
            reply(methodNotAllowed(request));
        return true;
    }
    if (request.path[1] != "advance")
        return false;
    if (request.method != "POST")
        reply(methodNotAllowed(request));
    else
        advance(request, context, reply);
    return true;
}

// POST /policies/explain and /policies/validate: the body is the policy
// document in any of the three forms; ?protocol=http|https|sqs, ?rawDelivery=true.
bool policies(const NativeRequest &request, const NativeContext &, const NativeReply &reply)
{
    if (request.path.size() != 2 || request.path[0] != "policies" ||
        (request.path[1] != "explain" && request.path[1] != "validate"))
        return false;
    if (request.method != "POST") {
        reply(methodNotAllowed(request));
        return true;
    }
    PolicyCheckContext check;
    const std::string protocol = request.query.queryItemValue(QStringLiteral("protocol")).toStdString();
    if (!protocol.empty() && !parseEndpointProtocol(protocol, check.protocol)) {
        reply(NativeAnswer::invalid("protocol must be http, https or sqs."));
        return true;
    }
    check.rawDelivery = request.query.queryItemValue(QStringLiteral("rawDelivery")) == QLatin1String("true");
    const PolicyExplanation explanation = explainPolicy(request.body, "request", check);
    if (request.path[1] == "explain") {
        reply(NativeAnswer{200, explanationJson(explanation)});
        return true;
    }
    const PolicyValidation &validation = explanation.validation;
    reply(NativeAnswer{200,
                       {{"valid", validation.valid()},
                        {"form", std::string(policyFormKey(validation.form))},
                        {"errors", issuesJson(validation.errors)},
                        {"warnings", issuesJson(validation.warnings)}}});
    return true;
}

} // namespace relaydesk::native_routes
