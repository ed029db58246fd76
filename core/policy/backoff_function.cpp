// SPDX-License-Identifier: MIT
#include "backoff_function.h"

#include <array>
#include <utility>

namespace relaydesk {

namespace {
constexpr std::array<std::pair<BackoffFunction, std::string_view>, 4> kNames = {{
    {BackoffFunction::Linear, "linear"},
    {BackoffFunction::Arithmetic, "arithmetic"},
    {BackoffFunction::Geometric, "geometric"},
    {BackoffFunction::Exponential, "exponential"},
}};
} // namespace

std::string_view backoffFunctionName(BackoffFunction function)
{
    return kNames[size_t(function)].second;
}

std::optional<BackoffFunction> parseBackoffFunction(std::string_view name)
{
    for (const auto &[function, text] : kNames) {
        if (text == name)
            return function;
    }
    return std::nullopt;
}

std::string backoffFunctionNameList()
{
    std::string list;
    for (const auto &[function, text] : kNames) {
        if (!list.empty())
            list += ", ";
        list += text;
    }
    return list;
}

} // namespace relaydesk
