// SPDX-License-Identifier: MIT
#pragma once

#include <QStringList>

namespace relaydesk {

// The window's command line split in two: the standard options of Qt's
// QApplication (-style Fusion, -platform xcb, -reverse, … with one or two
// dashes, a value as the next argument or after '='), which QApplication
// takes from argv itself, and the rest — the broker's options, for
// parseServeOptions(…, OptionsFor::Window). Order is kept in each part.
struct WindowCommandLine {
    QStringList qtOptions;
    QStringList brokerArguments;
    // True when the Qt options choose a platform or a display: whether one is
    // available is then Qt's to say.
    bool choosesPlatform = false;
};

WindowCommandLine splitWindowCommandLine(const QStringList &arguments);

} // namespace relaydesk
