// SPDX-License-Identifier: MIT
#include "views/next_event_text.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QLocale>
#include <QStringList>

namespace relaydesk::next_event_text {

namespace {

QString tr(const char *text, int n = -1) { return QCoreApplication::translate("NextEvent", text, nullptr, n); }

QDateTime utc(ClockTime time) { return QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(time), Qt::UTC); }

QString what(const NextClockEvent &next)
{
    const QString subject = QString::fromStdString(next.subject);
    switch (next.kind) {
    case NextClockEvent::Kind::Delivery:
        return tr("delivery attempt to %1").arg(subject);
    case NextClockEvent::Kind::Expiry:
        return tr("messages of %1 expire").arg(subject);
    case NextClockEvent::Kind::MessageDue:
        return tr("a message of %1 becomes available").arg(subject);
    case NextClockEvent::Kind::Timer:
        return tr("a broker timer (a wait, a throttle or an idle deletion)");
    case NextClockEvent::Kind::Nothing:
        break;
    }
    return {};
}

} // namespace

QString span(ClockDuration span)
{
    using namespace std::chrono;
    const auto seconds = duration_cast<std::chrono::seconds>(span).count();
    struct Unit {
        long long seconds;
        const char *name;
    };
    static constexpr Unit kUnits[] = {{86400, "d"}, {3600, "h"}, {60, "min"}, {1, "s"}};
    QStringList parts;
    long long rest = seconds;
    for (const Unit &unit : kUnits) {
        if (rest >= unit.seconds && parts.size() < 2) {
            parts << QStringLiteral("%1 %2").arg(rest / unit.seconds).arg(QLatin1String(unit.name));
            rest %= unit.seconds;
        } else if (!parts.isEmpty()) {
            break; // the two largest units, adjacent
        }
    }
    return parts.isEmpty() ? QStringLiteral("0 s") : parts.join(QLatin1Char(' '));
}

QString when(ClockTime at, ClockTime now)
{
    const QDateTime time = utc(at);
    if (time.date() == utc(now).date())
        return time.toString(QStringLiteral("HH:mm:ss"));
    return time.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString summary(const NextClockEvent &next)
{
    if (next.kind == NextClockEvent::Kind::Nothing)
        return tr("Next: nothing due");
    return tr("Next: %1 at %2 (+%3)").arg(what(next), when(next.at, next.now), span(next.at - next.now));
}

bool needsAsking(const NextClockEvent &next) { return next.at - next.now > kAskBeyond || !next.expiring.empty(); }

QString question(const NextClockEvent &next)
{
    QString text = tr("Move the virtual clock %1 on, to %2 UTC?")
                       .arg(span(next.at - next.now), utc(next.at).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
    if (next.kind != NextClockEvent::Kind::Nothing)
        text += QLatin1Char(' ') + tr("Next due there: %1.").arg(what(next));
    if (next.expiring.empty())
        return text;
    QStringList queues;
    for (const ExpiringMessages &queue : next.expiring)
        queues << tr("%n message(s) of %1", static_cast<int>(queue.messages)).arg(QString::fromStdString(queue.queue));
    const QString last = queues.takeLast();
    const QString list = queues.isEmpty() ? last : tr("%1 and %2").arg(queues.join(QStringLiteral(", ")), last);
    return text + QStringLiteral("\n\n") + tr("%1 expire on the way.").arg(list);
}

} // namespace relaydesk::next_event_text
