// SPDX-License-Identifier: MIT
// Native API: the attempt log (docs/behaviour.md §4.4; the window's Deliveries page).
//
//   GET  /attempts[?subscriptionArn=ARN | ?topicArn=ARN][&kind=K][&messageId=ID][&outcome=O][&phase=P]
//                 [&statusClass=C][&since=ISO][&until=ISO][&afterId=N][&beforeId=N][&order=oldest|newest]
//                 [&limit=N][&format=json|csv]
//        → without format: one page, {"attempts": [...], "more": bool} (attempt_log::writeAttemptsJson
//          plus "more"); limit 1–10 000, default 1 000; order oldest (default) or newest first;
//          afterId/beforeId keep rows with a greater/smaller id (keyset paging: the next page of an
//          oldest-first read is afterId = the last row's "id").
//          with format: every matching row (limit ignored) as an export:
//          csv → text/csv (attempt_export::writeCsv), json → {"attempts": [...]}
//   GET  /attempts/timeline?subscriptionArn=ARN&messageId=ID
//        → every delivery of the message to the subscription against the policy's plan
//          (message_timeline::writeJson; BrokerService::messageTimeline)
//   POST /attempts/redeliver {"subscriptionArn": ARN, "messageId": ID}
//        → {"subscriptionArn", "messageId", "redelivery", "due"} (BrokerService::redeliver)
// Errors: InvalidParameterValue (400) for a bad limit, since, until, kind,
// outcome, phase, statusClass, afterId, beforeId, order, format, a malformed
// ARN or both ARNs; an ARN that names no subscription/topic and has no
// logged attempts is NotFound (404). Timeline: InvalidParameterValue (400)
// without both parameters or for a malformed ARN, NotFound (404) when the log
// has no attempt of the message to the subscription. Redeliver: the
// service's errors (NotFound 404, DeliveryInProgress 409, InvalidParameter 400).
#include "api/native/native_api.h"

#include "broker/deliveries/attempt_export.h"
#include "broker/deliveries/attempt_log.h"
#include "broker/deliveries/message_timeline.h"
#include "broker/echoed_value.h"
#include "broker/topics/subscription_records.h"
#include "broker/topics/topic_records.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"

#include <QObject>

#include <algorithm>

#include <variant>

namespace relaydesk::native_routes {

namespace {

using Json = nlohmann::json;

constexpr std::size_t kMaxAttemptLimit = 10000;

// A query parameter, decoded; nothing when absent.
std::optional<std::string> parameter(const QUrlQuery &query, const char *name)
{
    const QString key = QString::fromLatin1(name);
    if (!query.hasQueryItem(key))
        return std::nullopt;
    return query.queryItemValue(key, QUrl::FullyDecoded).toStdString();
}

// A whole-number parameter in [low, high]; false when present and not one.
bool wholeNumber(const QUrlQuery &query, const char *name, std::uint64_t low, std::uint64_t high,
                 std::optional<std::uint64_t> &out)
{
    const QString key = QString::fromLatin1(name);
    if (!query.hasQueryItem(key))
        return true;
    // Digits only: QString's conversion would also take " 5" or "+5".
    const QString text = query.queryItemValue(key, QUrl::FullyDecoded);
    bool ok = !text.isEmpty() && std::all_of(text.begin(), text.end(), [](QChar c) { return c >= u'0' && c <= u'9'; });
    const qulonglong value = ok ? text.toULongLong(&ok) : 0;
    if (!ok || value < low || value > high)
        return false;
    out = value;
    return true;
}

// What GET /attempts asks for: the query and, for an export, its format.
struct AttemptRequest {
    AttemptQuery query;
    std::optional<AttemptExportFormat> format;
};

// The ARN parameters; the 400 answer when one is wrong.
std::optional<NativeAnswer> readArns(const QUrlQuery &query, const BrokerIdentity &identity, AttemptQuery &wanted)
{
    wanted.subscriptionArn = parameter(query, "subscriptionArn");
    wanted.topicArn = parameter(query, "topicArn");
    if (wanted.subscriptionArn && wanted.topicArn)
        return NativeAnswer::invalid("Give subscriptionArn or topicArn, not both (neither: every subscription).");
    if (wanted.subscriptionArn) {
        if (auto ref = identity.subscriptionFromArn(*wanted.subscriptionArn);
            !ref && ref.error().code == BrokerErrorCode::SnsInvalidParameter)
            return NativeAnswer::invalid("subscriptionArn must be a subscription ARN such as " +
                           identity.subscriptionArn("events", "6f1b2c3d-0000-4000-8000-000000000000") + ".");
    }
    if (wanted.topicArn) {
        if (auto name = identity.topicNameFromArn(*wanted.topicArn);
            !name && name.error().code == BrokerErrorCode::SnsInvalidParameter)
            return NativeAnswer::invalid("topicArn must be a topic ARN such as " + identity.topicArn("events") + ".");
    }
    return std::nullopt;
}

// The filters named by a closed list of values; the 400 answer when one is wrong.
std::optional<NativeAnswer> readFilters(const QUrlQuery &query, AttemptQuery &wanted)
{
    struct Filter {
        const char *name;
        std::optional<std::string> AttemptQuery::*field;
        bool (*known)(std::string_view);
        const char *values;
    };
    static const Filter filters[] = {
        {"kind", &AttemptQuery::kind, attempt_log::isAttemptKind,
         "notification, subscriptionConfirmation or unsubscribeConfirmation"},
        {"outcome", &AttemptQuery::outcome, attempt_log::isAttemptOutcome,
         "delivered, retryable, permanent, timeout, connectionError or throttled-wait"},
        {"phase", &AttemptQuery::phase, attempt_log::isAttemptPhase,
         "initial, immediate, preBackoff, backoff or postBackoff"},
        {"statusClass", &AttemptQuery::statusClass, attempt_log::isStatusClass, "2xx, 3xx, 4xx, 5xx or none"},
    };
    for (const Filter &filter : filters) {
        wanted.*filter.field = parameter(query, filter.name);
        if (wanted.*filter.field && !filter.known(*(wanted.*filter.field)))
            return NativeAnswer::invalid(std::string(filter.name) + " must be " + filter.values + ".");
    }
    wanted.messageId = parameter(query, "messageId");
    for (auto [name, bound] : {std::pair{"since", &wanted.since}, std::pair{"until", &wanted.until}}) {
        const std::optional<std::string> text = parameter(query, name);
        if (!text)
            continue;
        *bound = parseIso8601(*text);
        if (!*bound)
            return NativeAnswer::invalid(std::string(name) + " must be an ISO 8601 UTC time such as 2026-01-01T00:00:00.000Z.");
    }
    return std::nullopt;
}

// Reads the query of GET /attempts; the 400 answer when a value is wrong.
std::variant<AttemptRequest, NativeAnswer> readAttemptRequest(const QUrlQuery &query, const BrokerIdentity &identity)
{
    AttemptRequest request;
    AttemptQuery &wanted = request.query;
    if (std::optional<NativeAnswer> refused = readArns(query, identity, wanted))
        return *refused;
    if (std::optional<NativeAnswer> refused = readFilters(query, wanted))
        return *refused;
    for (auto [name, bound] : {std::pair{"afterId", &wanted.afterId}, std::pair{"beforeId", &wanted.beforeId}}) {
        std::optional<std::uint64_t> id;
        if (!wholeNumber(query, name, 0, std::uint64_t(INT64_MAX), id))
            return NativeAnswer::invalid(std::string(name) + " must be a row id (a whole number, the \"id\" of an attempt).");
        if (id)
            *bound = static_cast<std::int64_t>(*id);
    }
    if (const std::optional<std::string> order = parameter(query, "order")) {
        if (*order != "oldest" && *order != "newest")
            return NativeAnswer::invalid("order must be oldest or newest.");
        wanted.order = *order == "newest" ? AttemptOrder::NewestFirst : AttemptOrder::OldestFirst;
    }
    std::optional<std::uint64_t> limit;
    if (!wholeNumber(query, "limit", 1, kMaxAttemptLimit, limit))
        return NativeAnswer::invalid("limit must be a whole number from 1 to " + std::to_string(kMaxAttemptLimit) + ".");
    if (const std::optional<std::string> format = parameter(query, "format")) {
        request.format = attempt_export::formatNamed(*format);
        if (!request.format)
            return NativeAnswer::invalid("format must be csv or json.");
    }
    if (limit)
        wanted.limit = static_cast<std::size_t>(*limit);   // an export ignores it: every matching row
    return request;
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

NativeAnswer unknownArn(const AttemptQuery &wanted)
{
    const bool subscription = wanted.subscriptionArn.has_value();
    return NativeAnswer::failure(404, "NotFound",
                                 std::string(subscription ? "No subscription " : "No topic ") +
                                     echoedValue(subscription ? *wanted.subscriptionArn : *wanted.topicArn) +
                                     " on this broker, and no attempts logged for it.");
}

// Answers `found` unless the query came back empty for an ARN this broker
// never knew (then 404).
void answerUnlessUnknown(const NativeContext &context, const AttemptQuery &wanted, bool empty, NativeAnswer found,
                         const NativeReply &reply)
{
    if (!empty || (!wanted.subscriptionArn && !wanted.topicArn))
        return reply(std::move(found));
    context.engine.execute<bool>(
        [wanted, identity = context.identity](Database &db, ClockTime) { return knownToTheLog(db, identity, wanted); },
        context.replyContext, [reply, wanted, found = std::move(found)](Result<bool> known) {
            if (!known)
                return reply(NativeAnswer::failure(known.error()));
            reply(*known ? found : unknownArn(wanted));
        });
}

void attemptPage(const NativeContext &context, const AttemptQuery &wanted, const NativeReply &reply)
{
    context.service.queryAttempts(wanted, context.replyContext,
                                  [context, wanted, reply](Result<AttemptPage> page) {
                                      if (!page)
                                          return reply(NativeAnswer::failure(page.error()));
                                      Json body = Json::parse(attempt_log::writeAttemptsJson(page->rows));
                                      body["more"] = page->more;
                                      answerUnlessUnknown(context, wanted, page->rows.empty(),
                                                          NativeAnswer{200, std::move(body)}, reply);
                                  });
}

void attemptExport(const NativeContext &context, const AttemptQuery &wanted, AttemptExportFormat format,
                   const NativeReply &reply)
{
    context.service.exportAttempts(
        wanted, format, context.replyContext, [context, wanted, format, reply](Result<std::string> text) {
            if (!text)
                return reply(NativeAnswer::failure(text.error()));
            NativeAnswer answer;
            answer.rawBody = std::move(text).value();
            answer.rawContentType = std::string(attempt_export::contentTypeOf(format));
            const bool empty = *answer.rawBody == attempt_export::write({}, format);
            answerUnlessUnknown(context, wanted, empty, std::move(answer), reply);
        });
}

// The service's SnsNotFound reads as /attempts' own 404 NotFound.
NativeAnswer failureOf(const BrokerError &error)
{
    if (error.code == BrokerErrorCode::SnsNotFound)
        return NativeAnswer::failure(404, "NotFound", error.message);
    return NativeAnswer::failure(error);
}

void timeline(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.method != "GET")
        return reply(methodNotAllowed(request));
    const std::optional<std::string> arn = parameter(request.query, "subscriptionArn");
    const std::optional<std::string> message = parameter(request.query, "messageId");
    if (!arn || !message || message->empty())
        return reply(NativeAnswer::invalid("Give subscriptionArn=ARN and messageId=ID (a message the attempt log has entries of)."));
    if (auto ref = context.identity.subscriptionFromArn(*arn);
        !ref && ref.error().code == BrokerErrorCode::SnsInvalidParameter)
        return reply(NativeAnswer::invalid("subscriptionArn must be a subscription ARN such as " +
                             context.identity.subscriptionArn("events", "6f1b2c3d-0000-4000-8000-000000000000") + "."));
    context.service.messageTimeline(*arn, *message, context.replyContext, [reply](Result<MessageTimeline> found) {
        if (!found)
            return reply(failureOf(found.error()));
        reply(NativeAnswer{200, Json::parse(message_timeline::writeJson(*found))});
    });
}

void redeliver(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.method != "POST")
        return reply(methodNotAllowed(request));
    const Json arn = request.body.value("subscriptionArn", Json());
    const Json message = request.body.value("messageId", Json());
    if (!arn.is_string() || !message.is_string())
        return reply(NativeAnswer::invalid("The body must be {\"subscriptionArn\": ARN, \"messageId\": ID}."));
    context.service.redeliver(
        arn.get<std::string>(), message.get<std::string>(), context.replyContext, [reply](Result<Redelivery> started) {
            if (!started)
                return reply(failureOf(started.error()));
            reply(NativeAnswer{200,
                               {{"subscriptionArn", started->subscriptionArn},
                                {"messageId", started->messageId},
                                {"redelivery", started->redelivery},
                                {"due", formatIso8601(started->due)}}});
        });
}

} // namespace

bool attempts(const NativeRequest &request, const NativeContext &context, const NativeReply &reply)
{
    if (request.path.empty() || request.path[0] != "attempts" || request.path.size() > 2)
        return false;
    if (request.path.size() == 2) {
        if (request.path[1] == "redeliver")
            redeliver(request, context, reply);
        else if (request.path[1] == "timeline")
            timeline(request, context, reply);
        else
            return false;
        return true;
    }
    if (request.method != "GET") {
        reply(methodNotAllowed(request));
        return true;
    }
    auto read = readAttemptRequest(request.query, context.identity);
    if (NativeAnswer *refused = std::get_if<NativeAnswer>(&read)) {
        reply(*refused);
        return true;
    }
    const AttemptRequest wanted = std::get<AttemptRequest>(std::move(read));
    if (wanted.format)
        attemptExport(context, wanted.query, *wanted.format, reply);
    else
        attemptPage(context, wanted.query, reply);
    return true;
}

} // namespace relaydesk::native_routes
