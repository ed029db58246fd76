// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace relaydesk {

// The signatures a NotificationSigner made most recently, by a digest of
// what was signed (digest algorithm + canonical string). RSA PKCS#1 v1.5 is
// deterministic, so a cached signature is the one signing again would give:
// the deliveries of one message to many subscriptions, and its retries, are
// signed once. Holds at most `capacity` entries; the oldest goes first.
// Thread-safe (one mutex).
class SignatureCache final {
public:
    explicit SignatureCache(std::size_t capacity) : m_capacity(capacity) {}

    std::optional<std::string> find(const std::string &digest) const
    {
        std::lock_guard lock(m_mutex);
        const auto found = m_signatures.find(digest);
        if (found == m_signatures.end())
            return std::nullopt;
        return found->second;
    }

    void insert(const std::string &digest, const std::string &signature)
    {
        std::lock_guard lock(m_mutex);
        if (m_capacity == 0 || !m_signatures.emplace(digest, signature).second)
            return;
        m_order.push_back(digest);
        if (m_order.size() > m_capacity) {
            m_signatures.erase(m_order.front());
            m_order.pop_front();
        }
    }

    std::size_t size() const
    {
        std::lock_guard lock(m_mutex);
        return m_signatures.size();
    }

private:
    std::size_t m_capacity;
    mutable std::mutex m_mutex;
    std::unordered_map<std::string, std::string> m_signatures;
    std::deque<std::string> m_order;   // insertion order, oldest first
};

} // namespace relaydesk
