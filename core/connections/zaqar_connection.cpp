// SPDX-License-Identifier: MIT
#include "connections/zaqar_connection.h"

#include "connections/connection_http.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QUrlQuery>
#include <QUuid>

#include <memory>

namespace relaydesk {

namespace {

QString queuePath(const QString &name) { return QStringLiteral("/v2/queues/") + QString::fromUtf8(QUrl::toPercentEncoding(name)); }

// A text as the JSON it reads as (a number, an object, …), else as a string.
QJsonValue jsonOf(const QString &text)
{
    const QJsonDocument document = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + ']');
    return document.isArray() && document.array().size() == 1 ? document.array().first() : QJsonValue(text);
}

QString textOf(const QJsonValue &value)
{
    if (value.isString())
        return value.toString();
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    const QByteArray wrapped = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(wrapped.mid(1, wrapped.size() - 2));
}

MessageLine lineOf(const QJsonObject &message, const QString &state)
{
    MessageLine line;
    line.messageId = message.value(QStringLiteral("id")).toString();
    line.body = textOf(message.value(QStringLiteral("body")));
    line.state = state;
    return line;
}

// The `marker` of a listing's `next` link.
std::optional<qint64> nextMarker(const QJsonObject &answer)
{
    for (const QJsonValue link : answer.value(QStringLiteral("links")).toArray())
        if (link.toObject().value(QStringLiteral("rel")).toString() == QLatin1String("next")) {
            const QUrl href(link.toObject().value(QStringLiteral("href")).toString());
            bool ok = false;
            const qint64 marker = QUrlQuery(href).queryItemValue(QStringLiteral("marker")).toLongLong(&ok);
            if (ok)
                return marker;
        }
    return std::nullopt;
}

template <class T>
std::function<void(ConnectionResult<QJsonDocument>)> doneWith(PendingCall<T> pending, std::function<T(const QJsonDocument &)> make)
{
    return [pending, make](ConnectionResult<QJsonDocument> answer) {
        if (!answer.ok)
            return pending.fail(answer.error);
        pending.succeed(make(answer.value));
    };
}

std::function<void(ConnectionResult<QJsonDocument>)> done(PendingCall<Done> pending)
{
    return doneWith<Done>(pending, [](const QJsonDocument &) { return Done{}; });
}

} // namespace

ZaqarConnection::ZaqarConnection(Settings settings, QObject *parent)
    : BrokerConnection(parent), m_settings(std::move(settings)),
      m_clientId(QUuid::createUuid().toString(QUuid::WithoutBraces)), m_network(new QNetworkAccessManager(this))
{
}

Capability ZaqarConnection::capability(EntityKind kind, ConnectionFeature feature) const
{
    if (kind != EntityKind::ZaqarQueue)
        return Capability::no(tr("A Zaqar endpoint has queues only."));
    switch (feature) {
    case ConnectionFeature::Counts:
        return Capability::no(tr("Zaqar lists queue names only: a queue's counts are among its attributes (its stats)."));
    case ConnectionFeature::AttemptLog:
        return Capability::no(tr("Zaqar keeps no attempt log."));
    case ConnectionFeature::Mocks:
        return Capability::no(tr("Mock endpoints are Relaydesk's own."));
    case ConnectionFeature::Clock:
        return Capability::no(tr("A Zaqar service keeps the wall clock."));
    case ConnectionFeature::DeadLetters:
        return Capability::no(tr("Zaqar has no dead-letter subqueue."));
    default:
        return Capability::yes();
    }
}

void ZaqarConnection::request(const QByteArray &method, const QString &path, const QByteArray &contentType,
                              const QByteArray &body, ConnectionCall *call, Answer answer, bool retried)
{
    const bool keystone = m_settings.token.isEmpty() && !m_settings.keystone.isNull();
    if (keystone && m_keystoneToken.isEmpty())
        return requestKeystoneToken(*m_network, m_settings.keystone, m_settings.projectId, call, this,
                                    [=, this](ConnectionResult<KeystoneToken> token) {
                                        if (!token.ok)
                                            return answer(ConnectionResult<QJsonDocument>::failure(token.error));
                                        m_keystoneToken = token.value.token;
                                        m_keystoneProjectId = token.value.projectId;
                                        request(method, path, contentType, body, call, answer, true);
                                    });
    QNetworkRequest request(urlWithPath(m_settings.url, path));
    request.setRawHeader("Client-ID", m_clientId.toUtf8());
    // The project given, or else the one Keystone scoped the token to.
    if (const QString project = m_settings.projectId.isEmpty() && keystone ? m_keystoneProjectId : m_settings.projectId;
        !project.isEmpty())
        request.setRawHeader("X-Project-ID", project.toUtf8());
    if (const QString token = keystone ? m_keystoneToken : m_settings.token; !token.isEmpty())
        request.setRawHeader("X-Auth-Token", token.toUtf8());
    if (!contentType.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, contentType);
    sendHttp(*m_network, request, method, body, call, this, [=, this](ConnectionResult<HttpAnswer> reply) {
        if (!reply.ok)
            return answer(ConnectionResult<QJsonDocument>::failure(reply.error));
        const QJsonDocument document = QJsonDocument::fromJson(reply.value.body);
        const int status = reply.value.status;
        if (status == 401 && keystone && !retried) {   // the token expired: another
            m_keystoneToken.clear();
            return this->request(method, path, contentType, body, call, answer, true);
        }
        if (status >= 300) {
            const QJsonObject error = document.object();
            if (!error.contains(QStringLiteral("title")))
                return answer(ConnectionResult<QJsonDocument>::failure(
                    {QStringLiteral("HTTP"), QString::number(status), QString::fromUtf8(reply.value.body.left(300)), status}));
            return answer(ConnectionResult<QJsonDocument>::failure({QStringLiteral("Zaqar"),
                                                                    error.value(QStringLiteral("title")).toString(),
                                                                    error.value(QStringLiteral("description")).toString(),
                                                                    status}));
        }
        answer(ConnectionResult<QJsonDocument>::success(document));
    });
}

ConnectionCall *ZaqarConnection::refuseOther(const EntityRef &entity, ConnectionFeature feature, Reply<Done> reply)
{
    return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, feature).reason));
}

ConnectionCall *ZaqarConnection::listEntities(EntityKind kind, const QString &, Reply<std::vector<EntitySummary>> reply)
{
    if (kind != EntityKind::ZaqarQueue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(kind, ConnectionFeature::List).reason));
    ConnectionCall *call = newCall();
    listPage(QStringLiteral("/v2/queues?limit=20"), std::make_shared<std::vector<EntitySummary>>(), {call, std::move(reply)});
    return call;
}

void ZaqarConnection::listPage(const QString &path, std::shared_ptr<std::vector<EntitySummary>> found,
                               PendingCall<std::vector<EntitySummary>> pending)
{
    request("GET", path, {}, {}, pending.call(), [this, found, pending](ConnectionResult<QJsonDocument> answer) {
        if (!answer.ok)
            return pending.fail(answer.error);
        const QJsonArray queues = answer.value.object().value(QStringLiteral("queues")).toArray();
        for (const QJsonValue queue : queues) {
            const QString name = queue.toObject().value(QStringLiteral("name")).toString();
            found->push_back({{EntityKind::ZaqarQueue, name, name, {}}, {}, {}, {}});
        }
        QString next;
        for (const QJsonValue link : answer.value.object().value(QStringLiteral("links")).toArray())
            if (link.toObject().value(QStringLiteral("rel")).toString() == QLatin1String("next"))
                next = link.toObject().value(QStringLiteral("href")).toString();
        pending.call()->report(static_cast<qint64>(found->size()), queues.isEmpty() ? static_cast<qint64>(found->size()) : -1);
        if (queues.isEmpty() || next.isEmpty())
            return pending.succeed(std::move(*found));
        listPage(next, found, pending);
    });
}

ConnectionCall *ZaqarConnection::attributes(const EntityRef &entity, Reply<EntityAttributes> reply)
{
    ConnectionCall *call = newCall();
    const PendingCall<EntityAttributes> pending(call, std::move(reply));
    request("GET", queuePath(entity.name), {}, {}, call, [this, entity, pending](ConnectionResult<QJsonDocument> metadata) {
        if (!metadata.ok)
            return pending.fail(metadata.error);
        request("GET", queuePath(entity.name) + QStringLiteral("/stats"), {}, {}, pending.call(),
                [metadata = metadata.value.object(), pending](ConnectionResult<QJsonDocument> stats) {
                    if (!stats.ok)
                        return pending.fail(stats.error);
                    EntityAttributes attributes;
                    for (auto member = metadata.constBegin(); member != metadata.constEnd(); ++member)
                        attributes.insert(member.key(), textOf(member.value()));
                    const QJsonObject messages = stats.value.object().value(QStringLiteral("messages")).toObject();
                    for (const char *count : {"free", "claimed", "total"})
                        attributes.insert(QStringLiteral("messages.") + QLatin1String(count),
                                          textOf(messages.value(QLatin1String(count))));
                    pending.succeed(attributes);
                });
    });
    return call;
}

ConnectionCall *ZaqarConnection::setAttributes(const EntityRef &entity, const EntityAttributes &changes, Reply<Done> reply)
{
    QJsonArray patch;
    for (auto change = changes.constBegin(); change != changes.constEnd(); ++change)
        patch.append(QJsonObject{{QStringLiteral("op"), QStringLiteral("replace")},
                                 {QStringLiteral("path"), QStringLiteral("/metadata/") + change.key()},
                                 {QStringLiteral("value"), jsonOf(change.value())}});
    ConnectionCall *call = newCall();
    request("PATCH", queuePath(entity.name), "application/openstack-messaging-v2.0-json-patch",
            QJsonDocument(patch).toJson(QJsonDocument::Compact), call, done({call, std::move(reply)}));
    return call;
}

ConnectionCall *ZaqarConnection::createEntity(EntityKind kind, const QString &name, const QString &,
                                              const EntityAttributes &attributes, Reply<EntityRef> reply)
{
    if (kind != EntityKind::ZaqarQueue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(kind, ConnectionFeature::Create).reason));
    QJsonObject metadata;
    for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute)
        metadata.insert(attribute.key(), jsonOf(attribute.value()));
    ConnectionCall *call = newCall();
    request("PUT", queuePath(name), "application/json", QJsonDocument(metadata).toJson(QJsonDocument::Compact), call,
            doneWith<EntityRef>({call, std::move(reply)}, [name](const QJsonDocument &) {
                return EntityRef{EntityKind::ZaqarQueue, name, name, {}};
            }));
    return call;
}

ConnectionCall *ZaqarConnection::deleteEntity(const EntityRef &entity, Reply<Done> reply)
{
    if (entity.kind != EntityKind::ZaqarQueue)
        return refuseOther(entity, ConnectionFeature::Delete, std::move(reply));
    ConnectionCall *call = newCall();
    request("DELETE", queuePath(entity.name), {}, {}, call, done({call, std::move(reply)}));
    return call;
}

ConnectionCall *ZaqarConnection::purge(const EntityRef &entity, Reply<Done> reply)
{
    if (entity.kind != EntityKind::ZaqarQueue)
        return refuseOther(entity, ConnectionFeature::Purge, std::move(reply));
    ConnectionCall *call = newCall();
    request("POST", queuePath(entity.name) + QStringLiteral("/purge"), "application/json",
            R"({"resource_types": ["messages"]})", call, done({call, std::move(reply)}));
    return call;
}

ConnectionCall *ZaqarConnection::send(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply)
{
    if (entity.kind != EntityKind::ZaqarQueue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Send).reason));
    QJsonObject posted{{QStringLiteral("body"), jsonOf(message.body)}};
    if (message.delaySeconds)
        posted.insert(QStringLiteral("delay"), *message.delaySeconds);
    const QJsonObject body{{QStringLiteral("messages"), QJsonArray{posted}}};
    ConnectionCall *call = newCall();
    request("POST", queuePath(entity.name) + QStringLiteral("/messages"), "application/json",
            QJsonDocument(body).toJson(QJsonDocument::Compact), call,
            doneWith<QString>({call, std::move(reply)}, [](const QJsonDocument &answer) {
                const QString href = answer.object().value(QStringLiteral("resources")).toArray().first().toString();
                return href.section(QLatin1Char('/'), -1);
            }));
    return call;
}

ConnectionCall *ZaqarConnection::peek(const EntityRef &entity, const PeekRequest &request, Reply<MessagePage> reply)
{
    if (entity.kind != EntityKind::ZaqarQueue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Peek).reason));
    QString path = queuePath(entity.name) + QStringLiteral("/messages?echo=true&include_claimed=true&limit=%1")
                                                .arg(std::clamp(request.count, 1, 20));
    if (request.after)
        path += QStringLiteral("&marker=%1").arg(*request.after);
    ConnectionCall *call = newCall();
    this->request("GET", path, {}, {}, call, doneWith<MessagePage>({call, std::move(reply)}, [](const QJsonDocument &answer) {
        MessagePage page;
        const QJsonArray messages = answer.object().value(QStringLiteral("messages")).toArray();
        for (const QJsonValue message : messages)
            page.messages.push_back(lineOf(message.toObject(), QString()));
        if (!messages.isEmpty())
            page.next = nextMarker(answer.object());
        return page;
    }));
    return call;
}

ConnectionCall *ZaqarConnection::poll(const EntityRef &entity, const PollRequest &request, Reply<std::vector<MessageLine>> reply)
{
    if (entity.kind != EntityKind::ZaqarQueue)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::Poll).reason));
    const QJsonObject claim{{QStringLiteral("ttl"), std::max(request.visibilitySeconds, 60)}, {QStringLiteral("grace"), 60}};
    ConnectionCall *call = newCall();
    this->request("POST", queuePath(entity.name) + QStringLiteral("/claims?limit=%1").arg(std::clamp(request.count, 1, 20)),
                  "application/json", QJsonDocument(claim).toJson(QJsonDocument::Compact), call,
                  doneWith<std::vector<MessageLine>>({call, std::move(reply)}, [](const QJsonDocument &answer) {
                      std::vector<MessageLine> lines;   // 204 (nothing to claim) reads as no document
                      for (const QJsonValue message : answer.object().value(QStringLiteral("messages")).toArray()) {
                          MessageLine line = lineOf(message.toObject(), QStringLiteral("received"));
                          line.receiptHandle = message.toObject().value(QStringLiteral("href")).toString();
                          lines.push_back(std::move(line));
                      }
                      return lines;
                  }));
    return call;
}

ConnectionCall *ZaqarConnection::settle(const EntityRef &entity, const MessageLine &message, Reply<Done> reply)
{
    if (entity.kind != EntityKind::ZaqarQueue)
        return refuseOther(entity, ConnectionFeature::Settle, std::move(reply));
    if (!message.receiptHandle.startsWith(QStringLiteral("/v2/")))
        return refuse(std::move(reply), ConnectionError::unsupported(tr("Only a claimed (polled) message can be deleted.")));
    ConnectionCall *call = newCall();
    request("DELETE", message.receiptHandle, {}, {}, call, done({call, std::move(reply)}));
    return call;
}

} // namespace relaydesk
