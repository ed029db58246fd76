// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

#include <cstddef>
#include <memory>
#include <variant>

struct ssl_ctx_st;
struct ssl_st;

namespace relaydesk {

// The server side of TLS for the HTTP transport (OpenSSL libssl): a
// certificate chain and its key loaded once, TLS 1.2 and 1.3 only. Shared by
// every connection that chooses TLS (Http1ServerConnection).
// Ownership: owns the SSL_CTX. Thread: any (OpenSSL's context is shared read-only).
class TlsServerContext final {
public:
    // From PEM files; why not (unreadable, not PEM, the key not the certificate's).
    static std::variant<std::shared_ptr<const TlsServerContext>, QString> load(const QString &certificateFile,
                                                                                const QString &keyFile);
    ~TlsServerContext();
    TlsServerContext(const TlsServerContext &) = delete;
    TlsServerContext &operator=(const TlsServerContext &) = delete;

    ssl_ctx_st *context() const { return m_context; }

private:
    explicit TlsServerContext(ssl_ctx_st *context) : m_context(context) {}
    ssl_ctx_st *m_context = nullptr;
};

// One connection's TLS over its non-blocking descriptor, server side.
// Each call does what it can without blocking and says what it waits for.
// Ownership: owns the SSL object, borrows the descriptor. Thread: its connection's.
class TlsSession final {
public:
    enum class Wait { Nothing, Read, Write, Closed, Failed };

    TlsSession(const TlsServerContext &context, int descriptor);
    ~TlsSession();
    TlsSession(const TlsSession &) = delete;
    TlsSession &operator=(const TlsSession &) = delete;

    // The handshake; Nothing once it is done.
    Wait handshake();
    bool established() const { return m_established; }
    // Decrypted bytes into `buffer`: the count (> 0), or 0 with what it waits for
    // (Closed: the client's close_notify or FIN).
    std::size_t read(char *buffer, std::size_t size, Wait &wait);
    // Encrypts and sends from `data`: the count taken (> 0), or 0 with what it waits for.
    std::size_t write(const char *data, std::size_t size, Wait &wait);
    // Decrypted bytes already read from the socket and not yet handed out.
    bool hasBuffered() const;
    // Sends close_notify (best effort, never waits).
    void close();

private:
    Wait waitFor(int result);

    ssl_st *m_ssl = nullptr;
    bool m_established = false;
};

} // namespace relaydesk
