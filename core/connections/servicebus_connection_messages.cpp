// SPDX-License-Identifier: MIT
// ServiceBusConnection's messages over AMQP 1.0 (servicebus_connection.h).
#include "connections/servicebus_amqp_client.h"
#include "connections/servicebus_amqp_message.h"
#include "connections/servicebus_connection.h"

#include <proton/disposition.h>

#include <QPointer>

namespace relaydesk {

namespace {

constexpr int kPurgeBatch = 100;
constexpr char kDeadLetterQueue[] = "/$DeadLetterQueue";

// An entity's AMQP address: its management path without the leading slash, decoded.
std::string amqpAddress(const EntityRef &entity)
{
    return QUrl::fromPercentEncoding(entity.address.mid(1).toUtf8()).toStdString();
}

// The entity a dead-letter subqueue belongs to.
std::string parentOf(const std::string &address)
{
    const std::size_t subqueue = address.rfind(kDeadLetterQueue);
    return subqueue == std::string::npos ? address : address.substr(0, subqueue);
}

template <class T>
ConnectionResult<T> failed(const std::optional<ConnectionError> &error, T value = {})
{
    return error ? ConnectionResult<T>::failure(*error) : ConnectionResult<T>::success(std::move(value));
}

std::uint64_t outcomeOf(Settlement how)
{
    switch (how) {
    case Settlement::Abandon:
        return PN_MODIFIED;
    case Settlement::DeadLetter:
        return PN_REJECTED;
    case Settlement::Complete:
        break;
    }
    return PN_ACCEPTED;
}

} // namespace

ServiceBusConnection::~ServiceBusConnection() = default;

ServiceBusAmqpClient &ServiceBusConnection::amqpClient()
{
    if (!m_amqp) {
        ServiceBusAmqpTarget target;
        target.host = m_string.host.toStdString();
        target.tls = !m_string.developmentEmulator;
        target.port = m_string.port > 0 ? m_string.port : (target.tls ? 5671 : 5672);
        target.caFile = m_settings.caFile.toStdString();
        target.keyName = m_string.keyName.toStdString();
        target.key = m_string.key.toStdString();
        m_amqp = std::make_unique<ServiceBusAmqpClient>(std::move(target));
    }
    return *m_amqp;
}

template <class T>
ConnectionCall *ServiceBusConnection::overAmqp(Reply<T> reply, Work<T> work)
{
    if (!m_string.error.isEmpty())
        return refuse(std::move(reply), {QStringLiteral("connection"), QStringLiteral("ConnectionString"), m_string.error, 0});
    ConnectionCall *call = newCall();
    const PendingCall<T> pending(call, std::move(reply));
    auto cancel = std::make_shared<std::atomic_bool>(false);
    ServiceBusAmqpClient *client = &amqpClient();
    connect(call, &ConnectionCall::cancelled, this, [cancel, client] {
        *cancel = true;
        client->interrupt();
    });
    const QPointer<ConnectionCall> guard(call);
    Progress progress = [this, guard](qint64 done, qint64 total) {
        QMetaObject::invokeMethod(this, [guard, done, total] {
            if (guard)
                guard->report(done, total);
        }, Qt::QueuedConnection);
    };
    client->post([this, pending, cancel, work, progress](AmqpSession &session) {
        if (*cancel)
            return;
        session.setCancel(cancel);
        ConnectionResult<T> result = work(session, progress);
        if (*cancel)
            session.reset();   // a wait cut short leaves the connection in between
        QMetaObject::invokeMethod(this, [pending, result] { pending.resolve(result); }, Qt::QueuedConnection);
    });
    return call;
}

ConnectionCall *ServiceBusConnection::send(const EntityRef &entity, const OutgoingMessage &message, Reply<QString> reply)
{
    if (const Capability can = capability(entity.kind, ConnectionFeature::Send); !can.offered)
        return refuse(std::move(reply), ConnectionError::unsupported(can.reason));
    const std::string address = amqpAddress(entity);
    QString id;
    const std::vector<char> bytes = servicebus_amqp::outgoing(message, &id);
    return overAmqp<QString>(std::move(reply), [address, bytes, id](AmqpSession &session, const Progress &) {
        return failed(session.send(address, bytes), id);
    });
}

ConnectionCall *ServiceBusConnection::peek(const EntityRef &entity, const PeekRequest &request, Reply<MessagePage> reply)
{
    if (const Capability can = capability(entity.kind, ConnectionFeature::Peek); !can.offered)
        return refuse(std::move(reply), ConnectionError::unsupported(can.reason));
    const std::string address = amqpAddress(entity);
    const qint64 from = request.after.value_or(0) + 1;
    const int count = std::clamp(request.count, 1, 1000);
    return overAmqp<MessagePage>(std::move(reply), [address, from, count](AmqpSession &session, const Progress &) {
        servicebus_amqp::Message ask = servicebus_amqp::newMessage();
        servicebus_amqp::putPeekRequest(ask.get(), from, count);
        servicebus_amqp::Message answer = servicebus_amqp::newMessage();
        if (std::optional<ConnectionError> error = session.request(address, "$management", ask.get(), answer.get()))
            return ConnectionResult<MessagePage>::failure(*error);
        MessagePage page;
        for (const std::vector<char> &bytes : servicebus_amqp::peekedMessages(answer.get()))
            page.messages.push_back(servicebus_amqp::lineOf(bytes, {}));
        if (static_cast<int>(page.messages.size()) == count && page.messages.back().sequenceNumber)
            page.next = page.messages.back().sequenceNumber;
        return ConnectionResult<MessagePage>::success(std::move(page));
    });
}

ConnectionCall *ServiceBusConnection::poll(const EntityRef &entity, const PollRequest &request, Reply<std::vector<MessageLine>> reply)
{
    if (const Capability can = capability(entity.kind, ConnectionFeature::Poll); !can.offered)
        return refuse(std::move(reply), ConnectionError::unsupported(can.reason));
    const std::string address = amqpAddress(entity);
    const int count = std::clamp(request.count, 1, 100);
    return overAmqp<std::vector<MessageLine>>(std::move(reply), [address, count](AmqpSession &session, const Progress &) {
        std::vector<AmqpReceived> received;
        std::optional<ConnectionError> error = session.receive(address, count, true, received);
        std::vector<MessageLine> lines;
        for (const AmqpReceived &message : received) {
            MessageLine line = servicebus_amqp::lineOf(message.bytes, QStringLiteral("received"));
            line.receiptHandle = QString::fromStdString(message.lockToken);
            lines.push_back(std::move(line));
        }
        return failed(error, std::move(lines));
    });
}

ConnectionCall *ServiceBusConnection::settle(const EntityRef &entity, const MessageLine &message, Reply<Done> reply)
{
    return settleAs(entity, message, Settlement::Complete, {}, std::move(reply));
}

ConnectionCall *ServiceBusConnection::settleAs(const EntityRef &entity, const MessageLine &message, Settlement how,
                                               const QString &deadLetterReason, Reply<Done> reply)
{
    if (const Capability can = capability(entity.kind, ConnectionFeature::Settle); !can.offered)
        return refuse(std::move(reply), ConnectionError::unsupported(can.reason));
    const std::string token = message.receiptHandle.toStdString();
    const std::uint64_t outcome = outcomeOf(how);
    const std::string reason = how == Settlement::DeadLetter ? deadLetterReason.toStdString() : std::string();
    return overAmqp<Done>(std::move(reply), [token, outcome, reason](AmqpSession &session, const Progress &) {
        return failed<Done>(session.settle(token, outcome, reason));
    });
}

EntityRef ServiceBusConnection::deadLetters(const EntityRef &entity) const
{
    if (!capability(entity.kind, ConnectionFeature::DeadLetters).offered || entity.address.endsWith(QLatin1String(kDeadLetterQueue)))
        return {};
    return {entity.kind, entity.name + QLatin1String(kDeadLetterQueue), entity.address + QLatin1String(kDeadLetterQueue),
            entity.parent};
}

ConnectionCall *ServiceBusConnection::resubmit(const EntityRef &deadLetters, const MessageLine &message, Reply<QString> reply)
{
    if (!deadLetters.address.endsWith(QLatin1String(kDeadLetterQueue)))
        return refuse(std::move(reply), ConnectionError::unsupported(tr("Resubmit sends a dead-lettered message back: "
                                                                         "poll it from the dead-letter subqueue.")));
    // A subscription's dead letters go back to its topic.
    std::string target = parentOf(amqpAddress(deadLetters));
    if (deadLetters.kind == EntityKind::ServiceBusSubscription)
        target = target.substr(0, target.find("/Subscriptions/"));
    const std::string token = message.receiptHandle.toStdString();
    return overAmqp<QString>(std::move(reply), [target, token](AmqpSession &session, const Progress &) {
        const std::vector<char> *locked = session.lockedBytes(token);
        if (!locked)
            return ConnectionResult<QString>::failure(*session.settle(token, PN_ACCEPTED));   // lock lost, in its words
        const std::vector<char> copy = servicebus_amqp::resubmitted(*locked);
        if (std::optional<ConnectionError> error = session.send(target, copy))
            return ConnectionResult<QString>::failure(*error);
        const QString id = servicebus_amqp::lineOf(copy, {}).messageId;
        return failed(session.settle(token, PN_ACCEPTED), id);
    });
}

ConnectionCall *ServiceBusConnection::purge(const EntityRef &entity, Reply<Done> reply)
{
    if (const Capability can = capability(entity.kind, ConnectionFeature::Purge); !can.offered)
        return refuse(std::move(reply), ConnectionError::unsupported(can.reason));
    const std::string address = amqpAddress(entity);
    return overAmqp<Done>(std::move(reply), [address](AmqpSession &session, const Progress &progress) {
        qint64 removed = 0;
        for (;;) {
            std::vector<AmqpReceived> batch;
            if (std::optional<ConnectionError> error = session.receive(address, kPurgeBatch, false, batch))
                return ConnectionResult<Done>::failure(*error);
            removed += static_cast<qint64>(batch.size());
            progress(removed, batch.empty() ? removed : -1);
            if (batch.empty())
                return ConnectionResult<Done>::success({});
        }
    });
}

} // namespace relaydesk
