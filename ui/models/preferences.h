// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock.h"
#include "host/serve_options.h"

#include <QString>
#include <QStringList>

namespace relaydesk {

// What Edit ▸ Preferences… keeps (QSettings, under "preferences/"): the
// theme ("system", "light", "dark"), the clock mode the broker starts in,
// the folder new databases go to (and the default database when --db is not
// given), and the HTTP and AMQP ports the broker asks for first. The command
// line wins over each; the ports and the database take effect at the next
// start, the theme at once. Value type; GUI thread (QSettings).
struct Preferences {
    QString theme = QStringLiteral("system");
    ClockMode clockMode = ClockMode::Real;
    QString databaseFolder;                 // empty: the application data folder
    quint16 httpPort = ServeOptions::kDefaultPort;
    quint16 amqpPort = ServeOptions::kDefaultAmqpPort;

    static Preferences load();
    void save() const;
    bool operator==(const Preferences &) const = default;

    // `options` as parsed from `brokerArguments`, with these preferences for
    // what the arguments leave out (--clock, --port, --amqp-port, --db). A
    // preferred port is asked for as the default one is: when it is taken
    // the broker takes a free one and says so.
    void applyTo(ServeOptions &options, const QStringList &brokerArguments) const;
};

} // namespace relaydesk
