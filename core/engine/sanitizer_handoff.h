// SPDX-License-Identifier: MIT
#pragma once
// Hand-offs between threads that ThreadSanitizer can see (docs/reliability.md,
// "Sanitizers").
//
// Work reaches another thread here through Qt: a queued call to an object of
// that thread, or a task of a QThreadPool. Qt orders the hand-off with its own
// futex-based locks inside libQt6Core, which is not built with
// -fsanitize=thread, so to TSan the receiving thread reads what the sender
// wrote with nothing in between: a race it reports on every reply.
//
// The functions below hand a call over the same way and tell TSan about the
// order Qt imposes: the call's state is released by the sender just before Qt
// takes it and acquired by the receiver before it runs (or is destroyed
// unrun), on the address of that state. The few words Qt's own templates
// write in between (the slot object or runnable wrapping the call, inside the
// sender's hand-off) are left unobserved; the receiver reads them only after
// Qt's hand-off, never concurrently. The call's own captures stay fully
// checked.
//
// Without -fsanitize=thread the annotations compile to nothing and each
// function is the plain Qt call.

#include <QMetaObject>
#include <QObject>
#include <QThreadPool>

#include <functional>
#include <memory>
#include <utility>

#if defined(__SANITIZE_THREAD__)
#define RELAYDESK_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define RELAYDESK_TSAN 1
#endif
#endif

#ifdef RELAYDESK_TSAN
extern "C" {
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
void __tsan_ignore_thread_begin(void);
void __tsan_ignore_thread_end(void);
}
#endif

namespace relaydesk::sanitizer_handoff {

// What this thread wrote so far is ordered before any later acquire of `token`.
inline void release([[maybe_unused]] const void *token)
{
#ifdef RELAYDESK_TSAN
    __tsan_release(const_cast<void *>(token));
#endif
}

// What the releasing threads wrote before they released `token` is ordered
// before what this thread does next.
inline void acquire([[maybe_unused]] const void *token)
{
#ifdef RELAYDESK_TSAN
    __tsan_acquire(const_cast<void *>(token));
#endif
}

// While it lives, this thread's reads and writes are not recorded: only
// around Qt's own wrapping of a handed-off call (see the top of this file).
class Unobserved final {
public:
#ifdef RELAYDESK_TSAN
    Unobserved() { __tsan_ignore_thread_begin(); }
    ~Unobserved() { __tsan_ignore_thread_end(); }
#else
    Unobserved() {} // user-provided, as a scope guard's are: never an "unused variable"
    ~Unobserved() {}
#endif
    Unobserved(const Unobserved &) = delete;
    Unobserved &operator=(const Unobserved &) = delete;
};

// A call on its way to another thread. Released when made (all its captures
// are written by then) and again when it has run; acquired before it runs
// and before it is destroyed, on whichever thread. Move-only: exactly one
// owner runs or drops it.
class HandedCall final {
public:
    explicit HandedCall(std::function<void()> call)
        : m_call(std::make_unique<std::function<void()>>(std::move(call)))
    {
        release(m_call.get());
    }
    HandedCall(HandedCall &&) noexcept = default;
    HandedCall &operator=(HandedCall &&) = delete;
    HandedCall(const HandedCall &) = delete;
    HandedCall &operator=(const HandedCall &) = delete;
    ~HandedCall()
    {
        if (m_call)
            acquire(m_call.get()); // dropped unrun (its receiver went away): freed here
    }

    // Runs the call. Whoever destroys it afterwards (the sender itself, when
    // Qt drops its last reference there) acquires what the call wrote.
    void operator()()
    {
        acquire(m_call.get());
        if (*m_call)
            (*m_call)();
        release(m_call.get());
    }

private:
    std::unique_ptr<std::function<void()>> m_call;
};

// Runs `call` on `receiver`'s thread from its event loop
// (Qt::QueuedConnection); dropped when `receiver` is deleted first.
inline void queue(QObject *receiver, std::function<void()> call)
{
#ifdef RELAYDESK_TSAN
    HandedCall handed(std::move(call));
    Unobserved unobserved;
    QMetaObject::invokeMethod(receiver, std::move(handed), Qt::QueuedConnection);
#else
    QMetaObject::invokeMethod(receiver, std::move(call), Qt::QueuedConnection);
#endif
}

// Runs `call` on `receiver`'s thread and waits until it has run
// (Qt::BlockingQueuedConnection; never from `receiver`'s own thread). What
// `call` wrote is ordered before what follows the return.
inline void queueAndWait(QObject *receiver, std::function<void()> call)
{
#ifndef RELAYDESK_TSAN
    QMetaObject::invokeMethod(receiver, std::move(call), Qt::BlockingQueuedConnection);
#else
    char finished = 0; // only its address is used: the token of the way back
    HandedCall handed([&finished, call = std::move(call)] {
        call();
        release(&finished);
    });
    {
        Unobserved unobserved;
        QMetaObject::invokeMethod(receiver, std::move(handed), Qt::BlockingQueuedConnection);
    }
    acquire(&finished);
#endif
}

// Runs `work` on a thread of `pool`.
inline void startOnPool(QThreadPool &pool, std::function<void()> work)
{
#ifdef RELAYDESK_TSAN
    Unobserved unobserved; // the pool thread reads `handed` itself before it acquires
    auto handed = std::make_shared<HandedCall>(std::move(work)); // QThreadPool copies the task
    pool.start([handed = std::move(handed)] { (*handed)(); });
#else
    pool.start(std::move(work));
#endif
}

} // namespace relaydesk::sanitizer_handoff
