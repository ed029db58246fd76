// SPDX-License-Identifier: MIT
#pragma once

// The entity tree's node (private to EntityTreeModel's sources).
#include "connections/connection_call.h"
#include "models/entity_tree_model.h"

#include <QPointer>

#include <memory>
#include <vector>

namespace relaydesk {

struct EntityTreeModel::Node {
    // Connection: This computer (connectionId empty) or another; Remote: an
    // entity of another connection; Status: its "Loading…" or error row.
    enum class Type { Root, TopicsGroup, QueuesGroup, ServiceBusGroup, Topic, Subscription, Queue, ServiceBusTopic,
                      Connection, Remote, Status };
    Type type = Type::Root;
    QString key; // name, or ARN for a subscription
    Node *parent = nullptr;
    std::vector<std::unique_ptr<Node>> children;
    TopicOverview topic;
    SubscriptionOverview subscription;
    QueueOverview queue;
    // Connections other than This computer (entity_tree_connections.cpp).
    QString connectionId;
    QString detail;                     // a connection's region or URL
    bool production = false;
    bool loaded = false;                // its entities were listed (or the listing failed)
    bool failed = false;                // a Status row: the error, not "Loading…"
    QPointer<ConnectionCall> loading;   // the listing in flight
    bool asked = false;                 // fetchMore() queued its listing
    RemoteEntity remote;

    int row() const
    {
        if (!parent)
            return 0;
        for (std::size_t i = 0; i < parent->children.size(); ++i)
            if (parent->children[i].get() == this)
                return static_cast<int>(i);
        return 0;
    }
};

} // namespace relaydesk
