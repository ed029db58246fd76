// SPDX-License-Identifier: MIT
#include "http/tls_server_context.h"

#include <openssl/err.h>
#include <csignal>
#include <openssl/ssl.h>

namespace relaydesk {

namespace {

QString openSslError(const QString &what)
{
    const unsigned long code = ERR_get_error();
    ERR_clear_error();
    if (code == 0)
        return what;
    char text[256];
    ERR_error_string_n(code, text, sizeof text);
    return what + QStringLiteral(" (") + QString::fromLatin1(text) + QLatin1Char(')');
}

} // namespace

std::variant<std::shared_ptr<const TlsServerContext>, QString> TlsServerContext::load(const QString &certificateFile,
                                                                                       const QString &keyFile)
{
    ERR_clear_error();
    SSL_CTX *context = SSL_CTX_new(TLS_server_method());
    if (!context)
        return openSslError(QStringLiteral("OpenSSL could not make a TLS context"));
    std::shared_ptr<const TlsServerContext> made(new TlsServerContext(context));
    SSL_CTX_set_min_proto_version(context, TLS1_2_VERSION);
    // Writes of part of a buffer, and the rest from a moved buffer (the connection's output shrinks as it goes).
    SSL_CTX_set_mode(context, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
    SSL_CTX_set_options(context, SSL_OP_NO_RENEGOTIATION);
    if (SSL_CTX_use_certificate_chain_file(context, certificateFile.toLocal8Bit().constData()) != 1)
        return openSslError(QStringLiteral("%1: not a readable PEM certificate").arg(certificateFile));
    if (SSL_CTX_use_PrivateKey_file(context, keyFile.toLocal8Bit().constData(), SSL_FILETYPE_PEM) != 1)
        return openSslError(QStringLiteral("%1: not a readable PEM private key").arg(keyFile));
    if (SSL_CTX_check_private_key(context) != 1)
        return openSslError(QStringLiteral("%1 is not the private key of the certificate in %2").arg(keyFile, certificateFile));
    return made;
}

TlsServerContext::~TlsServerContext() { SSL_CTX_free(m_context); }

TlsSession::TlsSession(const TlsServerContext &context, int descriptor) : m_ssl(SSL_new(context.context()))
{
    // OpenSSL writes to the socket with write(), which raises SIGPIPE on a
    // gone client (plain connections send with MSG_NOSIGNAL); `serve` ignores
    // it anyway, the window and tests from the first TLS connection on.
    [[maybe_unused]] static const bool ignored = std::signal(SIGPIPE, SIG_IGN) != SIG_ERR;
    if (m_ssl) {
        SSL_set_fd(m_ssl, descriptor);
        SSL_set_accept_state(m_ssl);
    }
}

TlsSession::~TlsSession() { SSL_free(m_ssl); }

TlsSession::Wait TlsSession::waitFor(int result)
{
    const int error = SSL_get_error(m_ssl, result);
    ERR_clear_error();
    switch (error) {
    case SSL_ERROR_WANT_READ:
        return Wait::Read;
    case SSL_ERROR_WANT_WRITE:
        return Wait::Write;
    case SSL_ERROR_ZERO_RETURN:
        return Wait::Closed;
    case SSL_ERROR_SYSCALL:
        return result == 0 ? Wait::Closed : Wait::Failed; // a FIN without close_notify, or a reset
    default:
        return Wait::Failed;
    }
}

TlsSession::Wait TlsSession::handshake()
{
    if (!m_ssl)
        return Wait::Failed;
    if (m_established)
        return Wait::Nothing;
    const int result = SSL_do_handshake(m_ssl);
    if (result == 1) {
        m_established = true;
        return Wait::Nothing;
    }
    const Wait wait = waitFor(result);
    return wait == Wait::Closed ? Wait::Failed : wait;
}

std::size_t TlsSession::read(char *buffer, std::size_t size, Wait &wait)
{
    std::size_t got = 0;
    const int result = SSL_read_ex(m_ssl, buffer, size, &got);
    wait = result == 1 ? Wait::Nothing : waitFor(result);
    return result == 1 ? got : 0;
}

std::size_t TlsSession::write(const char *data, std::size_t size, Wait &wait)
{
    std::size_t sent = 0;
    const int result = SSL_write_ex(m_ssl, data, size, &sent);
    wait = result == 1 ? Wait::Nothing : waitFor(result);
    return result == 1 ? sent : 0;
}

bool TlsSession::hasBuffered() const { return m_ssl && SSL_pending(m_ssl) > 0; }

void TlsSession::close()
{
    if (m_ssl && m_established) {
        (void)SSL_shutdown(m_ssl);
        ERR_clear_error();
    }
}

} // namespace relaydesk
