// SPDX-License-Identifier: MIT
#pragma once

#include "broker/attribute_text.h"
#include "broker/result.h"
#include "engine/entity_change.h"

#include <QList>
#include <QPair>
#include <QString>

#include <functional>
#include <map>
#include <string>

class QObject;

namespace relaydesk {

class BrokerService;

// The broker calls the attribute editor, the policy page and the create
// dialogs share, for one entity kind (queue / topic by name, subscription by
// ARN). Every call is asynchronous through BrokerService; `done` runs on
// `context`'s thread and is dropped with it. GUI thread.
using EntityTags = std::map<std::string, std::string>;

void loadEntityAttributes(BrokerService &service, EntityChange::Entity kind, const QString &nameOrArn,
                          QObject *context, std::function<void(Result<AttributeMap>)> done);

// Writes `changes` over `current` (the attributes as last loaded). A queue
// takes them in one SetQueueAttributes (all or nothing). Topics and
// subscriptions take one attribute per call, so every change is first checked
// with the broker's own rules (applyTopicAttribute / applySubscriptionAttribute
// on `current`): a refused value is reported with the broker's message before
// anything is written; then the calls run in order and stop at the first error.
void applyEntityAttributes(BrokerService &service, EntityChange::Entity kind, const QString &nameOrArn,
                           const AttributeMap &current, const AttributeMap &changes, QObject *context,
                           std::function<void(Status)> done);

// Tags of a queue or topic.
void loadEntityTags(BrokerService &service, EntityChange::Entity kind, const QString &name, QObject *context,
                    std::function<void(Result<EntityTags>)> done);
// Removes the keys of `before` missing from `after`, then sets what is new or changed.
void applyEntityTags(BrokerService &service, EntityChange::Entity kind, const QString &name, const EntityTags &before,
                     const EntityTags &after, QObject *context, std::function<void(Status)> done);

// The broker's queues as (name, ARN), by name.
void loadQueueChoices(BrokerService &service, QObject *context,
                      std::function<void(Result<QList<QPair<QString, QString>>>)> done);

// "events" from "arn:aws:sns:us-east-1:000000000000:events" (the last ':' part).
QString nameFromArn(const QString &arn);

} // namespace relaydesk
