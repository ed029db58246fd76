// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"

#include <QByteArray>
#include <QString>
#include <QXmlStreamWriter>

#include <functional>
#include <optional>

namespace relaydesk {

// The ATOM documents the Service Bus management API answers with
// (docs/api.md "Service Bus management"): one <entry> for an entity, or a
// <feed> of entries for a list, each entry's <content> holding one
// description written by `content`. An entry's <id> is the entity's URL
// ("https://HOST/orders", ".../t/Subscriptions/s/Rules/r"): the SDKs take
// the entity's names from its path. Not copyable; one document per object.
class AtomDocument final {
public:
    using Content = std::function<void(QXmlStreamWriter &)>;

    // `base`: "https://HOST" as the client addressed the namespace; `now`
    // the broker clock's time, written as each <updated>.
    AtomDocument(QString base, ClockTime now);

    // A feed of `title` at `path` ("/$Resources/Queues"); `next` the path
    // and query of the following page, when there is one.
    void beginFeed(const QString &title, const QString &path, const std::optional<QString> &next);
    void entry(const QString &path, const QString &title, const Content &content);
    QByteArray finish();

private:
    QString m_base;
    QString m_now;
    QByteArray m_bytes;
    QXmlStreamWriter m_xml{&m_bytes};
    bool m_feed = false;
};

// The service's error body: <Error><Code>STATUS</Code><Detail>…</Detail></Error>.
QByteArray managementErrorBody(int status, const QString &detail);

inline constexpr const char *kAtomContentType = "application/atom+xml;type=entry;charset=utf-8";
inline constexpr const char *kAtomFeedContentType = "application/atom+xml;type=feed;charset=utf-8";
inline constexpr const char *kServiceBusConnectNamespace = "http://schemas.microsoft.com/netservices/2010/10/servicebus/connect";
inline constexpr const char *kSchemaInstanceNamespace = "http://www.w3.org/2001/XMLSchema-instance";

} // namespace relaydesk
