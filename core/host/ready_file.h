// SPDX-License-Identifier: MIT
#pragma once

#include <QList>
#include <QString>

#include <utility>

namespace relaydesk {

// `relaydesk serve --ready-file FILE` (docs/behaviour.md §8.1): how a script that
// started the broker in the background learns it is ready without reading its log.
// The file is one JSON object, {"pid": N, "http": "http://HOST:PORT", "amqp": …},
// one member per listening port named after its protocol, written whole (a
// temporary file renamed over it) once every port listens, so a reader never
// sees half of it; removed when the broker has stopped with everything committed.
namespace ready_file {

// One listening port: its protocol ("http", "amqp", …) and the URL a client on
// this machine uses.
using Listening = std::pair<QString, QString>;

// Removes what an earlier run left at `path`, so a waiting script never takes
// it for this run's. The problem in words, empty when none.
QString clearStale(const QString &path);

// Writes the file for this process. The problem in words, empty when none.
QString write(const QString &path, const QList<Listening> &listening);

// Removes the file at a clean stop.
void remove(const QString &path);

} // namespace ready_file

} // namespace relaydesk
