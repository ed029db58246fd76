// SPDX-License-Identifier: MIT
#include "models/remote_entity.h"

#include <QCoreApplication>

namespace relaydesk {

QString remoteKindWord(int kind)
{
    static const char *const kWords[] = {QT_TRANSLATE_NOOP("RemoteEntity", "Queue"),
                                         QT_TRANSLATE_NOOP("RemoteEntity", "Topic"),
                                         QT_TRANSLATE_NOOP("RemoteEntity", "Subscription"),
                                         QT_TRANSLATE_NOOP("RemoteEntity", "Service Bus queue"),
                                         QT_TRANSLATE_NOOP("RemoteEntity", "Service Bus topic"),
                                         QT_TRANSLATE_NOOP("RemoteEntity", "Service Bus subscription"),
                                         QT_TRANSLATE_NOOP("RemoteEntity", "Zaqar queue")};
    if (kind < 0 || kind >= static_cast<int>(std::size(kWords)))
        return {};
    return QCoreApplication::translate("RemoteEntity", kWords[kind]);
}

} // namespace relaydesk
