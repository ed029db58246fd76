// SPDX-License-Identifier: MIT
// BrokerService: the attempt log — pages, counts, export, a message's
// timeline and redelivery (the window's Deliveries page).
#include "engine/broker_service_unit.h"

#include "broker/deliveries/attempt_export.h"
#include "broker/deliveries/attempt_log.h"
#include "engine/delivery_worker.h"

#include <QSaveFile>

namespace relaydesk {

using namespace service_unit;

namespace {

constexpr std::size_t kMaxPageRows = 10000;

} // namespace

void BrokerService::queryAttempts(AttemptQuery query, QObject *context, Reply<AttemptPage> reply)
{
    if (query.limit < 1 || query.limit > kMaxPageRows) {
        BrokerError refused(BrokerErrorCode::InvalidParameterValue,
                            "limit must be a whole number from 1 to " + std::to_string(kMaxPageRows) + ".");
        deliver(ReplyTarget(context), [reply = std::move(reply), refused] { reply(refused); });
        return;
    }
    readCommitted<AttemptPage>(
        m_state, [query = std::move(query)](Database &db, ClockTime) { return attempt_log::queryPage(db, query); },
        context, std::move(reply));
}

void BrokerService::countAttempts(AttemptQuery query, QObject *context, Reply<std::int64_t> reply)
{
    readCommitted<std::int64_t>(
        m_state, [query = std::move(query)](Database &db, ClockTime) { return attempt_log::count(db, query); },
        context, std::move(reply));
}

void BrokerService::exportAttempts(AttemptQuery query, AttemptExportFormat format, QObject *context,
                                   Reply<std::string> reply)
{
    readCommitted<std::string>(
        m_state,
        [query = std::move(query), format](Database &db, ClockTime) -> Result<std::string> {
            Result<std::vector<AttemptRecord>> rows = attempt_log::all(db, query);
            if (!rows)
                return rows.error();
            return attempt_export::write(*rows, format);
        },
        context, std::move(reply));
}

void BrokerService::exportAttemptsToFile(AttemptQuery query, AttemptExportFormat format, std::string path,
                                         QObject *context, Reply<std::int64_t> reply)
{
    readCommitted<std::int64_t>(
        m_state,
        [query = std::move(query), format, path = std::move(path)](Database &db, ClockTime) -> Result<std::int64_t> {
            Result<std::vector<AttemptRecord>> rows = attempt_log::all(db, query);
            if (!rows)
                return rows.error();
            const std::string text = attempt_export::write(*rows, format);
            QSaveFile file(QString::fromStdString(path));
            if (!file.open(QIODevice::WriteOnly) ||
                file.write(text.data(), static_cast<qint64>(text.size())) != static_cast<qint64>(text.size()) ||
                !file.commit())
                return BrokerError(BrokerErrorCode::InternalError,
                                   "Cannot write " + path + ": " + file.errorString().toStdString());
            return static_cast<std::int64_t>(rows->size());
        },
        context, std::move(reply));
}

void BrokerService::messageTimeline(std::string subscriptionArn, std::string messageId, QObject *context,
                                    Reply<MessageTimeline> reply)
{
    readCommitted<MessageTimeline>(
        m_state,
        [identity = m_state->identity, subscriptionArn = std::move(subscriptionArn),
         messageId = std::move(messageId)](Database &db, ClockTime) {
            return message_timeline::read(db, identity, subscriptionArn, messageId);
        },
        context, std::move(reply));
}

void BrokerService::redeliver(std::string subscriptionArn, std::string messageId, QObject *context,
                              Reply<Redelivery> reply)
{
    const StatePtr state = m_state;
    run<Redelivery>(
        m_state,
        [subscriptionArn = std::move(subscriptionArn), messageId = std::move(messageId)](
            UnitContext &unit, State &state, std::vector<std::string> &) -> Result<Redelivery> {
            Result<Redelivery> started =
                redelivery::start(unit.database(), state.identity, subscriptionArn, messageId, unit.now());
            if (started)
                unit.reportChange(change(EntityChange::Kind::Changed, EntityChange::Entity::Subscription,
                                         subscriptionArn));
            return started;
        },
        context, std::move(reply), [state](const Redelivery &) {
            if (DeliveryWorker *worker = state->worker.load())
                worker->wake();
        });
}

} // namespace relaydesk
