// SPDX-License-Identifier: MIT
#include "models/message_text.h"

#include "json/bounded_json.h"

#include <QDateTime>
#include <QTimeZone>

namespace relaydesk::message_text {

using namespace std::chrono;

QString stateLabel(MessageState state)
{
    switch (state) {
    case MessageState::Available: return QStringLiteral("Available");
    case MessageState::InFlight: return QStringLiteral("In flight");
    case MessageState::Delayed: return QStringLiteral("Delayed");
    case MessageState::Scheduled: return QStringLiteral("Scheduled");
    case MessageState::Expired: return QStringLiteral("Expired");
    case MessageState::DeadLettered: return QStringLiteral("Dead-lettered");
    }
    return {};
}

QString spanText(ClockDuration span)
{
    const std::int64_t seconds = std::max<std::int64_t>(0, duration_cast<std::chrono::seconds>(span).count());
    const std::int64_t days = seconds / 86400;
    const std::int64_t hours = seconds / 3600 % 24;
    const std::int64_t minutes = seconds / 60 % 60;
    const std::int64_t rest = seconds % 60;
    const auto two = [](std::int64_t value) { return QStringLiteral("%1").arg(value, 2, 10, QLatin1Char('0')); };
    if (days > 0)
        return QStringLiteral("%1 d %2 h").arg(days).arg(two(hours));
    if (hours > 0)
        return QStringLiteral("%1 h %2 min").arg(hours).arg(two(minutes));
    if (minutes > 0)
        return QStringLiteral("%1 min %2 s").arg(minutes).arg(two(rest));
    return QStringLiteral("%1 s").arg(rest);
}

QString countdownText(const BrowsedMessage &message, ClockTime now)
{
    // Rounded up while counting down, so "0 s" shows only at the due time.
    const auto until = [now](ClockTime due) { return spanText(due - now + ClockDuration(999)); };
    switch (message.state) {
    case MessageState::InFlight: return QStringLiteral("lock ends in %1").arg(until(message.visibleAt));
    case MessageState::Delayed: return QStringLiteral("visible in %1").arg(until(message.visibleAt));
    case MessageState::Scheduled: return QStringLiteral("enqueued in %1").arg(until(message.visibleAt));
    case MessageState::Expired:
        return message.expiresAt ? QStringLiteral("expired %1 ago").arg(spanText(now - *message.expiresAt)) : QString();
    case MessageState::Available:
    case MessageState::DeadLettered:
        return message.expiresAt ? QStringLiteral("expires in %1").arg(until(*message.expiresAt)) : QString();
    }
    return {};
}

bool stateDue(const BrowsedMessage &message, ClockTime now)
{
    switch (message.state) {
    case MessageState::InFlight:
    case MessageState::Delayed:
    case MessageState::Scheduled: return message.visibleAt <= now;
    case MessageState::Available:
    case MessageState::DeadLettered: return message.expiresAt && *message.expiresAt <= now;
    case MessageState::Expired: return false;
    }
    return false;
}

QString bodyPreview(const std::string &body)
{
    constexpr int kLimit = 200;
    QString text = QString::fromUtf8(body.data(), static_cast<qsizetype>(std::min<std::size_t>(body.size(), 4 * kLimit)));
    const qsizetype newline = text.indexOf(QLatin1Char('\n'));
    const bool cut = newline >= 0 || text.size() > kLimit || body.size() > 4 * kLimit;
    if (newline >= 0)
        text.truncate(newline);
    if (text.size() > kLimit)
        text.truncate(kLimit);
    return cut ? text + QStringLiteral(" …") : text;
}

QString viewerBody(const std::string &body, bool *isJson)
{
    // ordered_json: the keys in the order they were sent (QJsonObject would sort them).
    const auto document = parseBoundedJson<nlohmann::ordered_json>(body);
    const bool json = !document.is_discarded() && (document.is_object() || document.is_array());
    if (isJson)
        *isJson = json;
    if (!json)
        return QString::fromStdString(body);
    return QString::fromStdString(document.dump(4, ' ', false, nlohmann::ordered_json::error_handler_t::replace));
}

QString attributeValueText(const MessageAttributeValue &value)
{
    if (!value.isBinary())
        return QString::fromStdString(value.stringValue);
    constexpr std::size_t kShown = 64;
    const QByteArray bytes = QByteArray::fromStdString(value.binaryValue.substr(0, kShown));
    QString hex = QString::fromLatin1(bytes.toHex(' '));
    if (value.binaryValue.size() > kShown)
        hex += QStringLiteral(" …");
    return QStringLiteral("%1 (%2 bytes)").arg(hex).arg(value.binaryValue.size());
}

QString timeText(ClockTime time)
{
    return QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(time), QTimeZone::utc())
        .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString shortTimeText(ClockTime time, ClockTime now)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(time), QTimeZone::utc());
    const QDateTime today = QDateTime::fromMSecsSinceEpoch(toEpochMilliseconds(now), QTimeZone::utc());
    return at.toString(at.date() == today.date() ? QStringLiteral("HH:mm:ss.zzz") : QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace relaydesk::message_text
