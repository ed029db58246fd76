// SPDX-License-Identifier: MIT
#pragma once

#include <QPointer>

#include <functional>
#include <memory>

class QObject;
class QThread;

namespace relaydesk {

namespace reply_mailbox {
struct Mailbox;
}

// Where the reply to a broker request goes: the requesting context's thread,
// and only while the context lives. Replies are produced on other threads
// (the broker thread, pool threads); the context may be deleted on its own
// thread at any moment meanwhile (a window closing, a client hanging up).
//
// A reply is therefore never posted to the context itself — that would read
// a deleted object when the deletion wins the race — but to a per-thread
// mailbox object that lives as long as its thread, and the context is checked
// there, on its own thread, where its deletion cannot interleave.
//
// Contract: made on the context's own thread (every caller of the broker's
// request functions is). Made on another thread, it falls back to posting to
// the context directly, which is safe only while the context outlives the
// reply. Copyable; `post` may be called from any thread.
class ReplyTarget final {
public:
    ReplyTarget() = default; // no context: replies run where they are produced
    explicit ReplyTarget(QObject *context);

    bool hasContext() const { return m_hasContext; }
    // The context has been destroyed (a hint from any thread; exact on the context's thread).
    bool gone() const { return m_hasContext && m_context.isNull(); }
    // The context's thread is `thread` (the thread the target was made on).
    bool livesOn(const QThread *thread) const { return m_hasContext && m_thread == thread; }
    // The context while it lives, else null (exact only on the context's thread).
    QObject *context() const { return m_context.data(); }

    // Without a context: runs `call` now, on this thread. With one: queues it
    // to the context's thread, where it runs only if the context still lives.
    void post(std::function<void()> call) const;

private:
    QPointer<QObject> m_context;
    std::shared_ptr<reply_mailbox::Mailbox> m_mailbox; // null when made off the context's thread
    const QThread *m_thread = nullptr;
    bool m_hasContext = false;
};

// While one lives on a thread, the replies that thread posts through
// ReplyTargets are held, and handed over when it ends: one queued call per
// receiving thread, running that thread's replies in the order they were
// posted (each still only while its context lives). The broker thread opens
// one around each drain of the commit queue, so a thread that waits on many
// replies of one commit (an HTTP thread serving many connections) is woken
// once per commit, not once per reply; the replies still leave only after
// their commit. Replies to targets made off their context's thread are not
// held. A scope opened inside another joins the outer one. Thread: used only
// on the thread that made it.
class ReplyBatch final {
public:
    ReplyBatch();
    ~ReplyBatch();
    ReplyBatch(const ReplyBatch &) = delete;
    ReplyBatch &operator=(const ReplyBatch &) = delete;

    struct Held;

private:
    std::unique_ptr<Held> m_held; // null for a scope inside another
};

} // namespace relaydesk
