// SPDX-License-Identifier: MIT
#include "engine/reply_target.h"

#include "engine/sanitizer_handoff.h"

#include <QObject>
#include <QThread>

#include <deque>
#include <functional>
#include <mutex>

namespace relaydesk {

namespace reply_mailbox {

// One per thread that made a ReplyTarget. `anchor` lives on that thread until
// the thread ends; it is cleared under `mutex` before it is deleted, and
// posts hold `mutex`, so a post never reaches a deleted anchor.
//
// Replies wait in `pending`, oldest first, and one queued drain runs them on
// the anchor's thread: a commit's replies to one thread cost one cross-thread
// wake-up and one event, not one per reply. A drain is queued whenever none is
// queued and not yet started, so a reply posted while a drain runs (even
// inside a nested event loop of one of its calls) is run by that drain or by
// the next one, in order.
struct Mailbox {
    std::mutex mutex;
    QObject *anchor = nullptr;
    std::deque<std::function<void()>> pending;
    bool drainQueued = false;
};

namespace {

struct ThreadMailbox {
    std::shared_ptr<Mailbox> mailbox = std::make_shared<Mailbox>();
    std::unique_ptr<QObject> anchor = std::make_unique<QObject>();

    ThreadMailbox() { mailbox->anchor = anchor.get(); }
    ~ThreadMailbox()
    {
        std::deque<std::function<void()>> dropped; // what was posted and not yet run
        {
            std::lock_guard lock(mailbox->mutex);
            mailbox->anchor = nullptr;
            dropped.swap(mailbox->pending);
        }
        anchor.reset(); // and the queued drain
    }
};

std::shared_ptr<Mailbox> currentThreadMailbox()
{
    thread_local ThreadMailbox mine;
    return mine.mailbox;
}

// On the anchor's thread: runs the pending replies, one at a time, oldest first.
void drain(Mailbox &mailbox)
{
    {
        std::lock_guard lock(mailbox.mutex);
        mailbox.drainQueued = false;
    }
    for (;;) {
        std::function<void()> call;
        {
            std::lock_guard lock(mailbox.mutex);
            if (mailbox.pending.empty())
                return;
            call = std::move(mailbox.pending.front());
            mailbox.pending.pop_front();
        }
        call();
    }
}

} // namespace

} // namespace reply_mailbox

ReplyTarget::ReplyTarget(QObject *context)
    : m_context(context),
      m_hasContext(context != nullptr)
{
    if (context == nullptr)
        return;
    m_thread = context->thread();
    if (m_thread == QThread::currentThread())
        m_mailbox = reply_mailbox::currentThreadMailbox();
}

void ReplyTarget::post(std::function<void()> call) const
{
    if (!m_hasContext) {
        call();
        return;
    }
    if (!m_mailbox) {
        if (QObject *object = m_context.data())
            sanitizer_handoff::queue(object, std::move(call));
        return;
    }
    std::lock_guard lock(m_mailbox->mutex);
    if (m_mailbox->anchor == nullptr)
        return; // the context's thread has ended
    m_mailbox->pending.push_back([context = m_context, call = std::move(call)] {
        if (context) // on the context's thread: it cannot be deleted meanwhile
            call();
    });
    if (!m_mailbox->drainQueued) {
        m_mailbox->drainQueued = true;
        sanitizer_handoff::queue(m_mailbox->anchor,
                                 [mailbox = std::weak_ptr<reply_mailbox::Mailbox>(m_mailbox)] {
                                     if (const auto alive = mailbox.lock())
                                         reply_mailbox::drain(*alive);
                                 });
    }
}

} // namespace relaydesk
