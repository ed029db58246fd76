// SPDX-License-Identifier: MIT
#include "models/ui_resources.h"

#include <QtGlobal>
#include <QDir>

// Q_INIT_RESOURCE must be used outside any namespace.
static void initRelaydeskResources()
{
    Q_INIT_RESOURCE(relaydesk);
}

namespace relaydesk {

void ensureUiResources()
{
    static const bool once = (initRelaydeskResources(), true);
    (void)once;
}

} // namespace relaydesk
