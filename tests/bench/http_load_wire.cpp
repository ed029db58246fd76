// SPDX-License-Identifier: MIT
#include "http_load_wire.h"

#include <cctype>
#include <chrono>
#include <fstream>

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

namespace relaydesk::bench {

std::optional<LoadEndpoint> parseEndpoint(const std::string &url)
{
    std::string rest = url;
    if (rest.rfind("http://", 0) == 0)
        rest = rest.substr(7);
    while (!rest.empty() && rest.back() == '/')
        rest.pop_back();
    const auto colon = rest.rfind(':');
    if (colon == std::string::npos)
        return std::nullopt;
    LoadEndpoint endpoint;
    endpoint.host = rest.substr(0, colon);
    endpoint.port = std::atoi(rest.c_str() + colon + 1);
    if (endpoint.port <= 0)
        return std::nullopt;
    return endpoint;
}

std::string sqsJsonRequest(const LoadEndpoint &endpoint, const std::string &action, const std::string &json)
{
    // The header set botocore 1.3x sends for the SQS JSON protocol.
    std::string request;
    request.reserve(json.size() + 700);
    request += "POST / HTTP/1.1\r\nHost: ";
    request += endpoint.host + ":" + std::to_string(endpoint.port);
    request += "\r\nAccept-Encoding: identity\r\nX-Amz-Target: AmazonSQS.";
    request += action;
    request += "\r\nContent-Type: application/x-amz-json-1.0\r\n"
               "User-Agent: Boto3/1.34.0 md/Botocore#1.34.0 ua/2.0 os/linux#6.1 md/arch#x86_64 lang/python#3.11.2 "
               "md/pyimpl#CPython cfg/retry-mode#legacy Botocore/1.34.0\r\n"
               "X-Amz-Date: 20261122T072800Z\r\n"
               "Authorization: AWS4-HMAC-SHA256 Credential=test/20261122/us-east-1/sqs/aws4_request, "
               "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
               "Signature=0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef\r\n"
               "amz-sdk-invocation-id: 6b7c2a4e-2f4e-4c52-9c1f-0d6e8c3b1a27\r\n"
               "amz-sdk-request: attempt=1\r\nContent-Length: ";
    request += std::to_string(json.size());
    request += "\r\n\r\n";
    request += json;
    return request;
}

std::string sqsQueryRequest(const LoadEndpoint &endpoint, const std::string &form)
{
    std::string request;
    request.reserve(form.size() + 200);
    request += "POST / HTTP/1.1\r\nHost: " + endpoint.host + ":" + std::to_string(endpoint.port) +
               "\r\nAccept-Encoding: identity\r\nContent-Type: application/x-www-form-urlencoded; charset=utf-8\r\n"
               "Content-Length: " + std::to_string(form.size()) + "\r\n\r\n";
    request += form;
    return request;
}

std::string formEncoded(const std::string &text)
{
    static const char *hex = "0123456789ABCDEF";
    std::string encoded;
    for (const unsigned char c : text) {
        if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
            encoded += char(c);
        } else {
            encoded += '%';
            encoded += hex[c >> 4];
            encoded += hex[c & 15];
        }
    }
    return encoded;
}

std::string loadBody(std::uint64_t serial)
{
    std::string body = "m" + std::to_string(serial) + "-";
    body.resize(256, 'x');
    return body;
}

std::int64_t nowNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

std::string loadAverage()
{
    std::ifstream file("/proc/loadavg");
    std::string one, five, fifteen;
    file >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

bool readLoadOption(const std::string &name, const char *value, std::string &queue, int &connections,
                    double &duration)
{
    if (name == "--queue")
        queue = value;
    else if (name == "--connections")
        connections = std::atoi(value);
    else if (name == "--duration")
        duration = std::atof(value);
    else
        return false;
    return true;
}

LoadConnection::~LoadConnection()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

bool LoadConnection::send(std::string request)
{
    m_out = std::move(request);
    m_written = 0;
    m_busy = true;
    m_status = 0;
    m_body.clear();
    return flush();
}

bool LoadConnection::flush()
{
    while (m_written < m_out.size()) {
        const ssize_t n = ::send(m_fd, m_out.data() + m_written, m_out.size() - m_written, MSG_NOSIGNAL);
        if (n > 0) {
            m_written += std::size_t(n);
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return true;
        if (n < 0 && errno == EINTR)
            continue;
        m_failed = true;
        return false;
    }
    return true;
}

bool LoadConnection::readResponse()
{
    char buffer[65536];
    for (;;) {
        const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
        if (n > 0) {
            m_in.append(buffer, std::size_t(n));
            continue;
        }
        if (n == 0) {
            m_failed = true;
            return false;
        }
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            break;
        m_failed = true;
        return false;
    }
    return parse();
}

bool LoadConnection::parse()
{
    const auto headerEnd = m_in.find("\r\n\r\n");
    if (headerEnd == std::string::npos)
        return false;
    if (m_in.size() < 12 || m_in.compare(0, 5, "HTTP/") != 0) {
        m_failed = true;
        return false;
    }
    m_status = std::atoi(m_in.c_str() + 9);
    std::size_t length = 0;
    bool haveLength = false;
    std::size_t line = m_in.find("\r\n") + 2;
    while (line < headerEnd) {
        const std::size_t next = m_in.find("\r\n", line);
        if (next - line > 15 && ::strncasecmp(m_in.c_str() + line, "content-length:", 15) == 0) {
            length = std::size_t(std::strtoull(m_in.c_str() + line + 15, nullptr, 10));
            haveLength = true;
        }
        line = next + 2;
    }
    if (!haveLength) {   // the bench needs framed responses (no chunked encoding)
        m_failed = true;
        return false;
    }
    const std::size_t total = headerEnd + 4 + length;
    if (m_in.size() < total)
        return false;
    m_body.assign(m_in, headerEnd + 4, length);
    m_in.erase(0, total);
    m_busy = false;
    return true;
}

int connectTo(const LoadEndpoint &endpoint)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return -1;
    sockaddr_in address = {};
    address.sin_family = AF_INET;
    address.sin_port = htons(std::uint16_t(endpoint.port));
    if (::inet_pton(AF_INET, endpoint.host.c_str(), &address.sin_addr) != 1
        || ::connect(fd, reinterpret_cast<sockaddr *>(&address), sizeof address) != 0) {
        ::close(fd);
        return -1;
    }
    const int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
    return fd;
}

std::optional<std::string> exchangeOnce(const LoadEndpoint &endpoint, const std::string &action,
                                        const std::string &json, int *status)
{
    return exchangeRequest(endpoint, sqsJsonRequest(endpoint, action, json), status);
}

std::string zaqarRequest(const LoadEndpoint &endpoint, const std::string &method, const std::string &path,
                         const std::string &json)
{
    std::string request;
    request.reserve(json.size() + 400);
    request += method + " /v2/" + path + " HTTP/1.1\r\nHost: " + endpoint.host + ":" + std::to_string(endpoint.port);
    request += "\r\nAccept-Encoding: identity\r\nAccept: application/json\r\n"
               "User-Agent: python-zaqarclient\r\n"
               "Client-ID: 3381af92-2b9e-11e3-b191-71861300734c\r\nX-Project-Id: bench\r\n";
    if (!json.empty())
        request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(json.size()) + "\r\n";
    else
        request += "Content-Length: 0\r\n";
    request += "\r\n";
    request += json;
    return request;
}

std::optional<std::string> exchangeRequest(const LoadEndpoint &endpoint, const std::string &request, int *status)
{
    const int fd = connectTo(endpoint);
    if (fd < 0)
        return std::nullopt;
    LoadConnection connection(fd);
    if (!connection.send(request))
        return std::nullopt;
    for (;;) {
        pollfd waiting = {fd, short(POLLIN | (connection.wantsWrite() ? POLLOUT : 0)), 0};
        if (::poll(&waiting, 1, 30000) <= 0)
            return std::nullopt;
        if (connection.wantsWrite() && !connection.flush())
            return std::nullopt;
        if (connection.readResponse())
            break;
        if (connection.failed())
            return std::nullopt;
    }
    if (status)
        *status = connection.status();
    return connection.body();
}

} // namespace relaydesk::bench
