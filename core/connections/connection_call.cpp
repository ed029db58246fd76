// SPDX-License-Identifier: MIT
#include "connections/connection_call.h"

namespace relaydesk {

void ConnectionCall::cancel()
{
    if (m_finished)
        return;
    m_finished = true;   // first: a reply that an abort delivers at once now finds the call ended
    emit cancelled();    // PendingCall answers its callback with ConnectionError::cancelled()
    emit finished();
    deleteLater();
}

bool ConnectionCall::end()
{
    if (m_finished)
        return false;
    m_finished = true;
    emit finished();
    deleteLater();
    return true;
}

} // namespace relaydesk
