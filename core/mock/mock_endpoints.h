// SPDX-License-Identifier: MIT
#pragma once

#include "broker/clock_time.h"
#include "broker/deliveries/mock_endpoint_records.h"
#include "broker/result.h"
#include "http/http_reply.h"
#include "http/http_request.h"
#include "broker/deliveries/mock_script.h"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

class QObject;

namespace relaydesk {

class BrokerEngine;
class Clock;
class Database;

// One request a mock endpoint received, as recorded.
struct MockRequest {
    std::string method;                                        // "GET", "POST", ...
    std::string target;                                        // path and query as sent, e.g. "/_mock/orders?a=1"
    std::vector<std::pair<std::string, std::string>> headers;  // in the order sent, names as sent
    std::string body;                                          // the first kRecordedBodyBytes of it
    std::uint64_t bodySize = 0;                                // the whole body's size in bytes
    ClockTime received{};                                      // broker clock time
    MockStep answer;                                           // the script step the request took
    std::uint64_t number = 0;                                  // 1, 2, … since the script was set
};

// One mock endpoint as listed.
struct MockEndpointSummary {
    std::string name;
    std::string script;            // as written
    std::uint64_t requestCount = 0; // requests since the script was set (also those no longer recorded)

    bool operator==(const MockEndpointSummary &) const = default;
};

// The broker's scriptable test endpoints (docs/behaviour.md §4.7), served at
// http://HOST:PORT/_mock/NAME (and /_mock/NAME/anything, for endpoints that
// want a path of their own). Each endpoint follows its MockScript (see
// mock_script.h for the grammar) request by request and records what it
// received: the last `recordLimit` requests, oldest first. Memory is bounded
// whatever clients send: a recorded body keeps its first kRecordedBodyBytes
// (and its whole size), and the recorded requests of all endpoints together
// keep at most kRecordedBytes — past that the oldest recorded request of any
// endpoint is forgotten first (its request count stays).
//
// Serving: the HTTP server that owns the port calls handle() from its route
// dispatch before its own routing. Answers go through the request's
// ReplyChannel; "close" and "hang" drop its connection.
// Delays and hangs are wall time (QTimer on the socket's thread), not broker
// clock time: they are about real sockets, and a virtual clock would never
// release them. Timers are parented to the connection, so a connection the client
// drops first cancels them; an endpoint removed or replaced meanwhile does not
// stop an answer already scheduled.
//
// Names: 1–80 characters of A–Z a–z 0–9 . _ - (InvalidParameterValue
// otherwise). An unknown name under /_mock/ answers 404 with the header
// X-Relaydesk-Error: mock endpoint NAME does not exist (the attempt log
// keeps those words, docs/behaviour.md §4.4).
//
// Kept (keepIn): the endpoints are part of the user's set-up and live in the
// broker's store (broker/deliveries/mock_endpoint_records.h), written in units
// of the broker thread, the store's only writer: a set or remove is written
// in the order it was made (the forms with a reply answer after its commit,
// the others are committed in the background with the next group commit),
// and so is each request's place in the script (its request count), so a
// restart goes on where the script was. What they received is not kept.
//
// Ownership: does not own the Clock (which must outlive it) nor the sockets;
// borrows the engine it is kept in (which must outlive it).
// Thread-safety: handle() runs on the thread of the server's sockets (the HTTP
// server's thread). set/remove/list/find/received/clearReceived may be called
// from any thread (one mutex guards the endpoints); revision() too, without
// the mutex.
class MockEndpoints final {
public:
    static constexpr std::size_t kDefaultRecordLimit = 1000;
    static constexpr std::size_t kRecordedBodyBytes = 64 * 1024;
    static constexpr std::size_t kRecordedBytes = 64 * 1024 * 1024;
    static constexpr std::string_view kPathPrefix = "/_mock/";

    explicit MockEndpoints(const Clock &clock, std::size_t recordLimit = kDefaultRecordLimit,
                           std::size_t recordedBytes = kRecordedBytes);
    MockEndpoints(const MockEndpoints &) = delete;
    MockEndpoints &operator=(const MockEndpoints &) = delete;
    ~MockEndpoints();

    // Loads the endpoints stored in `engine`'s database (their scripts and
    // places in them) and from then on writes every change there. Once,
    // before serving; not on the broker thread. A store failure is its error.
    Status keepIn(BrokerEngine &engine);
    // Takes over endpoints a unit already stored (a config file applied,
    // mock_endpoint_records::declare): one whose script is unchanged goes on
    // as it was, the others start afresh. Nothing is written.
    void adopt(const std::vector<StoredMockEndpoint> &stored);

    // Creates endpoint `name`, or replaces its script; either way it starts
    // afresh (first step, no requests recorded). Errors: InvalidParameterValue
    // for a bad name or a script that does not parse (nothing changes).
    Status set(std::string_view name, std::string_view script);
    // The same; `committed` gets the refusal at once, or the store's answer
    // once the change is committed (posted to `context`'s thread).
    void set(std::string_view name, std::string_view script, QObject *context,
             std::function<void(Status)> committed);
    // Deletes `name`; false when there is no such endpoint.
    bool remove(std::string_view name);
    // The same; `committed` gets whether there was one, once its removal is
    // committed (at once when there was none), on `context`'s thread.
    void remove(std::string_view name, QObject *context, std::function<void(Result<bool>)> committed);

    std::vector<MockEndpointSummary> list() const;    // by name
    std::optional<MockEndpointSummary> find(std::string_view name) const;
    // The recorded requests of `name`, oldest first. ResourceNotFound when
    // there is no such endpoint.
    Result<std::vector<MockRequest>> received(std::string_view name) const;
    // Forgets the recorded requests (the script goes on where it was).
    Status clearReceived(std::string_view name);

    // Goes up on every change: an endpoint set or removed, a request
    // received, requests cleared. A viewer polls it (lock-free, any thread)
    // and reads list()/received() only when it moved.
    std::uint64_t revision() const { return m_revision.load(std::memory_order_acquire); }

    // The URL path of endpoint `name`: "/_mock/NAME".
    static std::string pathOf(std::string_view name);

    // Serves `request` if its path is under /_mock/: records it, takes the
    // endpoint's next step on `socket` and returns true. Returns false for any
    // other path (the server routes it on). `channel` answers on the
    // connection the request came on.
    bool handle(const HttpRequest &request, ReplyChannel channel);

private:
    struct Recorded {
        MockRequest request;
        std::uint64_t order = 0; // across all endpoints: which to forget first
        std::size_t bytes = 0;   // what it holds, roughly
    };
    struct Endpoint {
        MockScript script;
        std::uint64_t requestCount = 0;
        std::deque<Recorded> requests;
    };

    // Records `request` and picks its step; nothing when `name` is unknown.
    std::optional<MockStep> take(const std::string &name, MockRequest request);
    // Callers hold m_mutex.
    Status setLocked(std::string_view name, std::string_view script);
    bool removeLocked(std::string_view name);
    // Runs `change` in a unit of the engine it is kept in, after every change
    // written before it; `done` gets the store's answer on `context`'s thread
    // (null: none wanted). Not kept: `done` gets success at once. Under m_mutex,
    // so that the store sees the changes in the order memory did.
    void write(std::function<Status(Database &)> change, QObject *context, std::function<void(Status)> done);
    void forget(Endpoint &endpoint);
    void forgetOldestBeyondBytes();

    const Clock *m_clock = nullptr;
    BrokerEngine *m_engine = nullptr; // set once by keepIn, before serving
    std::size_t m_recordLimit = kDefaultRecordLimit;
    std::size_t m_recordedLimit = kRecordedBytes;
    std::size_t m_recordedBytes = 0;  // guarded by m_mutex
    std::uint64_t m_nextOrder = 0;    // guarded by m_mutex
    mutable std::mutex m_mutex;
    std::map<std::string, Endpoint, std::less<>> m_endpoints; // guarded by m_mutex
    std::atomic<std::uint64_t> m_revision{0};                 // bumped after each change, under m_mutex
};

} // namespace relaydesk
