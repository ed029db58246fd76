// SPDX-License-Identifier: MIT
#include "views/window_command_line.h"

#include <array>

namespace relaydesk {

namespace {

// QGuiApplication's and QApplication's documented options (and the X11
// platform's), without their dash.
constexpr std::array kWithValue{"platform", "platformpluginpath", "platformtheme", "plugin", "qwindowgeometry",
                                "qwindowicon", "qwindowtitle", "session", "display", "geometry", "style",
                                "stylesheet", "name", "title", "visual"};
constexpr std::array kWithoutValue{"reverse", "widgetcount", "nograb", "dograb", "sync"};
constexpr std::array kOnlyWithEquals{"qmljsdebugger"};

template <std::size_t N>
bool among(const std::array<const char *, N> &names, const QString &name)
{
    for (const char *known : names)
        if (name == QLatin1String(known))
            return true;
    return false;
}

} // namespace

WindowCommandLine splitWindowCommandLine(const QStringList &arguments)
{
    WindowCommandLine split;
    for (qsizetype i = 0; i < arguments.size(); ++i) {
        const QString &argument = arguments.at(i);
        QString option;
        if (argument.startsWith(QLatin1String("--")))
            option = argument.mid(2);
        else if (argument.startsWith(QLatin1Char('-')))
            option = argument.mid(1);
        const qsizetype equals = option.indexOf(QLatin1Char('='));
        const QString name = equals < 0 ? option : option.left(equals);
        const bool valued = among(kWithValue, name);
        const bool qt = !option.isEmpty() && (valued || (equals < 0 && among(kWithoutValue, name)) ||
                                              (equals >= 0 && among(kOnlyWithEquals, name)));
        if (!qt) {
            split.brokerArguments << argument;
            continue;
        }
        split.qtOptions << argument;
        if (name == QLatin1String("platform") || name == QLatin1String("display"))
            split.choosesPlatform = true;
        if (valued && equals < 0 && i + 1 < arguments.size())
            split.qtOptions << arguments.at(++i);
    }
    return split;
}

} // namespace relaydesk
