// SPDX-License-Identifier: MIT
#pragma once

#include "connections/broker_connection.h"
#include "connections/keystone_token.h"

#include <QJsonDocument>
#include <QUrl>

class QNetworkAccessManager;

namespace relaydesk {

// An OpenStack Zaqar v2 endpoint (or Relaydesk's /v2) as a connection: its
// queues, through the REST API as python-zaqarclient uses it — every request
// with `Client-ID` (a UUID of this connection), `X-Project-ID` when given and
// `X-Auth-Token` when given (a Keystone token; Relaydesk's bearer token), or
// else, with Keystone credentials, the token Keystone gives for them (asked
// before the first request, and again once after a 401: it expired; without
// a project id, X-Project-ID is the project Keystone scoped the token to).
//  - Listing: GET /v2/queues 20 a page (Zaqar's largest page), following the
//    `next` link until a page is empty.
//  - Attributes: the queue's metadata (numbers and other JSON as compact
//    JSON text), and its stats as `messages.free`, `messages.claimed`,
//    `messages.total` (read-only). Set: a JSON patch, `replace` per member
//    (a value that reads as JSON is sent as that JSON, else as a string).
//  - Send posts one message; the body is sent as JSON when it reads as JSON,
//    else as a string. Peek lists messages (echo, include_claimed), paged by
//    the listing's marker. Poll claims (`ttl` the visibility, at least 60 s as
//    Zaqar requires, grace 60 s); settle deletes the message under its claim
//    (the receipt handle is the claimed message's href).
//  - Purge: POST …/purge of the queue's messages (subscriptions kept).
// Errors are Zaqar's {"title", "description"} (service "Zaqar", code the title).
class ZaqarConnection final : public BrokerConnection {
    Q_OBJECT
public:
    struct Settings {
        QString name;
        QUrl url;            // "http://HOST:PORT", the API under /v2
        QString projectId;   // X-Project-ID; none when empty
        QString token;       // X-Auth-Token; none when empty
        KeystoneCredentials keystone;   // without a token: a token asked of Keystone (scoped to its project, or projectId)
    };

    explicit ZaqarConnection(Settings settings, QObject *parent = nullptr);

    QString displayName() const override { return m_settings.name; }
    std::vector<EntityKind> entityKinds() const override { return {EntityKind::ZaqarQueue}; }
    Capability capability(EntityKind kind, ConnectionFeature feature) const override;

    ConnectionCall *listEntities(EntityKind kind, const QString &parent, Reply<std::vector<EntitySummary>> reply) override;
    ConnectionCall *attributes(const EntityRef &entity, Reply<EntityAttributes> reply) override;
    ConnectionCall *setAttributes(const EntityRef &entity, const EntityAttributes &changes, Reply<Done> reply) override;
    ConnectionCall *createEntity(EntityKind kind, const QString &name, const QString &parent,
                                 const EntityAttributes &attributes, Reply<EntityRef> reply) override;
    ConnectionCall *deleteEntity(const EntityRef &entity, Reply<Done> reply) override;
    ConnectionCall *purge(const EntityRef &entity, Reply<Done> reply) override;
    ConnectionCall *send(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply) override;
    ConnectionCall *peek(const EntityRef &entity, const PeekRequest &request, Reply<MessagePage> reply) override;
    ConnectionCall *poll(const EntityRef &entity, const PollRequest &request,
                         Reply<std::vector<MessageLine>> reply) override;
    ConnectionCall *settle(const EntityRef &entity, const MessageLine &message, Reply<Done> reply) override;

private:
    using Answer = std::function<void(ConnectionResult<QJsonDocument>)>;
    // One request to PATH (absolute, with its query) on `call`.
    // With Keystone credentials and no token yet, the token first; a 401 then asks again once (`retried`).
    void request(const QByteArray &method, const QString &path, const QByteArray &contentType, const QByteArray &body,
                 ConnectionCall *call, Answer answer, bool retried = false);
    void listPage(const QString &path, std::shared_ptr<std::vector<EntitySummary>> found,
                  PendingCall<std::vector<EntitySummary>> pending);
    ConnectionCall *refuseOther(const EntityRef &entity, ConnectionFeature feature, Reply<Done> reply);

    Settings m_settings;
    QString m_clientId;
    QString m_keystoneToken;       // the one Keystone gave
    QString m_keystoneProjectId;   // the project Keystone scoped it to: X-Project-ID when none is given
    QNetworkAccessManager *m_network = nullptr;
};

} // namespace relaydesk
