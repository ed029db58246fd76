// SPDX-License-Identifier: MIT
#include "views/zaqar_overview.h"

#include "broker/zaqar/zaqar_limits.h"
#include "broker/metrics/entity_overview.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>

namespace relaydesk {

namespace {

QString tr(const char *text) { return QCoreApplication::translate("ZaqarOverview", text); }

QString jsonText(const nlohmann::json &value)
{
    return QString::fromStdString(value.is_string() ? value.get<std::string>() : value.dump());
}

// A policy object as "key: value, key: value" (words a line can break between).
QString policyText(const nlohmann::json &policy)
{
    if (!policy.is_object())
        return jsonText(policy);
    QStringList parts;
    for (auto it = policy.begin(); it != policy.end(); ++it)
        parts << QStringLiteral("%1: %2").arg(QString::fromStdString(it.key()), jsonText(*it));
    return QStringLiteral("{") + parts.join(QStringLiteral(", ")) + QStringLiteral("}");
}

// The reserved keys Relaydesk's Zaqar API reads (docs/behaviour.md §8.5), with what each does.
struct ReservedKey {
    const char *key;
    const char *meaning;
    QString unset;   // what applies when the key is not set
};

QList<ReservedKey> reservedKeys()
{
    const QLocale locale;
    return {
        {"_default_message_ttl", QT_TRANSLATE_NOOP("ZaqarOverview", "seconds a message lives when its post gives no ttl"),
         tr("default %1 s").arg(locale.toString(zaqar::kDefaultMessageTtl))},
        {"_default_message_delay", QT_TRANSLATE_NOOP("ZaqarOverview", "seconds a message stays hidden when its post gives no delay"),
         tr("default 0 s")},
        {"_max_messages_post_size", QT_TRANSLATE_NOOP("ZaqarOverview", "largest body of one post, in bytes"),
         tr("default %1 bytes").arg(locale.toString(qint64(zaqar::kMaxMessagesPostSize)))},
        {"_max_claim_count", QT_TRANSLATE_NOOP("ZaqarOverview", "claims a message takes before it moves to _dead_letter_queue"),
         tr("no limit")},
        {"_dead_letter_queue", QT_TRANSLATE_NOOP("ZaqarOverview", "where a message goes after _max_claim_count claims"),
         tr("none")},
        {"_dead_letter_queue_messages_ttl",
         QT_TRANSLATE_NOOP("ZaqarOverview", "seconds a message lives once moved to the dead-letter queue"),
         tr("keeps its own ttl")},
        {"_retry_policy", QT_TRANSLATE_NOOP("ZaqarOverview", "how notifications to the subscribers are retried"),
         tr("the broker's default delivery policy")},
    };
}

} // namespace

QList<QPair<QString, QString>> zaqarOverviewRows(const QString &endpointUrl, const QString &name,
                                                 const QueueOverview *queue,
                                                 const std::optional<ZaqarQueueFacts> &facts)
{
    QList<QPair<QString, QString>> rows;
    rows.append({tr("URL:"), endpointUrl + QStringLiteral("/v2/queues/") + name});
    rows.append({tr("Client-ID:"), tr("every request sends a Client-ID header, any UUID the client chooses, "
                                      "e.g. Client-ID: 3381af92-2b9e-11e3-b191-71861300734c")});
    const QLocale locale;
    if (queue)
        rows.append({tr("Messages:"), tr("%1 available, %2 claimed, %3 delayed")
                                          .arg(locale.toString(queue->counts.available),
                                               locale.toString(queue->counts.inFlight),
                                               locale.toString(queue->counts.delayed))});
    if (!facts) {
        rows.append({tr("Metadata:"), tr("reading…")});
        return rows;
    }
    rows.append({tr("Claims in flight:"), locale.toString(facts->liveClaims)});
    QStringList metadata;
    const QList<ReservedKey> keys = reservedKeys();
    for (const ReservedKey &reserved : keys) {
        const auto it = facts->metadata.find(reserved.key);
        const QString value = it == facts->metadata.end() ? tr("not set (%1)").arg(reserved.unset)
                              : reserved.key == std::string_view("_retry_policy") ? policyText(*it)
                                                                                : jsonText(*it);
        metadata << QStringLiteral("%1 = %2 — %3").arg(QLatin1String(reserved.key), value, tr(reserved.meaning));
    }
    for (auto it = facts->metadata.begin(); it != facts->metadata.end(); ++it) {
        const bool reserved = std::any_of(keys.cbegin(), keys.cend(),
                                          [&](const ReservedKey &r) { return it.key() == r.key; });
        if (!reserved)
            metadata << QStringLiteral("%1 = %2").arg(QString::fromStdString(it.key()), jsonText(*it));
    }
    rows.append({tr("Metadata:"), metadata.join(QLatin1Char('\n'))});
    QStringList subscriptions;
    for (const zaqar_store::SubscriptionEntry &s : facts->subscriptions) {
        const auto policy = s.options.find("_retry_policy");
        subscriptions << tr("%1 · ttl %2 s · _retry_policy %3")
                             .arg(QString::fromStdString(s.subscriber), locale.toString(s.ttl),
                                  policy == s.options.end() ? tr("the queue's") : policyText(*policy));
    }
    rows.append({tr("Subscriptions:"), subscriptions.isEmpty() ? tr("none") : subscriptions.join(QLatin1Char('\n'))});
    return rows;
}

} // namespace relaydesk
