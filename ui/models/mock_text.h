// SPDX-License-Identifier: MIT
#pragma once

#include "mock/mock_endpoints.h"

#include <QString>

namespace relaydesk::mock_text {

// How the window words mock endpoints and what they received (the mock
// endpoints window). Pure functions, any thread.

// The answer a request took, in the script grammar's words: "503",
// "delay 1.5 s then 200", "hang 20 s", "close".
QString stepText(const MockStep &step);
// A received request's header lines, "Name: value" one per line, in the
// order sent.
QString headersText(const MockRequest &request);
// "POST /_mock/orders?a=1": the request line a person reads.
QString requestLine(const MockRequest &request);

} // namespace relaydesk::mock_text
