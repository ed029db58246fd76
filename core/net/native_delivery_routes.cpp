// SPDX-License-Identifier: MIT
// Native API: /attempts (SPEC 4.4), /mocks (SPEC 4.7) and /signing-certificate (SPEC 4.1).
//
//   GET    /attempts[?subscriptionArn=ARN | ?topicArn=ARN][&kind=K][&messageId=ID][&since=ISO][&until=ISO][&limit=N]
//              → {"attempts": [...]} oldest first (attempt_log::writeAttemptsJson): one
//                subscription's, a topic's subscriptions', or (neither) every one;
//                kind notification|subscriptionConfirmation|unsubscribeConfirmation;
//                limit 1–kMaxAttemptLimit, default 1000
//   GET    /mocks                    → {"mocks": [MOCK, ...]} by name
//   PUT    /mocks/NAME {"script": S} → MOCK (created or replaced: starts afresh)
//   GET    /mocks/NAME               → MOCK
//   DELETE /mocks/NAME               → {}
//   GET    /mocks/NAME/requests      → {"requests": [REQUEST, ...]} oldest first
//   DELETE /mocks/NAME/requests      → {} (forgets the recorded requests)
//   GET    /signing-certificate      → {"certificatePem": PEM, "url": SigningCertURL}
// MOCK = {"name", "script", "url", "requestCount"}; REQUEST = {"method",
// "target", "headers": [{"name", "value"}], "body", "received" (clock time),
// "answer": {"action": "respond"|"hang"|"close", "status", "delayMs"}}.
// Errors: InvalidParameterValue (400) for a bad name, script (the message
// names the character position), limit, since, until, kind, a malformed ARN or
// both ARNs; an unknown mock, and an ARN that names no subscription/topic
// and has no logged attempts, are NotFound (404).
#include "net/native_api.h"

#include "broker/attempt_log.h"
#include "broker/sns_envelope.h"
#include "broker/subscription_records.h"
#include "broker/topic_records.h"
#include "engine/broker_engine.h"
#include "net/mock_endpoints.h"

#include <QObject>

#include <variant>

namespace relaydesk::native_routes {

namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxAttemptLimit = 10000;

NativeAnswer invalid(std::string message)
{
    return NativeAnswer::failure(BrokerError(BrokerErrorCode::InvalidParameterValue, std::move(message)));
}

NativeAnswer noSuchMock(const std::string &name)
{
    return NativeAnswer::failure(404, "NotFound", "There is no mock endpoint named " + name + ".");
}

// A query parameter, decoded; nothing when absent.
std::optional<std::string> parameter(const QUrlQuery &query, const char *name)
{
    const QString key = QString::fromLatin1(name);
    if (!query.hasQueryItem(key))
        return std::nullopt;
    return query.queryItemValue(key, QUrl::FullyDecoded).toStdString();
}

// Reads the query of GET /attempts; the 400 answer when a value is wrong.
std::variant<AttemptQuery, NativeAnswer> readAttemptQuery(const QUrlQuery &query, const BrokerIdentity &identity)
{
    AttemptQuery wanted;
    wanted.subscriptionArn = parameter(query, "subscriptionArn");
    wanted.topicArn = parameter(query, "topicArn");
    if (wanted.subscriptionArn && wanted.topicArn)
        return invalid("Give subscriptionArn or topicArn, not both (neither: every subscription).");
    if (wanted.subscriptionArn) {
        if (auto ref = identity.subscriptionFromArn(*wanted.subscriptionArn);
            !ref && ref.error().code == BrokerErrorCode::SnsInvalidParameter)
            return invalid("subscriptionArn must be a subscription ARN such as " +
                           identity.subscriptionArn("events", "6f1b2c3d-0000-4000-8000-000000000000") + ".");
    }
    if (wanted.topicArn) {
        if (auto name = identity.topicNameFromArn(*wanted.topicArn);
            !name && name.error().code == BrokerErrorCode::SnsInvalidParameter)
            return invalid("topicArn must be a topic ARN such as " + identity.topicArn("events") + ".");
    }
    wanted.kind = parameter(query, "kind");
    if (wanted.kind && !attempt_log::isAttemptKind(*wanted.kind))
        return invalid("kind must be notification, subscriptionConfirmation or unsubscribeConfirmation.");
    wanted.messageId = parameter(query, "messageId");
    for (auto [name, bound] : {std::pair{"since", &wanted.since}, std::pair{"until", &wanted.until}}) {
        const std::optional<std::string> text = parameter(query, name);
        if (!text)
            continue;
        *bound = parseIso8601(*text);
        if (!*bound)
            return invalid(std::string(name) + " must be an ISO 8601 UTC time such as 2026-01-01T00:00:00.000Z.");
    }
    if (query.hasQueryItem(QStringLiteral("limit"))) {
        bool ok = false;
        const qulonglong limit = query.queryItemValue(QStringLiteral("limit")).toULongLong(&ok);
        if (!ok || limit < 1 || limit > kMaxAttemptLimit)
            return invalid("limit must be a whole number from 1 to " + std::to_string(kMaxAttemptLimit) + ".");
        wanted.limit = static_cast<std::size_t>(limit);
    }
    return wanted;
}

// Whether the subscription or topic `wanted` names exists, or did (has rows
// in the log, which outlives them). Always for a query of every subscription.
Result<bool> knownToTheLog(Database &db, const BrokerIdentity &identity, const AttemptQuery &wanted)
{
    if (wanted.subscriptionArn) {
        if (auto ref = identity.subscriptionFromArn(*wanted.subscriptionArn)) {
            auto found = subscription_records::findByUuid(db, ref->subscriptionId);
            if (!found)
                return found.error();
            if (*found && (*found)->topicName == ref->topicName)
                return true;
        }
    } else if (wanted.topicArn) {
        if (auto name = identity.topicNameFromArn(*wanted.topicArn)) {
            auto found = topic_records::find(db, *name);
            if (!found)
                return found.error();
            if (*found)
                return true;
        }
    } else {
        return true;
    }
    AttemptQuery any;
    any.subscriptionArn = wanted.subscriptionArn;
    any.topicArn = wanted.topicArn;
    any.limit = 1;
    auto rows = attempt_log::query(db, any);
    if (!rows)
        return rows.error();
    return !rows->empty();
}

void attempts(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.method != "GET")
        return reply(methodNotAllowed(request));
    auto read = readAttemptQuery(request.query, context.identity);
    if (NativeAnswer *refused = std::get_if<NativeAnswer>(&read))
        return reply(*refused);
    const AttemptQuery wanted = std::get<AttemptQuery>(std::move(read));
    context.engine.execute<std::optional<std::vector<AttemptRecord>>>(
        [wanted, identity = context.identity](Database &db, ClockTime) -> Result<std::optional<std::vector<AttemptRecord>>> {
            Result<bool> known = knownToTheLog(db, identity, wanted);
            if (!known)
                return known.error();
            if (!*known)
                return std::optional<std::vector<AttemptRecord>>();
            auto rows = attempt_log::query(db, wanted);
            if (!rows)
                return rows.error();
            return std::optional<std::vector<AttemptRecord>>(std::move(rows).value());
        },
        context.replyContext,
        [reply, wanted](Result<std::optional<std::vector<AttemptRecord>>> result) {
            if (!result)
                return reply(NativeAnswer::failure(result.error()));
            if (!*result) {
                const bool subscription = wanted.subscriptionArn.has_value();
                return reply(NativeAnswer::failure(
                    404, "NotFound",
                    std::string(subscription ? "No subscription " : "No topic ") +
                        (subscription ? *wanted.subscriptionArn : *wanted.topicArn) +
                        " on this broker, and no attempts logged for it."));
            }
            reply(NativeAnswer{200, Json::parse(attempt_log::writeAttemptsJson(**result))});
        });
}

Json mockJson(const MockEndpointSummary &mock, const BrokerIdentity &identity)
{
    return {{"name", mock.name},
            {"script", mock.script},
            {"url", identity.endpoint + MockEndpoints::pathOf(mock.name)},
            {"requestCount", mock.requestCount}};
}

Json stepJson(const MockStep &step)
{
    const char *action = step.action == MockAction::Respond ? "respond"
                         : step.action == MockAction::Hang  ? "hang"
                                                            : "close";
    Json json = {{"action", action}, {"delayMs", step.delay.count()}};
    json["status"] = step.action == MockAction::Respond ? Json(step.status) : Json();
    return json;
}

Json requestJson(const MockRequest &received)
{
    Json headers = Json::array();
    for (const auto &[name, value] : received.headers)
        headers.push_back({{"name", name}, {"value", value}});
    return {{"method", received.method},
            {"target", received.target},
            {"headers", std::move(headers)},
            {"body", received.body},
            {"received", formatIso8601(received.received)},
            {"answer", stepJson(received.answer)}};
}

void mockRequests(const NativeRequest &request, MockEndpoints &mocks, const NativeReply &reply)
{
    const std::string &name = request.path[1];
    if (request.method == "DELETE") {
        const Status cleared = mocks.clearReceived(name);
        return reply(cleared ? NativeAnswer{} : noSuchMock(name));
    }
    if (request.method != "GET")
        return reply(methodNotAllowed(request));
    auto received = mocks.received(name);
    if (!received)
        return reply(noSuchMock(name));
    Json list = Json::array();
    for (const MockRequest &one : *received)
        list.push_back(requestJson(one));
    reply(NativeAnswer{200, {{"requests", std::move(list)}}});
}

void mock(const NativeRequest &request, const NativeContext &context, MockEndpoints &mocks, const NativeReply &reply)
{
    const std::string &name = request.path[1];
    if (request.method == "PUT") {
        const Json script = request.body.value("script", Json());
        if (!script.is_string())
            return reply(invalid("\"script\" must be a string such as \"503 x 5, then 200\"."));
        if (Status set = mocks.set(name, script.get<std::string>()); !set)
            return reply(NativeAnswer::failure(set.error()));
        return reply(NativeAnswer{200, mockJson(*mocks.find(name), context.identity)});
    }
    if (request.method == "GET") {
        const auto found = mocks.find(name);
        return reply(found ? NativeAnswer{200, mockJson(*found, context.identity)} : noSuchMock(name));
    }
    if (request.method == "DELETE")
        return reply(mocks.remove(name) ? NativeAnswer{} : noSuchMock(name));
    reply(methodNotAllowed(request));
}

bool mocks(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.path.empty() || request.path[0] != "mocks" || request.path.size() > 3 || context.mocks == nullptr)
        return false;
    if (request.path.size() == 3 && request.path[2] != "requests")
        return false;
    MockEndpoints &endpoints = *context.mocks;
    if (request.path.size() == 3) {
        mockRequests(request, endpoints, reply);
    } else if (request.path.size() == 2) {
        mock(request, context, endpoints, reply);
    } else if (request.method != "GET") {
        reply(methodNotAllowed(request));
    } else {
        Json list = Json::array();
        for (const MockEndpointSummary &one : endpoints.list())
            list.push_back(mockJson(one, context.identity));
        reply(NativeAnswer{200, {{"mocks", std::move(list)}}});
    }
    return true;
}

bool signingCertificate(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.path.size() != 1 || request.path[0] != "signing-certificate" ||
        context.signingCertificatePem == nullptr || context.signingCertificatePem->empty())
        return false;
    if (request.method != "GET")
        reply(methodNotAllowed(request));
    else
        reply(NativeAnswer{200,
                           {{"certificatePem", *context.signingCertificatePem},
                            {"url", signingCertUrl(context.identity)}}});
    return true;
}

} // namespace

bool deliveries(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.path.size() == 1 && request.path[0] == "attempts") {
        attempts(request, context, reply);
        return true;
    }
    return mocks(request, context, reply) || signingCertificate(request, context, reply);
}

} // namespace relaydesk::native_routes
