// SPDX-License-Identifier: MIT
#include "mock/mock_endpoints.h"

#include "broker/clock.h"
#include "broker/echoed_value.h"

#include <QTimer>
#include <QUrl>

#include <algorithm>
#include <memory>

namespace relaydesk {

namespace {

using Code = BrokerErrorCode;

BrokerError notFound(std::string_view name)
{
    return BrokerError(Code::ResourceNotFound, "no mock endpoint \"" + std::string(name) + "\"");
}

MockRequest describe(const HttpRequest &request)
{
    MockRequest recorded;
    recorded.method = request.method().toStdString();
    const QUrl url = request.url();
    recorded.target = url.path(QUrl::FullyEncoded).toStdString();
    if (url.hasQuery())
        recorded.target += "?" + url.query(QUrl::FullyEncoded).toStdString();
    for (const auto &[name, value] : request.headers())
        recorded.headers.emplace_back(name.toStdString(), value.toStdString());
    const QByteArray &body = request.body();
    recorded.bodySize = static_cast<std::uint64_t>(body.size());
    qsizetype kept = std::min<qsizetype>(body.size(), static_cast<qsizetype>(MockEndpoints::kRecordedBodyBytes));
    while (kept < body.size() && kept > 0 && (static_cast<unsigned char>(body[kept]) & 0xC0) == 0x80)
        --kept; // never split a UTF-8 sequence
    recorded.body = body.left(kept).toStdString();
    return recorded;
}

void answer(ReplyChannel &channel, int status, const QByteArray &body,
            std::vector<std::pair<QByteArray, QByteArray>> headers = {})
{
    channel.send(HttpReply{status, "text/plain", std::move(headers), body});
}

} // namespace

MockEndpoints::MockEndpoints(const Clock &clock, std::size_t recordLimit, std::size_t recordedBytes)
    : m_clock(&clock), m_recordLimit(std::max<std::size_t>(recordLimit, 1)), m_recordedLimit(recordedBytes)
{
}

MockEndpoints::~MockEndpoints() = default;

std::string MockEndpoints::pathOf(std::string_view name)
{
    return std::string(kPathPrefix) + std::string(name);
}

Status MockEndpoints::set(std::string_view name, std::string_view script)
{
    const std::lock_guard lock(m_mutex);
    return setLocked(name, script);
}

Status MockEndpoints::setLocked(std::string_view name, std::string_view script)
{
    if (Status valid = mock_endpoint_records::checkName(name); !valid)
        return valid;
    Result<MockScript> parsed = parseMockScript(script);
    if (!parsed)
        return parsed.error();
    if (const auto found = m_endpoints.find(name); found != m_endpoints.end())
        forget(found->second);
    m_endpoints.insert_or_assign(std::string(name), Endpoint{std::move(*parsed), 0, {}});
    m_revision.fetch_add(1, std::memory_order_release);
    write([name = std::string(name), script = std::string(script)](Database &db) {
        return mock_endpoint_records::put(db, name, script);
    }, nullptr, {});
    return {};
}

bool MockEndpoints::remove(std::string_view name)
{
    const std::lock_guard lock(m_mutex);
    return removeLocked(name);
}

bool MockEndpoints::removeLocked(std::string_view name)
{
    const auto found = m_endpoints.find(name);
    if (found == m_endpoints.end())
        return false;
    forget(found->second);
    m_endpoints.erase(found);
    m_revision.fetch_add(1, std::memory_order_release);
    write([name = std::string(name)](Database &db) -> Status {
        Result<bool> removed = mock_endpoint_records::remove(db, name);
        return removed ? Status() : Status(removed.error());
    }, nullptr, {});
    return true;
}

std::vector<MockEndpointSummary> MockEndpoints::list() const
{
    const std::lock_guard lock(m_mutex);
    std::vector<MockEndpointSummary> summaries;
    summaries.reserve(m_endpoints.size());
    for (const auto &[name, endpoint] : m_endpoints)
        summaries.push_back({name, endpoint.script.text, endpoint.requestCount});
    return summaries;
}

std::optional<MockEndpointSummary> MockEndpoints::find(std::string_view name) const
{
    const std::lock_guard lock(m_mutex);
    const auto found = m_endpoints.find(name);
    if (found == m_endpoints.end())
        return std::nullopt;
    return MockEndpointSummary{found->first, found->second.script.text, found->second.requestCount};
}

Result<std::vector<MockRequest>> MockEndpoints::received(std::string_view name) const
{
    const std::lock_guard lock(m_mutex);
    const auto found = m_endpoints.find(name);
    if (found == m_endpoints.end())
        return notFound(name);
    std::vector<MockRequest> requests;
    requests.reserve(found->second.requests.size());
    for (const Recorded &recorded : found->second.requests)
        requests.push_back(recorded.request);
    return requests;
}

Status MockEndpoints::clearReceived(std::string_view name)
{
    const std::lock_guard lock(m_mutex);
    const auto found = m_endpoints.find(name);
    if (found == m_endpoints.end())
        return notFound(name);
    forget(found->second);
    m_revision.fetch_add(1, std::memory_order_release);
    return {};
}

std::optional<MockStep> MockEndpoints::take(const std::string &name, MockRequest request)
{
    const std::lock_guard lock(m_mutex);
    const auto found = m_endpoints.find(name);
    if (found == m_endpoints.end())
        return std::nullopt;
    Endpoint &endpoint = found->second;
    const MockStep step = endpoint.script.stepFor(endpoint.requestCount++);
    request.answer = step;
    request.number = endpoint.requestCount;
    write([name, script = endpoint.script.text, count = endpoint.requestCount](Database &db) {
        return mock_endpoint_records::setRequestCount(db, name, script, count);
    }, nullptr, {});
    std::size_t bytes = request.method.size() + request.target.size() + request.body.size();
    for (const auto &[header, value] : request.headers)
        bytes += header.size() + value.size();
    endpoint.requests.push_back(Recorded{std::move(request), m_nextOrder++, bytes});
    m_recordedBytes += bytes;
    while (endpoint.requests.size() > m_recordLimit) {
        m_recordedBytes -= endpoint.requests.front().bytes;
        endpoint.requests.pop_front();
    }
    forgetOldestBeyondBytes();
    m_revision.fetch_add(1, std::memory_order_release);
    return step;
}

void MockEndpoints::forget(Endpoint &endpoint)
{
    for (const Recorded &recorded : endpoint.requests)
        m_recordedBytes -= recorded.bytes;
    endpoint.requests.clear();
}

// While over the bound, the endpoint whose oldest recorded request is the
// oldest of all forgets it (a scan over the endpoints: they are few).
void MockEndpoints::forgetOldestBeyondBytes()
{
    while (m_recordedBytes > m_recordedLimit) {
        Endpoint *oldest = nullptr;
        for (auto &[name, endpoint] : m_endpoints) {
            if (!endpoint.requests.empty()
                && (oldest == nullptr || endpoint.requests.front().order < oldest->requests.front().order))
                oldest = &endpoint;
        }
        if (oldest == nullptr)
            return;
        m_recordedBytes -= oldest->requests.front().bytes;
        oldest->requests.pop_front();
    }
}

bool MockEndpoints::handle(const HttpRequest &request, ReplyChannel channel)
{
    const QString path = request.url().path();
    const QString prefix = QString::fromLatin1(kPathPrefix.data(), static_cast<qsizetype>(kPathPrefix.size()));
    if (!path.startsWith(prefix) && path != prefix.chopped(1))
        return false;
    const QString name = path.mid(prefix.size()).section(QLatin1Char('/'), 0, 0);

    MockRequest recorded = describe(request);
    recorded.received = m_clock->now();
    const std::optional<MockStep> step = take(name.toStdString(), std::move(recorded));
    if (!step) {
        const std::string asked = name.toStdString();
        const QByteArray echoed = QByteArray::fromStdString(echoedValue(asked));
        const QByteArray why = mock_endpoint_records::checkName(asked) ? "mock endpoint " + echoed + " does not exist"
                                                                       : "no mock endpoint has that name (not a valid name)";
        answer(channel, 404, "no mock endpoint \"" + echoed + "\"\n", {{kBrokerErrorHeader, why}});
        return true;
    }

    const QByteArray body = "mock " + name.toUtf8() + ": " + QByteArray::number(step->status) + "\n";
    switch (step->action) {
    case MockAction::Respond:
        if (step->delay.count() == 0) {
            answer(channel, step->status, body);
        } else if (QObject *connection = channel.context()) {
            QTimer::singleShot(step->delay, connection, [channel, status = step->status, body]() mutable {
                answer(channel, status, body);
            });
        }
        break;
    case MockAction::Hang:
        if (QObject *connection = channel.context())
            QTimer::singleShot(step->delay, connection, [channel]() mutable { channel.abort(); });
        break;
    case MockAction::Close:
        channel.abort();
        break;
    }
    return true;
}

} // namespace relaydesk
