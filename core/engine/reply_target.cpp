// SPDX-License-Identifier: MIT
#include "engine/reply_target.h"

#include "engine/sanitizer_handoff.h"

#include <QObject>
#include <QThread>

#include <mutex>

namespace relaydesk {

namespace reply_mailbox {

// One per thread that made a ReplyTarget. `anchor` lives on that thread until
// the thread ends; it is cleared under `mutex` before it is deleted, and
// posts hold `mutex`, so a post never reaches a deleted anchor.
struct Mailbox {
    std::mutex mutex;
    QObject *anchor = nullptr;
};

namespace {

struct ThreadMailbox {
    std::shared_ptr<Mailbox> mailbox = std::make_shared<Mailbox>();
    std::unique_ptr<QObject> anchor = std::make_unique<QObject>();

    ThreadMailbox() { mailbox->anchor = anchor.get(); }
    ~ThreadMailbox()
    {
        {
            std::lock_guard lock(mailbox->mutex);
            mailbox->anchor = nullptr;
        }
        anchor.reset(); // drops what was posted and not yet run
    }
};

std::shared_ptr<Mailbox> currentThreadMailbox()
{
    thread_local ThreadMailbox mine;
    return mine.mailbox;
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
    sanitizer_handoff::queue(m_mailbox->anchor, [context = m_context, call = std::move(call)] {
        if (context) // on the context's thread: it cannot be deleted meanwhile
            call();
    });
}

} // namespace relaydesk
