// SPDX-License-Identifier: MIT
// The Zaqar route files' shared means (zaqar_unit.h).
#include "api/zaqar/zaqar_unit.h"

#include "api/zaqar/zaqar_rules.h"
#include "broker/zaqar/zaqar_store.h"

#include "api/wire/action_input.h"
#include "engine/reply_target.h"
#include "json/bounded_json.h"

namespace relaydesk {

namespace zaqar {

ZaqarAnswer brokerAnswer(const BrokerError &error)
{
    const int status = error.info().httpStatus;
    if (status == 404)
        return ZaqarAnswer::notFound(error.message);
    if (status >= 400 && status < 500)
        return ZaqarAnswer::badRequest(error.message);
    return ZaqarAnswer::unavailable(error.message);
}

BrokerError badRequest(std::string description)
{
    return BrokerError(BrokerErrorCode::InvalidParameterValue, std::move(description));
}

void answerInUnit(const ZaqarContext &context, const ZaqarReply &reply, UnitBody body, bool wakesDeliveries)
{
    context.service.runUnit(
        [body = std::move(body)](UnitContext &unit, const BrokerIdentity &identity, IdSource &ids,
                                 std::vector<std::string> &wake) -> Result<std::any> {
            Result<ZaqarAnswer> answer = body(unit, identity, ids, wake);
            if (!answer)
                return answer.error();
            return std::any(std::move(answer).value());
        },
        wakesDeliveries, context.replyContext, [reply](Result<std::any> result) {
            reply(result ? std::any_cast<ZaqarAnswer>(*result) : brokerAnswer(result.error()));
        });
}

void answerOnQueue(const ZaqarContext &context, const ZaqarReply &reply, const std::string &name, QueueBody body,
                   bool wakesDeliveries)
{
    answerInUnit(
        context, reply,
        [name, body = std::move(body)](UnitContext &unit, const BrokerIdentity &identity, IdSource &ids,
                                       std::vector<std::string> &wake) -> Result<ZaqarAnswer> {
            auto queueId = zaqar_store::queueId(unit.database(), name);
            if (!queueId)
                return queueId.error();
            return body(unit, identity, ids, wake, *queueId);
        },
        wakesDeliveries);
}

void answerOnQueueAfterEmptying(const ZaqarContext &context, const ZaqarReply &reply, const std::string &name,
                                QueueBody body, bool wakesDeliveries)
{
    const ReplyTarget target(context.replyContext);
    BrokerService &service = context.service;
    service.emptyQueuesInChunks(
        [name](Database &) { return Result<std::vector<std::string>>(std::vector<std::string>{name}); },
        [&service, target, reply, name, body = std::move(body), wakesDeliveries](Status emptied) {
            const auto answer = [target, reply](ZaqarAnswer value) { target.post([reply, value] { reply(value); }); };
            if (!emptied)
                return answer(brokerAnswer(emptied.error()));
            service.runUnit(
                [name, body](UnitContext &unit, const BrokerIdentity &identity, IdSource &ids,
                             std::vector<std::string> &wake) -> Result<std::any> {
                    auto queueId = zaqar_store::queueId(unit.database(), name);
                    if (!queueId)
                        return queueId.error();
                    Result<ZaqarAnswer> value = body(unit, identity, ids, wake, *queueId);
                    if (!value)
                        return value.error();
                    return std::any(std::move(value).value());
                },
                wakesDeliveries, nullptr, [answer](Result<std::any> result) {
                    answer(result ? std::any_cast<ZaqarAnswer>(*result) : brokerAnswer(result.error()));
                });
        });
}

void reportQueueCounts(UnitContext &unit, const std::string &name)
{
    unit.reportChange({EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue, QString::fromStdString(name)});
}

std::optional<std::int64_t> pageLimit(const ZaqarRequest &request, std::optional<ZaqarAnswer> &refusal)
{
    return integerParam(request, "limit", 10, 1, kMaxPerPage, kLimitProblem, refusal);
}

bool onQueueResource(const ZaqarRequest &request, std::string_view resource)
{
    const std::vector<std::string> &path = request.path;
    return (path.size() == 3 || path.size() == 4) && path[0] == "queues" && path[2] == resource;
}

std::optional<ZaqarAnswer> queueNameRefusal(const std::string &name)
{
    if (std::optional<std::string> problem = queueNameProblem(name))
        return ZaqarAnswer::badRequest(*problem);
    return std::nullopt;
}

std::string queuePath(const std::string &name) { return "/v2/queues/" + name; }

nlohmann::json messageJson(const std::string &queueName, const std::string &id, const std::string &bodyText,
                           std::int64_t sentMs, std::optional<std::int64_t> expiresMs, const std::string &claimId,
                           std::int64_t nowMs)
{
    std::string href = queuePath(queueName) + "/messages/" + id;
    if (!claimId.empty())
        href += "?claim_id=" + claimId;
    nlohmann::json body = parseBoundedJson(bodyText);
    if (body.is_discarded())
        body = bodyText;   // a message sent over SQS: its body as a string
    const std::int64_t ttl = expiresMs ? (*expiresMs - sentMs) / 1000 : kMaxMessageTtl;
    return {{"id", id}, {"href", href}, {"ttl", ttl}, {"age", (nowMs - sentMs) / 1000}, {"body", std::move(body)}};
}

std::optional<std::int64_t> integerParam(const ZaqarRequest &request, const char *name, std::int64_t fallback,
                                         std::int64_t low, std::int64_t high, const std::string &description,
                                         std::optional<ZaqarAnswer> &refusal)
{
    const std::optional<std::string> text = request.param(name);
    if (!text)
        return fallback;
    bool ok = false;
    const qlonglong value = QString::fromStdString(*text).toLongLong(&ok);
    if (!ok || value < low || value > high) {
        refusal = ZaqarAnswer::badRequest(description);
        return std::nullopt;
    }
    return value;
}

bool flagParam(const ZaqarRequest &request, const char *name)
{
    const QString value = QString::fromStdString(request.param(name).value_or("false")).toLower();
    return value == QLatin1String("true") || value == QLatin1String("1") || value == QLatin1String("yes") ||
           value == QLatin1String("on");
}

std::optional<std::vector<std::string>> listParam(const ZaqarRequest &request, const char *name)
{
    const QString key = QString::fromLatin1(name);
    if (!request.query.hasQueryItem(key))
        return std::nullopt;
    std::vector<std::string> values;   // ?ids=a,b and ?ids=a&ids=b alike
    for (const QString &text : request.query.allQueryItemValues(key, QUrl::FullyDecoded))
        for (const QString &part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
            values.push_back(part.trimmed().toStdString());
    return values;
}

ZaqarAnswer queueNotFound(const std::string &name, const std::string &project)
{
    return ZaqarAnswer::notFound("Queue " + name + " does not exist for project " + project);
}

} // namespace zaqar

} // namespace relaydesk
