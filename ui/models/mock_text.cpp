// SPDX-License-Identifier: MIT
#include "models/mock_text.h"

#include <QLocale>

namespace relaydesk::mock_text {

namespace {

QString durationText(std::chrono::milliseconds delay)
{
    const auto ms = delay.count();
    if (ms % 1000 != 0)
        return ms < 1000 ? QStringLiteral("%1 ms").arg(ms) : QStringLiteral("%1 s").arg(static_cast<double>(ms) / 1000.0);
    const auto seconds = ms / 1000;
    if (seconds >= 60 && seconds % 60 == 0)
        return QStringLiteral("%1 min").arg(seconds / 60);
    return QStringLiteral("%1 s").arg(seconds);
}

} // namespace

QString stepText(const MockStep &step)
{
    switch (step.action) {
    case MockAction::Respond:
        if (step.delay.count() > 0)
            return QStringLiteral("delay %1 then %2").arg(durationText(step.delay)).arg(step.status);
        return QString::number(step.status);
    case MockAction::Hang:
        return QStringLiteral("hang %1").arg(durationText(step.delay));
    case MockAction::Close:
        return QStringLiteral("close");
    }
    return {};
}

QString headersText(const MockRequest &request)
{
    QString text;
    for (const auto &[name, value] : request.headers)
        text += QString::fromStdString(name) + QStringLiteral(": ") + QString::fromStdString(value) + QLatin1Char('\n');
    return text;
}

QString requestLine(const MockRequest &request)
{
    return QString::fromStdString(request.method) + QLatin1Char(' ') + QString::fromStdString(request.target);
}

} // namespace relaydesk::mock_text
