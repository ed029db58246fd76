// SPDX-License-Identifier: MIT
#pragma once

#include "connections/connection_error.h"

#include <QObject>
#include <QPointer>

#include <functional>

namespace relaydesk {

// The handle of one call on a BrokerConnection (docs/architecture.md §10).
//
//  - Its callback is called exactly once, on the thread that made the call
//    (the UI thread): with the value, with the service's error, or with
//    ConnectionError::cancelled() after cancel(). finished() follows it; the
//    call then deletes itself (deleteLater), so hold it in a QPointer.
//  - progress(done, total) during long calls (a listing page by page, a
//    purge): `total` is -1 when unknown.
//  - cancel() ends the call at once: no further request is made, a reply
//    still on its way is dropped. It undoes nothing: a request the service
//    already took (a send, a create) stays done. Cancelling a finished call
//    does nothing.
// Not copyable; lives on the thread that made it.
class ConnectionCall : public QObject {
    Q_OBJECT
public:
    explicit ConnectionCall(QObject *parent = nullptr) : QObject(parent) {}

    bool isFinished() const { return m_finished; }
    void cancel();

    // For implementations: the end of the call. Returns false when it had
    // already ended (cancelled); the callback is then not called again.
    bool end();
    void report(qint64 done, qint64 total) { emit progress(done, total); }

signals:
    void progress(qint64 done, qint64 total);
    void finished();
    void cancelled();   // for implementations: stop what runs

private:
    bool m_finished = false;
};

// A callback and its call, for implementations: `resolve` calls the callback
// once unless the call was cancelled, then ends the call.
template <class T>
class PendingCall {
public:
    using Callback = std::function<void(ConnectionResult<T>)>;

    PendingCall(ConnectionCall *call, Callback callback) : m_call(call), m_callback(std::move(callback))
    {
        QObject::connect(call, &ConnectionCall::cancelled, call, [callback = m_callback] {
            if (callback)
                callback(ConnectionResult<T>::failure(ConnectionError::cancelled()));
        });
    }

    ConnectionCall *call() const { return m_call; }
    bool live() const { return m_call && !m_call->isFinished(); }

    void resolve(ConnectionResult<T> result) const
    {
        if (!live())
            return;
        if (m_callback)
            m_callback(std::move(result));
        m_call->end();
    }
    void succeed(T value) const { resolve(ConnectionResult<T>::success(std::move(value))); }
    void fail(ConnectionError error) const { resolve(ConnectionResult<T>::failure(std::move(error))); }

private:
    QPointer<ConnectionCall> m_call;
    Callback m_callback;
};

} // namespace relaydesk
