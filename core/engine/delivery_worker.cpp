// SPDX-License-Identifier: MIT
#include "engine/delivery_worker.h"

#include "broker/id_source.h"
#include "broker/deliveries/pending_delivery.h"
#include "broker/deliveries/pending_delivery_outcome.h"
#include "broker/deliveries/sns_envelope.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/clock_scheduler.h"
#include "engine/delivery_attempt.h"
#include "engine/delivery_throttle_gate.h"
#include "engine/sanitizer_handoff.h"
#include "http/http_delivery_client.h"

#include <QDebug>
#include <QThreadPool>

#include <map>
#include <set>
#include <utility>
#include <vector>

namespace relaydesk {

namespace {
constexpr std::uint64_t kPruneEvery = 256; // recorded attempts between two prunings of the log
} // namespace

// Everything of the worker that lives on the broker thread. Captured by
// shared_ptr in the engine's replies; after stop() those replies do nothing.
class DeliveryWorker::Core final : public std::enable_shared_from_this<DeliveryWorker::Core> {
public:
    Core(BrokerEngine &engine, const WallTimeSource &wall, BrokerIdentity identity, DeliveryWorkerOptions options)
        : m_engine(engine), m_wall(wall), m_identity(std::move(identity)), m_options(std::move(options)),
          m_jitter(m_options.jitterFraction, m_options.jitterSeed)
    {
    }

    void start()
    {
        HttpDeliveryClientOptions client;
        client.requestTimeout = m_options.requestTimeout;
        client.extraCaFile = m_options.extraCaFile;
        m_client = std::make_unique<HttpDeliveryClient>(m_wall, client);
        // The gate's callbacks run on the broker thread while the worker runs (stop() drops it).
        m_gate = std::make_unique<DeliveryThrottleGate>(
            m_engine.scheduler(), [this](DeliveryJob job) { send(std::move(job)); },
            [this](const DeliveryJob &job, ClockTime now) { logThrottledWait(job, now); });
        m_stopped = false;
        load();
    }

    void stop()
    {
        m_stopped = true;
        if (m_timer)
            m_engine.scheduler().cancel(m_timer);
        m_timer = 0;
        m_gate.reset();
        m_due.clear();
        m_dueOf.clear();
        m_busy.clear();
        m_finished = {};   // not recorded: the rows stay pending (see stop())
        m_signing.waitForDone(); // what they post back finds the worker stopped
        m_client.reset(); // aborts requests in flight; their holds are released with them
    }

    bool running() const { return !m_stopped && m_client; }

    // Best effort (docs/behaviour.md §4.1): one POST, not retried, not logged — the
    // subscription row is already gone, so nothing can be stored for it.
    void sendOnce(const DeliveryJob &job)
    {
        if (!running())
            return;
        std::string envelope;
        const HttpDeliveryRequest http = buildDeliveryPost(job, m_identity, m_options.signEnvelope, envelope);
        const ClockTime started = m_engine.clock().now();
        // Logged like any attempt (kind unsubscribeConfirmation), not retried.
        m_client->post(http, [self = shared_from_this(), job, started,
                              hold = m_engine.holdAdvance()](HttpDeliveryResult result) mutable {
            if (!self->running())
                return;
            const AttemptReport report =
                reportAttempt(std::move(job), {}, started, result, self->m_jitter, self->m_engine.clock().now());
            self->m_engine.execute(
                [report](UnitContext &context) -> Result<bool> {
                    if (Status logged = pending_delivery_outcome::recordOneOff(context.database(), report); !logged)
                        return logged.error();
                    context.reportChange(EntityChange{EntityChange::Kind::AttemptsLogged,
                                                      EntityChange::Entity::Subscription,
                                                      QString::fromStdString(report.job.subscriptionArn)});
                    return true;
                },
                nullptr, [hold = std::move(hold)](Result<bool> logged) {
                    if (!logged)
                        qWarning("delivery worker: logging an UnsubscribeConfirmation failed: %s",
                                 logged.error().message.c_str());
                });
        });
    }

    IdSource &ids() { return *m_ids; }
    const BrokerIdentity &identity() const { return m_identity; }

    void load()
    {
        if (!running())
            return;
        if (m_loading) {
            m_reloadWanted = true;
            return;
        }
        m_loading = true;
        const std::size_t window = m_options.window;
        m_engine.execute(
            [window](Database &db, ClockTime) { return pending_deliveries::earliest(db, window); }, nullptr,
            [self = shared_from_this()](Result<std::vector<PendingDeliveryRow>> rows) { self->loaded(std::move(rows)); });
    }

private:
    void loaded(Result<std::vector<PendingDeliveryRow>> rows)
    {
        m_loading = false;
        if (!running())
            return;
        if (!rows) {
            qWarning("delivery worker: loading pending deliveries failed: %s", rows.error().message.c_str());
        } else {
            for (const PendingDeliveryRow &row : *rows) {
                if (m_busy.count(row.key))
                    continue;
                forget(row.key);
                remember(row.key, row.due);
            }
            m_truncated = rows->size() >= m_options.window;
            if (m_truncated && !rows->empty())
                m_horizon = rows->back().due;
        }
        if (m_reloadWanted) {
            m_reloadWanted = false;
            load();
            return;
        }
        arm();
    }

    void remember(PendingDeliveryKey key, ClockTime due)
    {
        if (m_truncated && due > m_horizon)
            return; // beyond the window: the next load brings it
        m_due.emplace(due, key);
        m_dueOf[key] = due;
    }

    void forget(PendingDeliveryKey key)
    {
        const auto found = m_dueOf.find(key);
        if (found == m_dueOf.end())
            return;
        m_due.erase({found->second, key});
        m_dueOf.erase(found);
    }

    // Keeps the one scheduler entry at the earliest due time.
    void arm()
    {
        if (!running())
            return;
        if (m_due.empty()) {
            if (m_timer)
                m_engine.scheduler().cancel(m_timer);
            m_timer = 0;
            if (m_truncated && m_busy.empty()) {
                m_truncated = false;
                load();
            }
            return;
        }
        const ClockTime next = m_due.begin()->first;
        if (m_timer && m_timerAt == next)
            return;
        if (m_timer)
            m_engine.scheduler().cancel(m_timer);
        m_timerAt = next;
        m_timer = m_engine.scheduler().schedule(next, [self = shared_from_this()](ClockTime now) {
            self->m_timer = 0;
            self->fire(now);
        });
    }

    void fire(ClockTime now)
    {
        if (!running())
            return;
        std::vector<PendingDeliveryKey> due;
        while (!m_due.empty() && m_due.begin()->first <= now) {
            const PendingDeliveryKey key = m_due.begin()->second;
            forget(key);
            m_busy.insert(key);
            due.push_back(key);
        }
        if (!due.empty())
            prepare(std::move(due));
        arm();
    }

    // Reads the jobs in one unit, then sends each (or ends it without an attempt).
    void prepare(std::vector<PendingDeliveryKey> keys)
    {
        BrokerIdentity identity = m_identity;
        m_engine.execute(
            [identity, keys](Database &db, ClockTime) { return pending_deliveries::loadJobs(db, identity, keys); },
            nullptr,
            [self = shared_from_this(), keys, hold = m_engine.holdAdvance()](
                Result<std::vector<std::optional<DeliveryJob>>> jobs) {
                if (!jobs)
                    qWarning("delivery worker: reading pending deliveries failed: %s", jobs.error().message.c_str());
                for (std::size_t i = 0; i < keys.size(); ++i)
                    self->prepared(keys[i], jobs ? std::move((*jobs)[i]) : std::nullopt);
            });
    }

    void prepared(PendingDeliveryKey key, std::optional<DeliveryJob> job)
    {
        if (!running())
            return;
        if (!job) {
            m_busy.erase(key);
            arm();
            return;
        }
        DeliveryJob &ready = *job;
        const ClockTime now = m_engine.clock().now();
        const bool expired = ready.expiresAt && now > *ready.expiresAt;
        const bool confirmationSpent = ready.kind == "SubscriptionConfirmation" && ready.confirmed;
        if (expired || confirmationSpent) {
            m_engine.execute(
                [ready](UnitContext &context) -> Result<bool> {
                    if (Status ended = pending_delivery_outcome::endWithoutAttempt(context.database(), ready); !ended)
                        return ended.error();
                    if (!ready.isConfirmation())
                        context.countTopic(TopicCounter::Discarded, topicNameOf(ready));
                    return true;
                },
                nullptr, [self = shared_from_this(), key](Result<bool>) {
                    self->m_busy.erase(key);
                    self->arm();
                });
            return;
        }
        m_gate->admit(std::move(ready), now);
    }

    // The "throttled-wait" row of a job held back by its throttle (docs/behaviour.md §4.4);
    // the unit runs before the attempt's own, as units run in order.
    void logThrottledWait(const DeliveryJob &job, ClockTime now)
    {
        m_engine.execute(
            [job, now, arn = QString::fromStdString(job.subscriptionArn)](UnitContext &context) -> Result<bool> {
                Result<bool> logged = pending_delivery_outcome::recordThrottledWait(context.database(), job, now);
                if (logged && *logged) {
                    context.reportChange(EntityChange{EntityChange::Kind::CountsChanged, EntityChange::Entity::Subscription, arn});
                    context.reportChange(EntityChange{EntityChange::Kind::AttemptsLogged, EntityChange::Entity::Subscription, arn});
                    if (!job.isConfirmation())
                        context.countTopic(TopicCounter::ThrottledWait, topicNameOf(job));
                }
                return logged;
            },
            nullptr, [hold = m_engine.holdAdvance()](Result<bool> logged) {
                if (!logged)
                    qWarning("delivery worker: logging a throttled wait failed: %s", logged.error().message.c_str());
            });
    }

    // Builds and POSTs the request of `job`. A signed envelope is built on
    // the signing pool (RSA 2048 costs ~0.5 ms, which would cap the broker
    // thread at ~2 000 deliveries/s) and posted back to the broker thread.
    void send(DeliveryJob job)
    {
        if (!m_options.signEnvelope) {
            std::string envelope;
            HttpDeliveryRequest http = buildDeliveryPost(job, m_identity, nullptr, envelope);
            postRequest(std::move(job), std::move(http), std::move(envelope));
            return;
        }
        sanitizer_handoff::startOnPool(m_signing, [weak = weak_from_this(), engine = &m_engine, identity = m_identity,
                         sign = m_options.signEnvelope, job = std::move(job), hold = m_engine.holdAdvance()]() mutable {
            std::string envelope;
            HttpDeliveryRequest http = buildDeliveryPost(job, identity, sign, envelope);
            engine->post([weak, job = std::move(job), http = std::move(http), envelope = std::move(envelope),
                          hold = std::move(hold)]() mutable {
                if (const std::shared_ptr<Core> self = weak.lock(); self && self->running())
                    self->postRequest(std::move(job), std::move(http), std::move(envelope));
            });
        });
    }

    void postRequest(DeliveryJob job, HttpDeliveryRequest http, std::string envelope)
    {
        const ClockTime started = m_engine.clock().now();
        m_client->post(http, [self = shared_from_this(), job = std::move(job), envelope = std::move(envelope), started,
                              hold = m_engine.holdAdvance()](HttpDeliveryResult result) mutable {
            self->finished(std::move(job), std::move(envelope), started, std::move(result), std::move(hold));
        });
    }

    void finished(DeliveryJob job, std::string envelope, ClockTime started, HttpDeliveryResult result,
                  std::shared_ptr<void> hold)
    {
        if (!running())
            return;
        m_finished.reports.push_back(
            reportAttempt(std::move(job), std::move(envelope), started, result, m_jitter, m_engine.clock().now()));
        m_finished.holds.push_back(std::move(hold));
        if (m_finished.reports.size() == 1)
            m_engine.post([self = shared_from_this()] { self->recordFinished(); });
    }

    // Records, in one unit, every attempt that finished since the last call
    // (posted once per batch, so the answers that came in one turn of the
    // event loop share a unit): the log rows, the next due times or the ends.
    void recordFinished()
    {
        if (!running() || m_finished.reports.empty())
            return;
        Finished batch = std::exchange(m_finished, {});
        const std::size_t count = batch.reports.size();
        const bool prune = (m_recorded + count) / kPruneEvery != m_recorded / kPruneEvery;
        m_recorded += count;
        std::vector<PendingDeliveryKey> keys;
        for (const AttemptReport &report : batch.reports)
            keys.push_back(report.job.key);
        m_engine.execute(
            [reports = std::move(batch.reports), ids = m_ids, prune,
             keep = m_options.retainedAttempts](UnitContext &context) -> Result<std::vector<RecordedAttempt>> {
                std::vector<RecordedAttempt> recorded;
                for (const AttemptReport &report : reports) {
                    Result<RecordedAttempt> one =
                        pending_delivery_outcome::record(context.database(), *ids, report, context.now());
                    if (!one)
                        return one.error();
                    reportChanges(context, report, *one);
                    countAttempt(context, report, *one);
                    recorded.push_back(*one);
                }
                if (prune) {
                    if (Result<std::int64_t> pruned = attempt_log::prune(context.database(), keep); !pruned)
                        return pruned.error();
                }
                return recorded;
            },
            nullptr,
            [self = shared_from_this(), keys = std::move(keys), holds = std::move(batch.holds)](
                Result<std::vector<RecordedAttempt>> recorded) {
                if (!recorded)
                    qWarning("delivery worker: recording attempts failed: %s", recorded.error().message.c_str());
                for (std::size_t i = 0; i < keys.size(); ++i)
                    self->recorded(keys[i], recorded ? std::optional<RecordedAttempt>((*recorded)[i]) : std::nullopt);
            });
    }

    // EntityChange{CountsChanged} of the subscription and, when the message
    // was dead-lettered, of its dead-letter queue; AttemptsLogged of the
    // subscription when a row was logged.
    static void reportChanges(UnitContext &context, const AttemptReport &report, const RecordedAttempt &recorded)
    {
        const QString arn = QString::fromStdString(report.job.subscriptionArn);
        context.reportChange(EntityChange{EntityChange::Kind::CountsChanged, EntityChange::Entity::Subscription, arn});
        if (recorded.recorded)
            context.reportChange(EntityChange{EntityChange::Kind::AttemptsLogged, EntityChange::Entity::Subscription, arn});
        if (recorded.end == DeliveryEnd::DeadLettered && report.job.deadLetterTargetArn) {
            if (const std::optional<ArnParts> queue = splitArn(*report.job.deadLetterTargetArn))
                context.reportChange(EntityChange{EntityChange::Kind::CountsChanged, EntityChange::Entity::Queue,
                                                  QString::fromStdString(queue->resource)});
        }
    }

    // BrokerMetrics: a notification's attempt by outcome, and its end when
    // dead-lettered or discarded, on its topic.
    static void countAttempt(UnitContext &context, const AttemptReport &report, const RecordedAttempt &recorded)
    {
        if (!recorded.recorded || report.job.isConfirmation())
            return;
        const std::string topic = topicNameOf(report.job);
        context.countTopic(topicCounterOf(report.outcome), topic);
        if (recorded.end)
            if (const std::optional<TopicCounter> end = topicCounterOf(*recorded.end))
                context.countTopic(*end, topic);
    }

    static std::string topicNameOf(const DeliveryJob &job)
    {
        const std::optional<ArnParts> arn = splitArn(job.topicArn);
        return arn ? arn->resource : job.topicArn;
    }

    // `recorded` empty: recording failed (warned); the row stays stored and
    // the next load brings it back.
    void recorded(PendingDeliveryKey key, std::optional<RecordedAttempt> recorded)
    {
        if (!running())
            return;
        m_busy.erase(key);
        if (recorded && recorded->nextDue)
            remember(key, *recorded->nextDue);
        arm();
    }

    BrokerEngine &m_engine;
    const WallTimeSource &m_wall;
    BrokerIdentity m_identity;
    DeliveryWorkerOptions m_options;
    JitterSampler m_jitter;
    std::shared_ptr<RandomIdSource> m_ids = std::make_shared<RandomIdSource>();
    std::unique_ptr<HttpDeliveryClient> m_client;
    QThreadPool m_signing;                                      // builds signed requests (see send())
    bool m_stopped = true;

    std::set<std::pair<ClockTime, PendingDeliveryKey>> m_due;   // the window, earliest first
    std::map<PendingDeliveryKey, ClockTime> m_dueOf;
    std::set<PendingDeliveryKey> m_busy;                        // being read, throttled, in flight or recorded
    bool m_truncated = false;                                   // the store holds rows beyond m_horizon
    ClockTime m_horizon{};
    bool m_loading = false;
    bool m_reloadWanted = false;
    ClockTimerId m_timer = 0;
    ClockTime m_timerAt{};
    std::unique_ptr<DeliveryThrottleGate> m_gate;
    struct Finished {
        std::vector<AttemptReport> reports;         // answered, not yet recorded
        std::vector<std::shared_ptr<void>> holds;   // their virtual-clock holds
    } m_finished;
    std::uint64_t m_recorded = 0;
};

DeliveryWorker::DeliveryWorker(BrokerEngine &engine, const WallTimeSource &wall, BrokerIdentity identity,
                               DeliveryWorkerOptions options)
    : m_core(std::make_shared<Core>(engine, wall, std::move(identity), std::move(options))), m_engine(engine)
{
}

DeliveryWorker::~DeliveryWorker()
{
    stop();
}

void DeliveryWorker::start()
{
    if (m_started)
        return;
    m_started = true;
    m_engine.postAndWait([core = m_core] { core->start(); });
}

void DeliveryWorker::stop()
{
    if (!m_started)
        return;
    m_started = false;
    m_engine.postAndWait([core = m_core] { core->stop(); });
}

void DeliveryWorker::wake()
{
    m_engine.post([core = m_core] { core->load(); });
}

void DeliveryWorker::sendUnsubscribeConfirmation(UnsubscribedEndpoint unsubscribed)
{
    m_engine.post([core = m_core, unsubscribed = std::move(unsubscribed), &engine = m_engine] {
        DeliveryJob job;
        job.kind = "UnsubscribeConfirmation";
        job.messageId = core->ids().newMessageId();
        job.topicArn = unsubscribed.topicArn;
        job.subscriptionArn = unsubscribed.subscriptionArn;
        job.endpoint = unsubscribed.endpoint;
        job.confirmationToken = unsubscribed.token;
        job.message = confirmationMessage(job.kind, unsubscribed.subscriptionArn);
        job.published = engine.clock().now();
        job.due = job.published;
        core->sendOnce(job);
    });
}

} // namespace relaydesk
