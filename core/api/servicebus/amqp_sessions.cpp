// SPDX-License-Identifier: MIT
// AmqpConnection: Service Bus sessions (docs/behaviour.md §8.6). A receive
// link on a queue with RequiresSession names its session in the source's
// com.microsoft:session-filter (null: the next unlocked session with a
// message); the attach is answered once the session is locked, with the
// session chosen in the same filter and the lock's end as the link property
// com.microsoft:locked-until-utc (.NET ticks). The link holds the session
// until it closes; the session operations of $management act on the session
// a link of this connection holds (servicebus_session.h for the rules).
#include "api/servicebus/amqp_connection.h"

#include "api/servicebus/amqp_message.h"

#include "broker/queues/servicebus_session.h"
#include "engine/broker_service.h"
#include "engine/unit_context.h"

#include <proton/codec.h>
#include <proton/error.hpp>
#include <proton/link.h>
#include <proton/binary.hpp>
#include <proton/message.hpp>
#include <proton/scalar.hpp>
#include <proton/terminus.h>
#include <proton/timestamp.hpp>
#include <proton/types.hpp>
#include <proton/value.hpp>

#include <QUuid>

#include <algorithm>

namespace relaydesk {

namespace {

using Acceptance = servicebus_sessions::Acceptance;

constexpr std::string_view kSessionFilter = "com.microsoft:session-filter";
constexpr std::int64_t kUnixEpochTicks = 621'355'968'000'000'000;   // .NET ticks at 1970-01-01

const char *const kRenewSessionLock = "com.microsoft:renew-session-lock";
const char *const kGetSessionState = "com.microsoft:get-session-state";
const char *const kSetSessionState = "com.microsoft:set-session-state";
const char *const kGetMessageSessions = "com.microsoft:get-message-sessions";
const char *const kSessionLockLost = "com.microsoft:session-lock-lost";

std::string_view textOf(pn_data_t *data)
{
    const pn_bytes_t bytes = pn_data_type(data) == PN_STRING ? pn_data_get_string(data) : pn_data_get_symbol(data);
    return {bytes.start, bytes.size};
}

// The session a receive link's source asks for: absent (no filter set: not a
// session receiver), null or not given (the next available one) or named.
std::optional<std::optional<std::string>> sessionFilter(pn_terminus_t *source)
{
    pn_data_t *filter = pn_terminus_filter(source);
    pn_data_rewind(filter);
    if (!pn_data_next(filter) || pn_data_type(filter) != PN_MAP)
        return std::nullopt;
    pn_data_enter(filter);
    std::optional<std::optional<std::string>> wanted = std::optional<std::string>();   // a filter set without it: any
    while (pn_data_next(filter)) {
        const bool isKey = pn_data_type(filter) == PN_SYMBOL || pn_data_type(filter) == PN_STRING;
        const bool ours = isKey && textOf(filter) == kSessionFilter;
        if (!pn_data_next(filter))
            break;
        if (!ours)
            continue;
        if (pn_data_type(filter) == PN_DESCRIBED) {   // a described value: its value
            pn_data_enter(filter);
            pn_data_next(filter);
            pn_data_next(filter);
        }
        if (pn_data_type(filter) == PN_STRING || pn_data_type(filter) == PN_SYMBOL)
            wanted = std::optional<std::string>(std::string(textOf(filter)));
        else
            wanted = std::optional<std::string>();
        break;
    }
    return wanted;
}

void answerSession(pn_link_t *link, const std::string &sessionId, ClockTime lockedUntil)
{
    pn_data_t *filter = pn_terminus_filter(pn_link_source(link));
    pn_data_clear(filter);
    pn_data_put_map(filter);
    pn_data_enter(filter);
    pn_data_put_symbol(filter, pn_bytes(kSessionFilter.size(), kSessionFilter.data()));
    pn_data_put_string(filter, pn_bytes(sessionId.size(), sessionId.data()));
    pn_data_exit(filter);
    const std::string_view lockedKey = "com.microsoft:locked-until-utc";
    pn_data_t *properties = pn_link_properties(link);
    pn_data_clear(properties);
    pn_data_put_map(properties);
    pn_data_enter(properties);
    pn_data_put_symbol(properties, pn_bytes(lockedKey.size(), lockedKey.data()));
    pn_data_put_long(properties, kUnixEpochTicks + toEpochMilliseconds(lockedUntil) * 10'000);
    pn_data_exit(properties);
}

template <class T>
using SessionBody = std::function<Result<T>(Database &, ClockTime)>;

// Runs `body` as one broker unit; its value (or error) comes back through `reply`.
template <class T>
BrokerService::UnitBody unitOf(SessionBody<T> body, std::string wake = {})
{
    return [body = std::move(body), wake = std::move(wake)](UnitContext &unit, const BrokerIdentity &, IdSource &,
                                                            std::vector<std::string> &woken) -> Result<std::any> {
        Result<T> value = body(unit.database(), unit.now());
        if (!value)
            return value.error();
        if (!wake.empty())
            woken.push_back(wake);
        return std::any(std::move(value).value());
    };
}

} // namespace

void AmqpConnection::acceptSession(const LinkPtr &link)
{
    const std::optional<std::optional<std::string>> wanted = sessionFilter(pn_link_remote_source(link->link));
    if (!wanted) {
        refuse(link, "amqp:not-allowed",
               "It is not possible for an entity that requires sessions to create a non-sessionful message "
               "receiver.");
        return;
    }
    const std::string token = QUuid::createUuid().toString(QUuid::WithoutBraces).toStdString();
    const std::string queue = link->entity.queueName;
    const std::optional<std::string> sessionId = *wanted;
    m_service.runUnit(unitOf<Acceptance>([queue, sessionId, token](Database &db, ClockTime now) {
                          return servicebus_sessions::accept(db, queue, sessionId, token, now);
                      }),
                      false, nullptr,
                      later<Result<std::any>>([link, token](const auto &self, Result<std::any> accepted) {
                          self->onSessionAccepted(link, token, std::move(accepted));
                      }));
}

void AmqpConnection::onSessionAccepted(const LinkPtr &link, const std::string &token, Result<std::any> accepted)
{
    if (!accepted) {
        if (!link->closed)
            refuse(link, accepted.error().code == BrokerErrorCode::QueueDoesNotExist ? "amqp:not-found"
                                                                                     : "amqp:internal-error",
                   accepted.error().message);
        return;
    }
    const auto acceptance = std::any_cast<Acceptance>(*accepted);
    if (acceptance.outcome == Acceptance::Outcome::Locked)
        link->session = ServiceBusSessionHold{acceptance.sessionId, token};
    if (link->closed) {
        releaseSession(link);   // the link went before its session was locked
        return;
    }
    switch (acceptance.outcome) {
    case Acceptance::Outcome::HeldByAnother:
        refuse(link, "com.microsoft:session-cannot-be-locked",
               "The requested session '" + acceptance.sessionId
                   + "' cannot be accepted. It may be locked by another receiver.");
        return;
    case Acceptance::Outcome::NoneAvailable:
        refuse(link, "com.microsoft:timeout",
               "No unlocked session with a message is available now; try again later.");
        return;
    case Acceptance::Outcome::Locked:
        answerSession(link->link, acceptance.sessionId, acceptance.lockedUntil);
        openLink(link);
        return;
    }
}

// The link's session is let go (its messages in flight become available);
// also when the connection is gone, so the reply goes nowhere.
void AmqpConnection::releaseSession(const LinkPtr &link)
{
    if (!link->session)
        return;
    const ServiceBusSessionHold hold = *link->session;
    link->session.reset();
    const std::string queue = link->entity.queueName;
    m_service.runUnit(unitOf<bool>(
                          [queue, hold](Database &db, ClockTime now) -> Result<bool> {
                              if (Status released = servicebus_sessions::release(db, queue, hold, now); !released)
                                  return released.error();
                              return true;
                          },
                          queue),
                      false, nullptr, [](Result<std::any>) {});
}

bool AmqpConnection::isSessionOperation(const std::string &operation)
{
    return operation == kRenewSessionLock || operation == kGetSessionState || operation == kSetSessionState
           || operation == kGetMessageSessions;
}

// renew-session-lock {"session-id"} -> {"expiration": timestamp};
// get-session-state {"session-id"} -> {"session-state": binary | null};
// set-session-state {"session-id", "session-state": binary | null};
// get-message-sessions {"last-updated-time", "skip", "top"} -> {"skip", "sessions-ids"} (204 when none).
// The first three need the session's lock held by a link of this
// connection (410 session-lock-lost otherwise).
void AmqpConnection::sessionRequest(const std::string &operation, const proton::message &request,
                                    const LinkPtr &link)
{
    const std::string queue = link->entity.queueName;
    auto failed = [request](const std::shared_ptr<AmqpConnection> &self, const BrokerError &error) {
        if (error.code == BrokerErrorCode::MessageNotInflight)
            self->respond(request, 410, error.message, kSessionLockLost);
        else if (error.code == BrokerErrorCode::QueueDoesNotExist)
            self->respond(request, 404, error.message, "com.microsoft:entity-not-found");
        else
            self->respond(request, 400, error.message, "amqp:invalid-field");
    };
    if (operation == kGetMessageSessions) {
        std::int64_t skip = 0;
        std::int64_t top = 0;
        ClockTime after{};
        try {
            skip = proton::coerce<std::int64_t>(amqp_message::requestBodyEntry(request, "skip"));
            top = proton::coerce<std::int64_t>(amqp_message::requestBodyEntry(request, "top"));
            const proton::value updated = amqp_message::requestBodyEntry(request, "last-updated-time");
            if (updated.type() == proton::TIMESTAMP)
                after = fromEpochMilliseconds(proton::get<proton::timestamp>(updated).milliseconds());
        } catch (const proton::error &) {
            respond(request, 400, "The request needs skip and top.", "amqp:invalid-field");
            return;
        }
        using Ids = std::vector<std::string>;
        m_service.runUnit(unitOf<Ids>([queue, after, skip, top](Database &db, ClockTime) {
                              return servicebus_sessions::list(db, queue, after, std::max<std::int64_t>(skip, 0),
                                                               std::clamp<std::int64_t>(top, 0, 1000));
                          }),
                          false, nullptr,
                          later<Result<std::any>>([request, skip, failed](const auto &self, Result<std::any> listed) {
                              if (!listed)
                                  return failed(self, listed.error());
                              const auto ids = std::any_cast<Ids>(*listed);
                              if (ids.empty())
                                  return self->respond(request, 204, "No sessions.", {});
                              self->respond(request, 200, "OK", {}, [&](proton::message &response) {
                                  std::map<std::string, proton::value> body;
                                  body["skip"] = static_cast<std::int32_t>(skip);
                                  body["sessions-ids"] = ids;
                                  response.body(body);
                              });
                          }));
        return;
    }
    const proton::value sessionValue = amqp_message::requestBodyEntry(request, "session-id");
    if (sessionValue.type() != proton::STRING) {
        respond(request, 400, "The request needs a session-id.", "amqp:invalid-field");
        return;
    }
    const std::string sessionId = proton::get<std::string>(sessionValue);
    std::optional<ServiceBusSessionHold> hold;
    for (const auto &[pn, held] : m_links) {
        if (!held->closed && held->session && held->session->sessionId == sessionId && held->entity.queueName == queue)
            hold = held->session;
    }
    if (!hold) {
        respond(request, 410, "The session lock has expired on the session with id '" + sessionId
                                  + "', or no receiver of this connection holds it.",
                kSessionLockLost);
        return;
    }
    // Runs `body` in a broker unit; answers 200 with the body `fill` makes
    // of its value, or the error.
    using Fill = std::function<void(std::map<std::string, proton::value> &, const std::any &)>;
    auto answer = [this, request, failed](BrokerService::UnitBody body, Fill fill) {
        m_service.runUnit(std::move(body), false, nullptr,
                          later<Result<std::any>>([request, failed, fill](const auto &self, Result<std::any> result) {
                              if (!result)
                                  return failed(self, result.error());
                              self->respond(request, 200, "OK", {}, [&](proton::message &response) {
                                  std::map<std::string, proton::value> body;
                                  fill(body, *result);
                                  response.body(body);
                              });
                          }));
    };
    if (operation == kRenewSessionLock) {
        answer(unitOf<ClockTime>([queue, hold = *hold](Database &db, ClockTime now) {
                   return servicebus_sessions::renew(db, queue, hold, now);
               }),
               [](auto &body, const std::any &until) {
                   body["expiration"] = proton::timestamp(toEpochMilliseconds(std::any_cast<ClockTime>(until)));
               });
        return;
    }
    using State = std::optional<std::string>;
    if (operation == kGetSessionState) {
        answer(unitOf<State>([queue, hold = *hold](Database &db, ClockTime now) {
                   return servicebus_sessions::state(db, queue, hold, now);
               }),
               [](auto &body, const std::any &read) {
                   const auto state = std::any_cast<State>(read);
                   body["session-state"] =
                       state ? proton::value(proton::binary(state->begin(), state->end())) : proton::value();
               });
        return;
    }
    State state;
    const proton::value given = amqp_message::requestBodyEntry(request, "session-state");
    if (given.type() == proton::BINARY) {
        const auto bytes = proton::get<proton::binary>(given);
        state = std::string(bytes.begin(), bytes.end());
    } else if (given.type() == proton::STRING) {
        state = proton::get<std::string>(given);
    }
    answer(unitOf<bool>([queue, hold = *hold, state](Database &db, ClockTime now) -> Result<bool> {
               if (Status set = servicebus_sessions::setState(db, queue, hold, state, now); !set)
                   return set.error();
               return true;
           }),
           [](auto &, const std::any &) {});
}

} // namespace relaydesk
