// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QUrl>

namespace relaydesk {

// A Service Bus connection string as Azure's portal and the emulator give it:
// `Endpoint=sb://HOST[:PORT]/;SharedAccessKeyName=NAME;SharedAccessKey=KEY`
// with `UseDevelopmentEmulator=true` for the emulator (or Relaydesk).
// Pairs are `;`-separated, names case-insensitive, the key's value kept whole
// (it may hold `=`). `error` names what is missing or wrong; nothing else is set then.
struct ServiceBusConnectionString {
    QString host;            // from Endpoint
    int port = -1;           // from Endpoint, -1 when none
    QString keyName;
    QString key;
    bool developmentEmulator = false;
    QString error;

    // The management API's URL: https://HOST (Azure), or for the emulator
    // http://HOST:5300 (the emulator's; Relaydesk's --sb-management-port default).
    QUrl managementUrl() const;
};

ServiceBusConnectionString readServiceBusConnectionString(const QString &text);

} // namespace relaydesk
