// SPDX-License-Identifier: MIT
#include "engine/waiter_registry.h"

#include <utility>
#include <vector>

namespace relaydesk {

WaiterRegistry::WaiterRegistry(ClockScheduler &scheduler) : m_scheduler(scheduler) {}

WaiterRegistry::~WaiterRegistry()
{
    cancelAll();
    *m_alive = false;
}

WaiterId WaiterRegistry::wait(std::string key, ClockTime deadline, Retry retry, Done done, std::optional<ClockTime> wakeAt)
{
    AsyncRetry asyncRetry = [retry = std::move(retry)](const Finished &finished) { finished(retry && retry()); };
    return waitAsync(std::move(key), deadline, std::move(asyncRetry), std::move(done), wakeAt);
}

WaiterId WaiterRegistry::waitAsync(std::string key, ClockTime deadline, AsyncRetry retry, Done done,
                                   std::optional<ClockTime> wakeAt)
{
    const WaiterId id = m_nextId++;
    Waiter waiter{std::move(key), std::move(retry), std::move(done)};
    waiter.deadlineTimer = m_scheduler.schedule(deadline, [this, id](ClockTime) {
        auto found = m_waiters.find(id);
        if (found == m_waiters.end())
            return;
        found->second.deadlineTimer = 0;
        if (found->second.attemptInFlight)
            found->second.deadlinePassed = true; // ends when the attempt reports
        else
            finish(id, WaitOutcome::DeadlineReached);
    });
    if (wakeAt && *wakeAt < deadline) {
        waiter.wakeTimer = m_scheduler.schedule(*wakeAt, [this, id](ClockTime) {
            auto found = m_waiters.find(id);
            if (found == m_waiters.end())
                return;
            found->second.wakeTimer = 0;
            retryWaiter(id);
        });
    }
    m_waiters.emplace(id, std::move(waiter));
    return id;
}

std::size_t WaiterRegistry::notify(const std::string &key)
{
    std::vector<WaiterId> ids;
    for (const auto &[id, waiter] : m_waiters) {
        if (waiter.key == key)
            ids.push_back(id);
    }
    std::size_t started = 0;
    for (WaiterId id : ids) {
        if (retryWaiter(id))
            ++started;
    }
    return started;
}

std::size_t WaiterRegistry::waitingCount(const std::string &key) const
{
    std::size_t count = 0;
    for (const auto &entry : m_waiters)
        count += entry.second.key == key ? 1 : 0;
    return count;
}

bool WaiterRegistry::retryWaiter(WaiterId id)
{
    auto found = m_waiters.find(id);
    if (found == m_waiters.end())
        return false;
    Waiter &waiter = found->second;
    if (waiter.attemptInFlight) {
        waiter.retryAgain = true;
        return false;
    }
    waiter.attemptInFlight = true;
    auto called = std::make_shared<bool>(false);
    Finished finished = [this, id, called, alive = std::weak_ptr<bool>(m_alive)](bool satisfied) {
        const std::shared_ptr<bool> registry = alive.lock();
        if (!registry || !*registry || *called)
            return; // the registry is gone, or a second call
        *called = true;
        attemptFinished(id, satisfied);
    };
    AsyncRetry retry = waiter.retry; // the waiter may end (and be erased) inside the call
    try {
        if (retry)
            retry(finished);
        else
            finished(false);
    } catch (...) {
        finished(false); // a throwing retry counts as "not yet"
    }
    return true;
}

void WaiterRegistry::attemptFinished(WaiterId id, bool satisfied)
{
    auto found = m_waiters.find(id);
    if (found == m_waiters.end())
        return; // cancelled meanwhile
    Waiter &waiter = found->second;
    waiter.attemptInFlight = false;
    if (satisfied) {
        finish(id, WaitOutcome::Satisfied);
    } else if (waiter.deadlinePassed) {
        finish(id, WaitOutcome::DeadlineReached);
    } else if (waiter.retryAgain) {
        waiter.retryAgain = false;
        retryWaiter(id);
    }
}

bool WaiterRegistry::cancel(WaiterId id)
{
    if (m_waiters.count(id) == 0)
        return false;
    finish(id, WaitOutcome::Cancelled);
    return true;
}

void WaiterRegistry::cancelAll()
{
    while (!m_waiters.empty())
        finish(m_waiters.begin()->first, WaitOutcome::Cancelled);
}

void WaiterRegistry::endAll()
{
    while (!m_waiters.empty())
        finish(m_waiters.begin()->first, WaitOutcome::DeadlineReached);
}

void WaiterRegistry::finish(WaiterId id, WaitOutcome outcome)
{
    auto found = m_waiters.find(id);
    if (found == m_waiters.end())
        return;
    Waiter waiter = std::move(found->second);
    m_waiters.erase(found);
    if (waiter.deadlineTimer != 0)
        m_scheduler.cancel(waiter.deadlineTimer);
    if (waiter.wakeTimer != 0)
        m_scheduler.cancel(waiter.wakeTimer);
    try {
        if (waiter.done)
            waiter.done(outcome);
    } catch (...) {
    }
}

} // namespace relaydesk
