// SPDX-License-Identifier: MIT
#pragma once

#include "broker_error.h"

#include <cassert>
#include <type_traits>
#include <utility>
#include <variant>

namespace relaydesk {

// The outcome of a broker rule: a value or a BrokerError (leveldb's Status,
// with a payload). Errors are values at every layer boundary; nothing in
// core/broker throws across it. A moved-from Result keeps its alternative.
// Plain value type; not synchronised (like any value).
//
//   Result<QueueAttributes> parsed = parseQueueAttributes(name, map);
//   if (!parsed) return parsed.error();
//   use(parsed.value());
template <typename T>
class [[nodiscard]] Result final {
    static_assert(!std::is_same_v<std::decay_t<T>, BrokerError>, "Result<BrokerError> would be ambiguous");

public:
    Result(T value) : m_state(std::in_place_index<0>, std::move(value)) {}              // NOLINT: implicit by design
    Result(BrokerError error) : m_state(std::in_place_index<1>, std::move(error)) {}    // NOLINT: implicit by design

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }

    // Precondition: ok().
    const T &value() const & { assert(ok()); return std::get<0>(m_state); }
    T &value() & { assert(ok()); return std::get<0>(m_state); }
    T &&value() && { assert(ok()); return std::get<0>(std::move(m_state)); }
    const T &operator*() const & { return value(); }
    T &operator*() & { return value(); }
    const T *operator->() const { return &value(); }
    T *operator->() { return &value(); }

    // Precondition: !ok().
    const BrokerError &error() const { assert(!ok()); return std::get<1>(m_state); }

private:
    std::variant<T, BrokerError> m_state;
};

// Success without a value, or an error.
template <>
class [[nodiscard]] Result<void> final {
public:
    Result() = default;
    Result(BrokerError error) : m_error(std::move(error)), m_ok(false) {}   // NOLINT: implicit by design

    bool ok() const { return m_ok; }
    explicit operator bool() const { return ok(); }

    // Precondition: !ok().
    const BrokerError &error() const { assert(!ok()); return m_error; }

private:
    BrokerError m_error;
    bool m_ok = true;
};

using Status = Result<void>;

} // namespace relaydesk
