// SPDX-License-Identifier: MIT
#include "connections/connection_call.h"

namespace relaydesk {

void ConnectionCall::cancel()
{
    if (m_finished)
        return;
    emit cancelled();   // PendingCall answers its callback with ConnectionError::cancelled()
    end();
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
