// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <variant>

namespace relaydesk::test {

// The error message a std::variant<T, QString> result holds, or nothing
// (for QVERIFY2's message, which is evaluated whether or not the check fails).
template <typename Result>
QString problemOf(const Result &result)
{
    const QString *problem = std::get_if<QString>(&result);
    return problem ? *problem : QString();
}

} // namespace relaydesk::test
