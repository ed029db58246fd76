// SPDX-License-Identifier: MIT
#include "api/servicebus/management/management_api.h"

#include "api/servicebus/management/atom_description_writer.h"
#include "api/servicebus/management/management_unit.h"
#include "broker/broker_identity.h"
#include "broker/echoed_value.h"
#include "engine/unit_context.h"
#include "http/http_request.h"

#include <QUrlQuery>

#include <algorithm>

namespace relaydesk {

namespace management {

BrokerError notFound(const std::string &entity)
{
    return BrokerError(BrokerErrorCode::QueueDoesNotExist,
                       "The messaging entity '" + echoedValue(entity) + "' could not be found.");
}

BrokerError exists(const std::string &entity)
{
    return BrokerError(BrokerErrorCode::QueueAlreadyExists, "The messaging entity '" + echoedValue(entity) + "' already exists.");
}

HttpReply errorReply(const BrokerError &error)
{
    int status = 500;
    switch (error.code) {
    case BrokerErrorCode::QueueDoesNotExist:
        status = 404;
        break;
    case BrokerErrorCode::QueueAlreadyExists:
        status = 409;
        break;
    case BrokerErrorCode::InvalidParameterValue:
        status = 400;
        break;
    default:
        break;
    }
    return managementErrorReply(status, QString::fromStdString(error.message));
}

void runUnit(const Call &call, UnitBody body)
{
    call.service->runUnit(
        [body = std::move(body)](UnitContext &unit, const BrokerIdentity &identity, IdSource &,
                                 std::vector<std::string> &wake) -> Result<std::any> {
            Result<Answer> answer = body(unit, identity, wake);
            if (!answer)
                return answer.error();
            return std::any(std::move(answer).value());
        },
        false, call.context, [reply = call.reply](Result<std::any> done) {
            if (!done)
                return reply(errorReply(done.error()));
            const auto answer = std::any_cast<Answer>(*done);
            reply(HttpReply{answer.status, answer.contentType, {}, answer.body});
        });
}

Result<Page> readPage(const QUrl &url)
{
    // Decoded first: the SDKs send "%24skip" ('$' is a delimiter QUrl keeps encoded).
    const QList<std::pair<QString, QString>> items = QUrlQuery(url).queryItems(QUrl::FullyDecoded);
    Page page;
    const std::pair<const char *, int *> fields[] = {{"$skip", &page.skip}, {"$top", &page.top}};
    for (const auto &[name, field] : fields) {
        const auto item = std::find_if(items.begin(), items.end(),
                                       [key = QLatin1String(name)](const auto &each) { return each.first == key; });
        if (item == items.end())
            continue;
        bool ok = false;
        const int value = item->second.toInt(&ok);
        const bool top = field == &page.top;
        if (!ok || value < (top ? 1 : 0) || (top && value > kMaxTop))
            return BrokerError(BrokerErrorCode::InvalidParameterValue,
                               std::string(name) + (top ? " must be a whole number from 1 to 100." : " must be a whole number, 0 or more."));
        *field = value;
    }
    return page;
}

std::optional<QString> nextPage(const QString &path, const Page &page, std::size_t total)
{
    const std::size_t end = std::size_t(page.skip) + std::size_t(page.top);
    if (end >= total)
        return std::nullopt;
    return path + QStringLiteral("?$skip=%1&$top=%2&api-version=2021-05").arg(end).arg(page.top);
}

void answerNamespace(const Call &call)
{
    runUnit(call, [base = call.base](UnitContext &unit, const BrokerIdentity &, std::vector<std::string> &) -> Result<Answer> {
        AtomDocument document(base, unit.now());
        const QString name = QUrl(base).host().section(QLatin1Char('.'), 0, 0);
        document.entry(QStringLiteral("/$namespaceinfo"), name, [&](QXmlStreamWriter &xml) {
            writeNamespaceInfo(xml, name, fromEpochMilliseconds(0));
        });
        return Answer{200, document.finish()};
    });
}

} // namespace management

namespace {

using namespace management;

// The path's parts around "Subscriptions" and "Rules" (case as the service: any).
struct Route {
    enum class Kind { Namespace, Queues, Topics, Entity, Subscriptions, Subscription, Rules, Rule, None };
    Kind kind = Kind::None;
    QString topic;          // or the entity's name
    QString subscription;
    QString rule;
};

Route routeOf(const QString &path)
{
    QString rest = path.mid(1);
    const bool listing = rest.endsWith(QLatin1Char('/'));
    while (rest.endsWith(QLatin1Char('/')))
        rest.chop(1);
    if (rest.compare(QLatin1String("$namespaceinfo"), Qt::CaseInsensitive) == 0)
        return {Route::Kind::Namespace, {}, {}, {}};
    if (rest.compare(QLatin1String("$Resources/Queues"), Qt::CaseInsensitive) == 0)
        return {Route::Kind::Queues, {}, {}, {}};
    if (rest.compare(QLatin1String("$Resources/Topics"), Qt::CaseInsensitive) == 0)
        return {Route::Kind::Topics, {}, {}, {}};
    // "/Subscriptions" as a whole segment ("a/Subscriptionsx" is a queue's name).
    qsizetype subscriptions = -1;
    for (qsizetype at = rest.indexOf(QLatin1String("/Subscriptions"), 0, Qt::CaseInsensitive); at >= 0 && subscriptions < 0;
         at = rest.indexOf(QLatin1String("/Subscriptions"), at + 1, Qt::CaseInsensitive))
        if (at + 14 == rest.size() || rest[at + 14] == QLatin1Char('/'))
            subscriptions = at;
    if (subscriptions < 0)
        return rest.isEmpty() || listing ? Route{} : Route{Route::Kind::Entity, rest, {}, {}};
    Route route;
    route.topic = rest.left(subscriptions);
    const QStringList parts = rest.mid(subscriptions + 14).split(QLatin1Char('/'));   // "", SUB, "Rules", RULE
    if (parts.size() == 1 && parts[0].isEmpty())
        route.kind = Route::Kind::Subscriptions;
    else if (parts.size() == 2 && !parts[1].isEmpty())
        route.kind = Route::Kind::Subscription;
    else if (parts.size() >= 3 && parts[2].compare(QLatin1String("Rules"), Qt::CaseInsensitive) == 0)
        route.kind = parts.size() == 3 ? Route::Kind::Rules : parts.size() == 4 ? Route::Kind::Rule : Route::Kind::None;
    if (parts.size() >= 2)
        route.subscription = parts[1];
    if (parts.size() == 4)
        route.rule = parts[3];
    if (route.topic.isEmpty() || (parts.size() >= 2 && route.subscription.isEmpty()) ||
        (route.kind == Route::Kind::Rule && route.rule.isEmpty()))
        route.kind = Route::Kind::None;
    return route;
}

bool isList(Route::Kind kind)
{
    return kind == Route::Kind::Queues || kind == Route::Kind::Topics || kind == Route::Kind::Subscriptions ||
           kind == Route::Kind::Rules || kind == Route::Kind::Namespace;
}

} // namespace

HttpReply managementErrorReply(int status, const QString &detail)
{
    const QString bounded = QString::fromStdString(cutText(detail.toStdString(), kMaxErrorMessageBytes));
    return HttpReply{status, "application/xml; charset=utf-8", {}, managementErrorBody(status, bounded)};
}

void answerManagementRequest(BrokerService &service, const HttpRequest &request, QObject *context,
                             std::function<void(HttpReply)> reply)
{
    if (request.bodyTooLarge())
        return reply(managementErrorReply(413, QStringLiteral("The request body is too large for a description.")));
    const QString path = request.url().path(QUrl::FullyDecoded);
    const Route route = routeOf(path);
    if (route.kind == Route::Kind::None)
        return reply(managementErrorReply(
            404, QStringLiteral("No management resource at '%1'.").arg(QString::fromStdString(echoedValue(path.toStdString())))));
    const QByteArray &method = request.method();
    const bool read = method == "GET";
    if (isList(route.kind) ? !read : !(read || method == "PUT" || method == "DELETE"))
        return reply(managementErrorReply(405, QStringLiteral("%1 is not allowed on '%2'.")
                                                   .arg(QString::fromStdString(echoedValue(method.toStdString())),
                                                        QString::fromStdString(echoedValue(path.toStdString())))));
    const Call call{&service, context, QStringLiteral("https://") + QString::fromUtf8(request.value("host")), std::move(reply)};
    const bool update = request.value("if-match") == "*";
    Result<Page> page = isList(route.kind) ? readPage(request.url()) : Result<Page>(Page{});
    if (!page)
        return call.reply(errorReply(page.error()));
    switch (route.kind) {
    case Route::Kind::Namespace:
        return answerNamespace(call);
    case Route::Kind::Queues:
    case Route::Kind::Topics:
        return answerEntityList(call, route.kind == Route::Kind::Topics, *page);
    case Route::Kind::Entity:
        return answerEntity(call, method, route.topic, request.body(), update);
    case Route::Kind::Subscriptions:
        return answerSubscriptionList(call, route.topic, *page);
    case Route::Kind::Subscription:
        return answerSubscription(call, method, route.topic, route.subscription, request.body(), update);
    case Route::Kind::Rules:
        return answerRuleList(call, route.topic, route.subscription, *page);
    case Route::Kind::Rule:
        return answerRule(call, method, route.topic, route.subscription, route.rule, request.body(), update);
    case Route::Kind::None:
        break;
    }
}

} // namespace relaydesk
