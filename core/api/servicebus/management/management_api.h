// SPDX-License-Identifier: MIT
#pragma once

#include "http/http_reply.h"

#include <QString>

#include <functional>

class QObject;

namespace relaydesk {

class BrokerService;
class HttpRequest;

// The Service Bus management API (ATOM over HTTP, api-version 2021-05; what
// ServiceBusAdministrationClient of the Azure SDKs sends; docs/api.md
// "Service Bus management", docs/behaviour.md §8.6):
//   GET    /$namespaceinfo                               the namespace
//   GET    /$Resources/Queues | /$Resources/Topics      lists ($skip, $top ≤ 100)
//   PUT    /NAME                                        create a queue or topic (201; 409 when any entity has the name)
//   PUT    /NAME  with If-Match: *                      update it (200; 404 when none)
//   GET | DELETE /NAME                                  a queue or topic (with its runtime counts)
//   GET    /TOPIC/Subscriptions                         list; PUT | GET | DELETE /TOPIC/Subscriptions/SUB
//   GET    /TOPIC/Subscriptions/SUB/Rules               list; PUT | GET | DELETE …/Rules/RULE
// Entities are the broker's Service Bus entities (the AMQP side, the window
// and the Config.json export see the same), each change one unit through
// `service`. Errors are the service's: <Error><Code>STATUS</Code>
// <Detail>…</Detail></Error> with 400 (the property named), 404, 405, 409.
// Transport-free: it answers a parsed request, whatever carried it
// (authentication is the caller's). `reply` runs once on `context`'s thread
// (the request's connection; dropped when it is gone). Thread: `context`'s.
void answerManagementRequest(BrokerService &service, const HttpRequest &request, QObject *context,
                             std::function<void(HttpReply)> reply);

// An error in the service's shape (401 for an authentication failure, …);
// the detail cut to kMaxErrorMessageBytes.
HttpReply managementErrorReply(int status, const QString &detail);

} // namespace relaydesk
