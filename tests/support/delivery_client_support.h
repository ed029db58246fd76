// SPDX-License-Identifier: MIT
#pragma once
// Test helper (header-only) of the HttpDeliveryClient tests.

#include "http/http_delivery_client.h"

#include <QEventLoop>

#include <optional>

namespace relaydesk::testing {

// Posts `request` and runs an event loop until its callback came.
inline HttpDeliveryResult postAndWait(HttpDeliveryClient &client, const HttpDeliveryRequest &request)
{
    std::optional<HttpDeliveryResult> result;
    QEventLoop loop;
    client.post(request, [&](HttpDeliveryResult done) {
        result = std::move(done);
        loop.quit();
    });
    if (!result)
        loop.exec();
    return *result;
}

} // namespace relaydesk::testing
