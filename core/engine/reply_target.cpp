// SPDX-License-Identifier: MIT
#include "engine/reply_target.h"

#include "engine/sanitizer_handoff.h"

#include <QObject>
#include <QThread>

#include <algorithm>
#include <mutex>
#include <vector>

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

// The replies a ReplyBatch holds, per receiving thread's mailbox in the
// order each mailbox was first posted to.
struct ReplyBatch::Held {
    struct ForMailbox {
        std::shared_ptr<reply_mailbox::Mailbox> mailbox;
        std::vector<std::function<void()>> calls;
    };
    std::vector<ForMailbox> mailboxes;

    void add(const std::shared_ptr<reply_mailbox::Mailbox> &mailbox, std::function<void()> call)
    {
        auto it = std::find_if(mailboxes.begin(), mailboxes.end(),
                               [&](const ForMailbox &held) { return held.mailbox == mailbox; });
        if (it == mailboxes.end())
            it = mailboxes.insert(mailboxes.end(), ForMailbox{mailbox, {}});
        it->calls.push_back(std::move(call));
    }
};

namespace {
thread_local ReplyBatch::Held *t_heldReplies = nullptr; // the outermost ReplyBatch of this thread
}

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
    auto guarded = [context = m_context, call = std::move(call)] {
        if (context) // on the context's thread: it cannot be deleted meanwhile
            call();
    };
    if (t_heldReplies != nullptr) {
        t_heldReplies->add(m_mailbox, std::move(guarded));
        return;
    }
    std::lock_guard lock(m_mailbox->mutex);
    if (m_mailbox->anchor == nullptr)
        return; // the context's thread has ended
    sanitizer_handoff::queue(m_mailbox->anchor, std::move(guarded));
}

ReplyBatch::ReplyBatch()
{
    if (t_heldReplies != nullptr)
        return; // joins the outer scope
    m_held = std::make_unique<Held>();
    t_heldReplies = m_held.get();
}

ReplyBatch::~ReplyBatch()
{
    if (!m_held)
        return;
    t_heldReplies = nullptr;
    for (Held::ForMailbox &held : m_held->mailboxes) {
        std::lock_guard lock(held.mailbox->mutex);
        if (held.mailbox->anchor == nullptr)
            continue; // the receiving thread has ended
        sanitizer_handoff::queue(held.mailbox->anchor, [calls = std::move(held.calls)] {
            for (const std::function<void()> &call : calls) {
                try {
                    call();
                } catch (...) {
                    // a reply is caller code: one that throws does not cost the others theirs
                }
            }
        });
    }
}

} // namespace relaydesk
