// SPDX-License-Identifier: MIT
// Internal to the management API (management_api.h): what its route files share.
#pragma once

#include "api/servicebus/management/atom_document.h"
#include "broker/result.h"
#include "engine/broker_service.h"
#include "http/http_reply.h"

#include <QString>

#include <functional>
#include <optional>

namespace relaydesk::management {

using Reply = std::function<void(HttpReply)>;

// One request on its way: the service, where answers go, and the base of the
// entries' URLs ("https://HOST"). Value type.
struct Call {
    BrokerService *service = nullptr;
    QObject *context = nullptr;
    QString base;
    Reply reply;
};

// The answer a unit makes. Value type.
struct Answer {
    int status = 200;
    QByteArray body;
    const char *contentType = kAtomContentType;
};

// The service's words for an entity that is not there (404) or already is (409),
// the name cut to kEchoedValueLimit (broker/echoed_value.h).
BrokerError notFound(const std::string &entity);
BrokerError exists(const std::string &entity);
inline QString qs(const std::string &text) { return QString::fromStdString(text); }

// The service's status for a broker error (404, 409, 400, 500) and its reply.
HttpReply errorReply(const BrokerError &error);
// `body` as a unit with the service's identity; its answer, or its error, to the call's reply.
using UnitBody = std::function<Result<Answer>(UnitContext &, const BrokerIdentity &, std::vector<std::string> &wake)>;
void runUnit(const Call &call, UnitBody body);

// The paging of a list: $skip (≥ 0) and $top (1–kMaxTop, default kMaxTop).
inline constexpr int kMaxTop = 100;
struct Page {
    int skip = 0;
    int top = kMaxTop;
};
Result<Page> readPage(const QUrl &url);
// The next page's path and query after `path` when `total` passes this page.
std::optional<QString> nextPage(const QString &path, const Page &page, std::size_t total);

// The routes by kind (management_entities.cpp, management_subscriptions.cpp).
void answerNamespace(const Call &call);
void answerEntityList(const Call &call, bool topics, const Page &page);
void answerEntity(const Call &call, const QByteArray &method, const QString &name, const QByteArray &body, bool update);
void answerSubscriptionList(const Call &call, const QString &topic, const Page &page);
void answerSubscription(const Call &call, const QByteArray &method, const QString &topic, const QString &name,
                        const QByteArray &body, bool update);
void answerRuleList(const Call &call, const QString &topic, const QString &subscription, const Page &page);
void answerRule(const Call &call, const QByteArray &method, const QString &topic, const QString &subscription,
                const QString &name, const QByteArray &body, bool update);

} // namespace relaydesk::management
