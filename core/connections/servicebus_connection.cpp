// SPDX-License-Identifier: MIT
#include "connections/servicebus_connection.h"

#include "api/wire/shared_access_signature.h"
#include "connections/connection_http.h"
#include "connections/servicebus_amqp_client.h"   // complete for m_amqp

#include <QDateTime>
#include <QNetworkAccessManager>
#include <QUrlQuery>

#include <memory>

namespace relaydesk {

namespace {

constexpr char kApiVersion[] = "api-version=2021-05";

QString encoded(const QString &name) { return QString::fromUtf8(QUrl::toPercentEncoding(name)); }

QString descriptionName(EntityKind kind)
{
    switch (kind) {
    case EntityKind::ServiceBusTopic:
        return QStringLiteral("TopicDescription");
    case EntityKind::ServiceBusSubscription:
        return QStringLiteral("SubscriptionDescription");
    default:
        return QStringLiteral("QueueDescription");
    }
}

// The description inside an ATOM entry (<content><XDescription>), or null.
const XmlNode *descriptionOf(const XmlNode &entry)
{
    const XmlNode *content = entry.find(QStringLiteral("content"));
    return content && !content->children.empty() ? &content->children.front() : nullptr;
}

// An ATOM entry whose content is the kind's description holding `elements` (XML text).
QByteArray entryOf(EntityKind kind, const QString &elements)
{
    return QStringLiteral("<entry xmlns=\"http://www.w3.org/2005/Atom\"><content type=\"application/xml\">"
                          "<%1 xmlns=\"http://schemas.microsoft.com/netservices/2010/10/servicebus/connect\" "
                          "xmlns:i=\"http://www.w3.org/2001/XMLSchema-instance\">%2</%1></content></entry>")
        .arg(descriptionName(kind), elements)
        .toUtf8();
}

QString elementOf(const QString &name, const QString &value)
{
    return QStringLiteral("<%1>%2</%1>").arg(name, value.toHtmlEscaped());
}

std::optional<qint64> countOf(const XmlNode &description, const QString &name)
{
    const XmlNode *node = description.find(name);
    bool ok = false;
    const qint64 count = node ? node->text.toLongLong(&ok) : 0;
    return ok ? std::optional(count) : std::nullopt;
}

} // namespace

ServiceBusConnection::ServiceBusConnection(Settings settings, QObject *parent)
    : BrokerConnection(parent), m_settings(std::move(settings)),
      m_string(readServiceBusConnectionString(m_settings.connectionString)),
      m_management(m_settings.managementUrl.isEmpty() ? m_string.managementUrl() : m_settings.managementUrl),
      m_network(new QNetworkAccessManager(this))
{
}

std::vector<EntityKind> ServiceBusConnection::entityKinds() const
{
    return {EntityKind::ServiceBusQueue, EntityKind::ServiceBusTopic, EntityKind::ServiceBusSubscription};
}

Capability ServiceBusConnection::capability(EntityKind kind, ConnectionFeature feature) const
{
    const std::vector<EntityKind> kinds = entityKinds();
    if (std::find(kinds.begin(), kinds.end(), kind) == kinds.end())
        return Capability::no(tr("A Service Bus namespace has queues, topics and subscriptions."));
    switch (feature) {
    case ConnectionFeature::List:
    case ConnectionFeature::Attributes:
    case ConnectionFeature::Create:
    case ConnectionFeature::Delete:
        return Capability::yes();
    case ConnectionFeature::Counts:
        return kind == EntityKind::ServiceBusTopic ? Capability::no(tr("A topic's messages are its subscriptions'."))
                                                   : Capability::yes();
    case ConnectionFeature::AttemptLog:
        return Capability::no(tr("Service Bus keeps no attempt log."));
    case ConnectionFeature::Mocks:
        return Capability::no(tr("Mock endpoints are Relaydesk's own."));
    case ConnectionFeature::Clock:
        return Capability::no(tr("A Service Bus namespace keeps the wall clock."));
    case ConnectionFeature::Send:
        return kind == EntityKind::ServiceBusSubscription ? Capability::no(tr("Send to the subscription's topic."))
                                                          : Capability::yes();
    case ConnectionFeature::Purge:
    case ConnectionFeature::Peek:
    case ConnectionFeature::Poll:
    case ConnectionFeature::Settle:
    case ConnectionFeature::DeadLetters:
        return kind == EntityKind::ServiceBusTopic ? Capability::no(tr("A topic's messages are its subscriptions'."))
                                                   : Capability::yes();
    }
    return Capability::no({});
}

template <class T>
ConnectionCall *ServiceBusConnection::notYet(EntityKind kind, ConnectionFeature feature, Reply<T> reply)
{
    return refuse(std::move(reply), ConnectionError::unsupported(capability(kind, feature).reason));
}

QString ServiceBusConnection::authorization() const
{
    QUrl base = m_management;
    base.setPath(QStringLiteral("/"));
    const QString resource = QString::fromUtf8(QUrl::toPercentEncoding(base.toString()));
    const QString expiry = QString::number(QDateTime::currentSecsSinceEpoch() + 3600);
    const std::string signature =
        SharedAccessSignatureCheck::sign(m_string.key.toStdString(), resource.toStdString(), expiry.toStdString());
    return QStringLiteral("SharedAccessSignature sr=%1&sig=%2&se=%3&skn=%4")
        .arg(resource, QString::fromUtf8(QUrl::toPercentEncoding(QString::fromStdString(signature))), expiry,
             encoded(m_string.keyName));
}

void ServiceBusConnection::request(const QByteArray &method, const QString &pathAndQuery, const QByteArray &body,
                                   ConnectionCall *call, Answer answer, bool update)
{
    QNetworkRequest request(urlWithPath(m_management, pathAndQuery, QString::fromLatin1(kApiVersion)));
    request.setRawHeader("Authorization", authorization().toUtf8());
    if (update)
        request.setRawHeader("If-Match", "*");
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/atom+xml;type=entry;charset=utf-8"));
    sendHttp(*m_network, request, method, body, call, this, [answer](ConnectionResult<HttpAnswer> reply) {
        if (!reply.ok)
            return answer(ConnectionResult<XmlNode>::failure(reply.error));
        bool ok = false;
        XmlNode root = readXml(reply.value.body, &ok);
        const int status = reply.value.status;
        if (status >= 300) {
            if (!ok || root.name != QLatin1String("Error"))
                return answer(ConnectionResult<XmlNode>::failure(
                    {QStringLiteral("HTTP"), QString::number(status), QString::fromUtf8(reply.value.body.left(300)), status}));
            return answer(ConnectionResult<XmlNode>::failure({QStringLiteral("Service Bus"), root.textOf(QStringLiteral("Code")),
                                                              root.textOf(QStringLiteral("Detail")), status}));
        }
        answer(ConnectionResult<XmlNode>::success(ok ? std::move(root) : XmlNode{}));
    });
}

ConnectionCall *ServiceBusConnection::listEntities(EntityKind kind, const QString &parent, Reply<std::vector<EntitySummary>> reply)
{
    if (!m_string.error.isEmpty())
        return refuse(std::move(reply), {QStringLiteral("connection"), QStringLiteral("ConnectionString"), m_string.error, 0});
    QString path;
    if (kind == EntityKind::ServiceBusQueue)
        path = QStringLiteral("/$Resources/Queues");
    else if (kind == EntityKind::ServiceBusTopic)
        path = QStringLiteral("/$Resources/Topics");
    else if (kind == EntityKind::ServiceBusSubscription)
        path = QLatin1Char('/') + encoded(parent) + QStringLiteral("/Subscriptions");
    else
        return notYet(kind, ConnectionFeature::List, std::move(reply));
    ConnectionCall *call = newCall();
    listPage(kind, parent, path + QStringLiteral("?$top=100&") + QLatin1String(kApiVersion),
             std::make_shared<std::vector<EntitySummary>>(), {call, std::move(reply)});
    return call;
}

void ServiceBusConnection::listPage(EntityKind kind, const QString &parent, const QString &pathAndQuery,
                                    std::shared_ptr<std::vector<EntitySummary>> found,
                                    PendingCall<std::vector<EntitySummary>> pending)
{
    request("GET", pathAndQuery, {}, pending.call(), [this, kind, parent, found, pending](ConnectionResult<XmlNode> feed) {
        if (!feed.ok)
            return pending.fail(feed.error);
        for (const XmlNode *entry : feed.value.all(QStringLiteral("entry"))) {
            const QString name = entry->textOf(QStringLiteral("title"));
            const QString address = kind == EntityKind::ServiceBusSubscription
                                        ? QLatin1Char('/') + encoded(parent) + QStringLiteral("/Subscriptions/") + encoded(name)
                                        : QLatin1Char('/') + encoded(name);
            EntitySummary summary{{kind, name, address, parent}, {}, {}, {}};
            if (const XmlNode *description = descriptionOf(*entry); description && kind != EntityKind::ServiceBusTopic) {
                summary.available = countOf(*description, QStringLiteral("ActiveMessageCount"));
                summary.delayed = countOf(*description, QStringLiteral("ScheduledMessageCount"));
            }
            found->push_back(std::move(summary));
        }
        QString next;
        for (const XmlNode &child : feed.value.children)
            if (child.name == QLatin1String("link") && child.attributes.value(QStringLiteral("rel")) == QLatin1String("next"))
                next = child.attributes.value(QStringLiteral("href"));
        pending.call()->report(static_cast<qint64>(found->size()), next.isEmpty() ? static_cast<qint64>(found->size()) : -1);
        if (next.isEmpty())
            return pending.succeed(std::move(*found));
        const QUrl nextUrl(next);
        listPage(kind, parent, nextUrl.path(QUrl::FullyEncoded) + QLatin1Char('?') + nextUrl.query(QUrl::FullyEncoded), found,
                 pending);
    });
}

ConnectionCall *ServiceBusConnection::attributes(const EntityRef &entity, Reply<EntityAttributes> reply)
{
    ConnectionCall *call = newCall();
    const PendingCall<EntityAttributes> pending(call, std::move(reply));
    request("GET", entity.address, {}, call, [pending](ConnectionResult<XmlNode> entry) {
        if (!entry.ok)
            return pending.fail(entry.error);
        EntityAttributes attributes;
        if (const XmlNode *description = descriptionOf(entry.value))
            for (const XmlNode &element : description->children) {
                if (element.children.empty())
                    attributes.insert(element.name, element.text);
                else if (element.name == QLatin1String("CountDetails"))
                    for (const XmlNode &count : element.children)
                        attributes.insert(count.name, count.text);
            }
        pending.succeed(attributes);
    });
    return call;
}

ConnectionCall *ServiceBusConnection::createEntity(EntityKind kind, const QString &name, const QString &parent,
                                                   const EntityAttributes &attributes, Reply<EntityRef> reply)
{
    if (kind != EntityKind::ServiceBusQueue && kind != EntityKind::ServiceBusTopic && kind != EntityKind::ServiceBusSubscription)
        return notYet(kind, ConnectionFeature::Create, std::move(reply));
    QString elements;
    for (auto attribute = attributes.constBegin(); attribute != attributes.constEnd(); ++attribute)
        elements += elementOf(attribute.key(), attribute.value());
    const QString address = kind == EntityKind::ServiceBusSubscription
                                ? QLatin1Char('/') + encoded(parent) + QStringLiteral("/Subscriptions/") + encoded(name)
                                : QLatin1Char('/') + encoded(name);
    ConnectionCall *call = newCall();
    const PendingCall<EntityRef> pending(call, std::move(reply));
    request("PUT", address, entryOf(kind, elements), call, [pending, kind, name, address, parent](ConnectionResult<XmlNode> entry) {
        if (!entry.ok)
            return pending.fail(entry.error);
        pending.succeed({kind, name, address, parent});
    });
    return call;
}

ConnectionCall *ServiceBusConnection::deleteEntity(const EntityRef &entity, Reply<Done> reply)
{
    ConnectionCall *call = newCall();
    const PendingCall<Done> pending(call, std::move(reply));
    request("DELETE", entity.address, {}, call, [pending](ConnectionResult<XmlNode> answer) {
        if (!answer.ok)
            return pending.fail(answer.error);
        pending.succeed({});
    });
    return call;
}

// An update sends the whole description back (If-Match: *), as
// ServiceBusAdministrationClient does: the one read now, its set elements
// in their order with the changes in place, the new ones after them.
ConnectionCall *ServiceBusConnection::setAttributes(const EntityRef &entity, const EntityAttributes &changes, Reply<Done> reply)
{
    ConnectionCall *call = newCall();
    const PendingCall<Done> pending(call, std::move(reply));
    request("GET", entity.address, {}, call, [this, entity, changes, pending](ConnectionResult<XmlNode> entry) {
        if (!entry.ok)
            return pending.fail(entry.error);
        EntityAttributes left = changes;
        QString elements;
        if (const XmlNode *description = descriptionOf(entry.value))
            for (const XmlNode &element : description->children) {
                if (!element.children.empty() || (element.text.isEmpty() && !left.contains(element.name)))
                    continue;
                elements += elementOf(element.name, left.value(element.name, element.text));
                left.remove(element.name);
            }
        for (auto change = left.constBegin(); change != left.constEnd(); ++change)
            elements += elementOf(change.key(), change.value());
        request("PUT", entity.address, entryOf(entity.kind, elements), pending.call(),
                [pending](ConnectionResult<XmlNode> updated) {
                    if (!updated.ok)
                        return pending.fail(updated.error);
                    pending.succeed({});
                },
                true);
    });
    return call;
}

} // namespace relaydesk
