// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_call.h"
#include "connections/connection_deliveries.h"
#include "connections/connection_entities.h"

#include <QObject>
#include <QString>

#include <vector>

namespace relaydesk {

// What a page or dialog may ask of a connection, per entity kind.
enum class ConnectionFeature {
    List,          // the entities of the kind (with counts where the backend has them)
    Counts,        // message counts in the listing
    Attributes,    // get and set the entity's attributes
    Create,
    Delete,
    Purge,
    Send,          // send (queues) or publish (topics)
    Peek,          // look at messages without receiving them
    Poll,          // receive with a short visibility (the messages are hidden while shown)
    Settle,        // delete (SQS) or complete a received message
    AttemptLog,    // the deliveries of a subscription and their attempts
    Mocks,         // mock endpoints
    Clock,         // the broker's clock (virtual or wall)
    DeadLetters,   // a dead-letter subqueue (peek, poll), abandon and dead-letter a polled message, resubmit
};

// How a polled message is settled (BrokerConnection::settleAs): complete
// removes it, abandon unlocks it for the next receive (its delivery counted),
// dead-letter moves it to the entity's dead-letter subqueue.
enum class Settlement { Complete, Abandon, DeadLetter };

// Whether a feature is there, and why not when it is not — the window shows
// the reason on the disabled action ("Amazon SQS has no peek: …").
struct Capability {
    bool offered = false;
    QString reason;   // empty when offered

    static Capability yes() { return {true, {}}; }
    static Capability no(QString why) { return {false, std::move(why)}; }
};

// The boundary between the window and a broker (docs/architecture.md §10):
// "This computer" (EmbeddedConnection, the in-process broker), an AWS profile
// (AwsConnection), another `relaydesk serve` (RelaydeskConnection), a Zaqar
// endpoint (ZaqarConnection); Service Bus next. Pages and dialogs talk only to it.
//
// Every call is asynchronous: it returns at once with a ConnectionCall (see
// connection_call.h: one callback, cancel, progress) and never blocks the
// thread it was made on, which must be the connection's own (the UI thread);
// its callback runs there. Errors are the service's own (ConnectionError);
// a call the backend cannot make answers ConnectionError::unsupported with
// capability()'s reason and sends nothing. Bad input the service refuses
// reaches the caller as the service's error and changes nothing there.
//
// Listings fetch every page (progress after each; cancel stops between
// pages), so a caller gets the whole list once.
class BrokerConnection : public QObject {
    Q_OBJECT
public:
    template <class T>
    using Reply = std::function<void(ConnectionResult<T>)>;

    using QObject::QObject;
    ~BrokerConnection() override = default;

    // The name the tree shows ("This computer", the profile's name, …).
    virtual QString displayName() const = 0;
    // The entity kinds this connection has, in the order the tree shows them.
    virtual std::vector<EntityKind> entityKinds() const = 0;
    virtual Capability capability(EntityKind kind, ConnectionFeature feature) const = 0;

    virtual ConnectionCall *listEntities(EntityKind kind, const QString &parent, Reply<std::vector<EntitySummary>> reply) = 0;
    virtual ConnectionCall *attributes(const EntityRef &entity, Reply<EntityAttributes> reply) = 0;
    virtual ConnectionCall *setAttributes(const EntityRef &entity, const EntityAttributes &changes, Reply<Done> reply) = 0;
    // `parent`: a subscription's topic address; `attributes` as the service names them.
    virtual ConnectionCall *createEntity(EntityKind kind, const QString &name, const QString &parent,
                                         const EntityAttributes &attributes, Reply<EntityRef> reply) = 0;
    virtual ConnectionCall *deleteEntity(const EntityRef &entity, Reply<Done> reply) = 0;
    virtual ConnectionCall *purge(const EntityRef &entity, Reply<Done> reply) = 0;
    // Sends to a queue or publishes to a topic; answers the message id.
    virtual ConnectionCall *send(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply) = 0;
    virtual ConnectionCall *peek(const EntityRef &entity, const PeekRequest &request, Reply<MessagePage> reply) = 0;
    virtual ConnectionCall *poll(const EntityRef &entity, const PollRequest &request,
                                 Reply<std::vector<MessageLine>> reply) = 0;
    // Deletes (SQS) a polled message by its receipt handle.
    virtual ConnectionCall *settle(const EntityRef &entity, const MessageLine &message, Reply<Done> reply) = 0;
    // The broker's clock, and advancing a virtual one by `seconds` (everything
    // due up to the new time happens). Where capability(…, Clock) is not
    // offered these answer its reason and send nothing.
    virtual ConnectionCall *clock(Reply<BrokerClock> reply) { return refuseClock(std::move(reply)); }
    virtual ConnectionCall *advanceClock(qint64 seconds, Reply<BrokerClock> reply)
    {
        Q_UNUSED(seconds)
        return refuseClock(std::move(reply));
    }

    // Settles a polled message as asked; Complete is settle(). The others
    // need ConnectionFeature::DeadLetters (else Unsupported with its reason).
    // `deadLetterReason` (DeadLetter only; empty: none) is the reason the
    // dead-lettered message carries (Service Bus's DeadLetterReason).
    virtual ConnectionCall *settleAs(const EntityRef &entity, const MessageLine &message, Settlement how,
                                     const QString &deadLetterReason, Reply<Done> reply)
    {
        Q_UNUSED(deadLetterReason)
        if (how == Settlement::Complete)
            return settle(entity, message, std::move(reply));
        return refuse(std::move(reply), ConnectionError::unsupported(capability(entity.kind, ConnectionFeature::DeadLetters).reason));
    }
    // The entity's dead-letter subqueue, to peek and poll like an entity;
    // an empty address when there is none.
    virtual EntityRef deadLetters(const EntityRef &) const { return {}; }
    // Sends a copy of a message polled from a dead-letter subqueue back to its
    // entity, then completes the polled one; answers the copy's message id.
    virtual ConnectionCall *resubmit(const EntityRef &deadLetters, const MessageLine &, Reply<QString> reply)
    {
        return refuse(std::move(reply), ConnectionError::unsupported(capability(deadLetters.kind, ConnectionFeature::DeadLetters).reason));
    }

    // A subscription's attempt log (ConnectionFeature::AttemptLog): its
    // deliveries, newest first (at most the last 1 000 attempts' messages),
    // and every attempt of one message to it in attempt order, as the
    // four-phase chart draws them.
    virtual ConnectionCall *deliveries(const EntityRef &subscription, Reply<std::vector<DeliverySummary>> reply)
    {
        return refuse(std::move(reply), ConnectionError::unsupported(capability(subscription.kind, ConnectionFeature::AttemptLog).reason));
    }
    virtual ConnectionCall *attempts(const EntityRef &subscription, const QString &messageId, Reply<std::vector<AttemptRecord>> reply)
    {
        Q_UNUSED(messageId)
        return refuse(std::move(reply), ConnectionError::unsupported(capability(subscription.kind, ConnectionFeature::AttemptLog).reason));
    }
    // Mock endpoints (ConnectionFeature::Mocks of the first entity kind) and what one received, oldest first.
    virtual ConnectionCall *mockEndpoints(Reply<std::vector<MockEndpointLine>> reply) { return refuseFirstKind(std::move(reply), ConnectionFeature::Mocks); }
    virtual ConnectionCall *mockRequests(const QString &mock, Reply<std::vector<MockRequestLine>> reply)
    {
        Q_UNUSED(mock)
        return refuseFirstKind(std::move(reply), ConnectionFeature::Mocks);
    }
    // Creates mock `mock` or sets its script (the broker's parse error refused
    // in its words, nothing changed), deletes it, forgets what it received.
    virtual ConnectionCall *setMock(const QString &mock, const QString &script, Reply<Done> reply)
    {
        Q_UNUSED(mock)
        Q_UNUSED(script)
        return refuseFirstKind(std::move(reply), ConnectionFeature::Mocks);
    }
    virtual ConnectionCall *deleteMock(const QString &mock, Reply<Done> reply)
    {
        Q_UNUSED(mock)
        return refuseFirstKind(std::move(reply), ConnectionFeature::Mocks);
    }
    virtual ConnectionCall *clearMockRequests(const QString &mock, Reply<Done> reply)
    {
        Q_UNUSED(mock)
        return refuseFirstKind(std::move(reply), ConnectionFeature::Mocks);
    }
    // Moving a dead-letter queue's messages (SQS StartMessageMoveTask): to
    // `destination`, or with an empty destination address each back to the
    // queue it was dead-lettered from; answers the task handle. messageMoves
    // lists the queue's tasks, newest first. Not a ConnectionFeature (its
    // switch is exhaustive in each connection): moves() says whether and why not.
    virtual Capability moves(EntityKind kind) const
    {
        Q_UNUSED(kind)
        return Capability::no(tr("This service has no message move tasks."));
    }
    virtual ConnectionCall *moveMessages(const EntityRef &deadLetterQueue, const EntityRef &destination, Reply<QString> reply)
    {
        Q_UNUSED(destination)
        return refuse(std::move(reply), ConnectionError::unsupported(moves(deadLetterQueue.kind).reason));
    }
    virtual ConnectionCall *messageMoves(const EntityRef &deadLetterQueue, Reply<std::vector<MessageMoveLine>> reply)
    {
        return refuse(std::move(reply), ConnectionError::unsupported(moves(deadLetterQueue.kind).reason));
    }

protected:
    // A call answered at once with `error` (after the caller got the handle).
    template <class T>
    ConnectionCall *refuse(Reply<T> reply, ConnectionError error);
    ConnectionCall *newCall() { return new ConnectionCall(this); }

private:
    // A connection-wide feature (the clock, mocks) refused with the reason of its first entity kind.
    template <class T>
    ConnectionCall *refuseFirstKind(Reply<T> reply, ConnectionFeature feature)
    {
        const std::vector<EntityKind> kinds = entityKinds();
        const EntityKind kind = kinds.empty() ? EntityKind::Queue : kinds.front();
        return refuse(std::move(reply), ConnectionError::unsupported(capability(kind, feature).reason));
    }
    ConnectionCall *refuseClock(Reply<BrokerClock> reply) { return refuseFirstKind(std::move(reply), ConnectionFeature::Clock); }
};

template <class T>
ConnectionCall *BrokerConnection::refuse(Reply<T> reply, ConnectionError error)
{
    ConnectionCall *call = newCall();
    PendingCall<T> pending(call, std::move(reply));
    QMetaObject::invokeMethod(call, [pending, error] { pending.fail(error); }, Qt::QueuedConnection);
    return call;
}

} // namespace relaydesk
