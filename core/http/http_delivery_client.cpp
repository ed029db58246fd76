// SPDX-License-Identifier: MIT
#include "http/http_delivery_client.h"

#include "broker/wall_time_source.h"
#include "http/http1_connection.h"
#include "http/http1_request.h"

#include <QPointer>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QSslSocket>
#include <QTimer>

#include <algorithm>

namespace relaydesk {

// A posted request until its callback runs: waiting in its pool, or on a connection.
struct HttpDeliveryClient::Delivery {
    OriginPool *pool = nullptr;            // null when it failed before reaching a pool
    QByteArray wire;                       // until sent
    Callback done;
    std::chrono::steady_clock::time_point started{};
    Http1Connection *connection = nullptr; // while connecting, sending or awaiting the response
};

// The connections of one lane to one origin and the requests waiting for one.
struct HttpDeliveryClient::OriginPool {
    Http1Origin origin;
    std::vector<Http1Connection *> connections; // all open ones (children of the client)
    std::vector<Http1Connection *> idle;        // a stack: the most recently used on top
    std::deque<std::uint64_t> waiting;          // post() order
};

HttpDeliveryClient::HttpDeliveryClient(const WallTimeSource &wall, HttpDeliveryClientOptions options, QObject *parent)
    : QObject(parent), m_wall(wall), m_options(std::move(options)), m_deadlineTimer(new QTimer(this))
{
    m_deadlineTimer->setSingleShot(true);
    m_deadlineTimer->setTimerType(Qt::PreciseTimer);
    QObject::connect(m_deadlineTimer, &QTimer::timeout, this, [this] { expireDeadlines(); });
}

HttpDeliveryClient::~HttpDeliveryClient()
{
    for (auto &[key, pool] : m_pools)
        for (Http1Connection *connection : pool->connections)
            delete connection; // closes without callbacks
    m_pools.clear();
    m_deliveries.clear(); // callbacks dropped, never called
}

void HttpDeliveryClient::post(const HttpDeliveryRequest &request, Callback done)
{
    const std::uint64_t id = ++m_nextId;
    auto delivery = std::make_unique<Delivery>();
    delivery->done = std::move(done);
    delivery->started = m_wall.steadyNow();
    Delivery &entry = *m_deliveries.emplace(id, std::move(delivery)).first->second;
    m_deadlines.emplace_back(QDeadlineTimer(m_options.requestTimeout), id);
    armDeadlineTimer();

    m_posting = true;
    std::string error;
    if (std::optional<Http1Request> http = http1PostFor(request, error)) {
        std::unique_ptr<OriginPool> &pool = m_pools[http->origin.key() + '\n' + request.lane];
        if (!pool) {
            pool = std::make_unique<OriginPool>();
            pool->origin = std::move(http->origin);
        }
        entry.pool = pool.get();
        entry.wire = std::move(http->wire);
        dispatch(*pool, id);
    } else {
        HttpDeliveryResult result;
        result.failure = HttpDeliveryResult::Failure::ConnectionError;
        result.errorText = std::move(error);
        complete(id, std::move(result));
    }
    m_posting = false;
}

// Onto an idle connection whose peer is still there, else a new one, else the queue.
void HttpDeliveryClient::dispatch(OriginPool &pool, std::uint64_t id)
{
    while (!pool.idle.empty()) {
        Http1Connection *connection = pool.idle.back();
        pool.idle.pop_back();
        if (connection->reusable()) {
            startOn(*connection, id);
            return;
        }
        drop(pool, *connection);
    }
    if (pool.connections.size() >= kMaxConnectionsPerOrigin) {
        pool.waiting.push_back(id);
        return;
    }
    ++m_connectionsOpened;
    Http1ResponseParser::Limits limits;
    limits.maxKeptBodyBytes = m_options.maxBodyBytes;
    auto *connection = new Http1Connection(
        pool.origin, pool.origin.tls ? tlsConfiguration() : nullptr, limits,
        [this](Http1Connection &done, Http1Outcome outcome) { onFinished(done, std::move(outcome)); },
        [this, &pool](Http1Connection &closed) { drop(pool, closed); }, this);
    pool.connections.push_back(connection);
    startOn(*connection, id);
}

void HttpDeliveryClient::startOn(Http1Connection &connection, std::uint64_t id)
{
    Delivery &delivery = *m_deliveries.at(id);
    delivery.connection = &connection;
    connection.send(std::move(delivery.wire), id);
    delivery.wire = QByteArray();
}

void HttpDeliveryClient::onFinished(Http1Connection &connection, Http1Outcome outcome)
{
    const std::uint64_t id = connection.tag();
    const auto found = m_deliveries.find(id);
    if (found == m_deliveries.end() || found->second->connection != &connection)
        return; // cannot happen: a timed-out request's connection is closed first
    OriginPool &pool = *found->second->pool;
    found->second->connection = nullptr;
    if (connection.idle()) {
        pool.idle.push_back(&connection);
        if (!pool.waiting.empty()) {
            const std::uint64_t next = pool.waiting.front();
            pool.waiting.pop_front();
            dispatch(pool, next);
        }
    } else {
        drop(pool, connection);
    }
    HttpDeliveryResult result;
    result.httpStatus = outcome.status;
    result.errorText = std::move(outcome.errorText);
    if (!outcome.status)
        result.failure = HttpDeliveryResult::Failure::ConnectionError;
    complete(id, std::move(result));
}

// Forgets a closed (or unusable idle) connection of `pool`; a waiting request may take its place.
void HttpDeliveryClient::drop(OriginPool &pool, Http1Connection &connection)
{
    connection.close();
    const auto it = std::find(pool.connections.begin(), pool.connections.end(), &connection);
    if (it == pool.connections.end())
        return;
    pool.connections.erase(it);
    pool.idle.erase(std::remove(pool.idle.begin(), pool.idle.end(), &connection), pool.idle.end());
    connection.deleteLater(); // we may be inside one of its socket's signals
    startWaiting(pool);
}

void HttpDeliveryClient::startWaiting(OriginPool &pool)
{
    if (pool.waiting.empty() || pool.connections.size() >= kMaxConnectionsPerOrigin)
        return;
    const std::uint64_t next = pool.waiting.front();
    pool.waiting.pop_front();
    dispatch(pool, next);
}

// Deadlines are in post() order: the expired ones are at the front; entries
// of requests already done are skipped.
void HttpDeliveryClient::expireDeadlines()
{
    const QPointer<HttpDeliveryClient> alive(this); // a callback may destroy the client
    while (!m_deadlines.empty() && m_deadlines.front().first.hasExpired()) {
        const std::uint64_t id = m_deadlines.front().second;
        m_deadlines.pop_front();
        const auto found = m_deliveries.find(id);
        if (found == m_deliveries.end())
            continue;
        Delivery &delivery = *found->second;
        if (delivery.connection) {
            drop(*delivery.pool, *delivery.connection); // a connection with a half-done exchange is never reused
            delivery.connection = nullptr;
        } else if (delivery.pool) {
            auto &waiting = delivery.pool->waiting;
            waiting.erase(std::remove(waiting.begin(), waiting.end(), id), waiting.end());
        }
        HttpDeliveryResult result;
        result.failure = HttpDeliveryResult::Failure::Timeout;
        result.errorText = "no complete response within " + std::to_string(m_options.requestTimeout.count()) + " ms";
        complete(id, std::move(result));
        if (!alive)
            return;
    }
    armDeadlineTimer();
}

void HttpDeliveryClient::armDeadlineTimer()
{
    while (!m_deadlines.empty() && !m_deliveries.count(m_deadlines.front().second))
        m_deadlines.pop_front(); // done already
    if (m_deadlines.empty()) {
        m_deadlineTimer->stop();
    } else if (!m_deadlineTimer->isActive()) { // an early wake-up only re-arms
        m_deadlineTimer->start(std::chrono::milliseconds(m_deadlines.front().first.remainingTime() + 1));
    }
}

// Runs the callback of request `id` (deferred when inside post()).
void HttpDeliveryClient::complete(std::uint64_t id, HttpDeliveryResult result)
{
    if (m_posting) {
        QMetaObject::invokeMethod(
            this, [this, id, result = std::move(result)]() mutable { complete(id, std::move(result)); },
            Qt::QueuedConnection);
        return;
    }
    const auto found = m_deliveries.find(id);
    if (found == m_deliveries.end())
        return;
    const std::unique_ptr<Delivery> delivery = std::move(found->second);
    m_deliveries.erase(found);
    result.duration = std::chrono::duration_cast<std::chrono::milliseconds>(m_wall.steadyNow() - delivery->started);
    delivery->done(std::move(result)); // last: it may post() again
}

const QSslConfiguration *HttpDeliveryClient::tlsConfiguration()
{
    if (!m_tls) {
        m_tls = std::make_unique<QSslConfiguration>(QSslConfiguration::defaultConfiguration());
        if (!m_options.extraCaFile.empty())
            m_tls->addCaCertificates(QSslCertificate::fromPath(QString::fromStdString(m_options.extraCaFile)));
    }
    return m_tls.get();
}

} // namespace relaydesk
