// SPDX-License-Identifier: MIT
#pragma once

#include <QEvent>
#include <QObject>

namespace relaydesk::testing {

// Installed on the application (QCoreApplication::installEventFilter), counts
// the queued calls (QEvent::MetaCall) the main thread's objects receive: how
// many times replies woke the thread.
class QueuedCallCounter final : public QObject {
public:
    int calls = 0;
    bool eventFilter(QObject *, QEvent *event) override
    {
        if (event->type() == QEvent::MetaCall)
            ++calls;
        return false;
    }
};

} // namespace relaydesk::testing
