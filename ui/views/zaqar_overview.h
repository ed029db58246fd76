// SPDX-License-Identifier: MIT
#pragma once

#include "engine/zaqar_queue_calls.h"

#include <QList>
#include <QPair>
#include <QString>

#include <optional>

namespace relaydesk {

struct QueueOverview;

// The Overview rows of a Zaqar queue (docs/window.md "Zaqar queues"), as
// label and value: its /v2/queues/NAME URL, the Client-ID header every
// request needs, its messages, the claims in flight, its metadata with each
// reserved key explained (set or not, with the default that applies) and
// its subscriptions with their _retry_policy. `facts` empty: still being
// read. Pure, GUI thread (tr).
QList<QPair<QString, QString>> zaqarOverviewRows(const QString &endpointUrl, const QString &name,
                                                 const QueueOverview *queue,
                                                 const std::optional<ZaqarQueueFacts> &facts);

} // namespace relaydesk
