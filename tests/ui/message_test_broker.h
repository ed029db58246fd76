// SPDX-License-Identifier: MIT
#pragma once
// The broker the message widget tests drive: a real engine and service on a
// real database file and a virtual clock (changes published at once), the
// calls the tests share, and a way to reopen the file later with the broker
// thread held (so a browse sees what the lifetime timer has not yet done).

#include "support/engine_test_support.h"

#include <QAbstractButton>
#include <QApplication>
#include <QDir>
#include <QPixmap>
#include <QWidget>

#include <future>
#include <memory>
#include <string>

namespace relaydesk::testing {

class MessageTestBroker final {
public:
    // A new broker on `file` of `dir` at clock time `start`. With `holdBrokerThread`
    // the broker thread is held (before the service arms its lifetime timer)
    // until release().
    MessageTestBroker(const QTemporaryDir &dir, const char *file, ClockTime start = kBenchStart,
                      bool holdBrokerThread = false)
    {
        m_engine = std::make_unique<BrokerEngine>(openDatabase(dir, file), m_wall, virtualClockOptions(start));
        if (holdBrokerThread) {
            std::shared_future<void> released = m_release.get_future().share();
            m_engine->post([released] { released.wait(); });
            m_held = true;
        }
        m_service = std::make_unique<BrokerService>(*m_engine, BrokerIdentity{}, std::make_unique<SequentialIdSource>());
    }
    ~MessageTestBroker()
    {
        release();
        m_service.reset();
        m_engine.reset();
    }
    MessageTestBroker(const MessageTestBroker &) = delete;
    MessageTestBroker &operator=(const MessageTestBroker &) = delete;

    void release()
    {
        if (m_held)
            m_release.set_value();
        m_held = false;
    }

    BrokerEngine &engine() { return *m_engine; }
    BrokerService &service() { return *m_service; }

    bool createQueue(const std::string &name, const AttributeMap &attributes = {})
    {
        return callAndWait<std::string>([&](auto reply) { m_service->createQueue(name, attributes, {}, nullptr, reply); })
            .ok();
    }
    Result<SendReceipt> send(const std::string &queue, const SendRequest &request)
    {
        return callAndWait<SendReceipt>([&](auto reply) { m_service->sendMessage(queue, request, nullptr, reply); });
    }
    Result<ReceiveResult> receive(const std::string &queue, int visibilityTimeout)
    {
        ReceiveRequest request;
        request.maxNumberOfMessages = 10;
        request.visibilityTimeout = visibilityTimeout;
        return callAndWait<ReceiveResult>([&](auto reply) { m_service->receiveMessage(queue, request, nullptr, reply); });
    }
    bool advance(int seconds) { return m_engine->advanceClockAndWait(std::chrono::seconds(seconds)).ok(); }
    // Every message of `queue`, browsed in one page.
    std::vector<BrowsedMessage> browse(const std::string &queue)
    {
        auto page = callAndWait<BrowsePage>(
            [&](auto reply) { m_service->browseQueue(queue, std::nullopt, 1000, nullptr, reply); });
        return page.ok() ? page->messages : std::vector<BrowsedMessage>{};
    }

private:
    ManualWallTimeSource m_wall;
    std::unique_ptr<BrokerEngine> m_engine;
    std::unique_ptr<BrokerService> m_service;
    std::promise<void> m_release;
    bool m_held = false;
};

// Saves `widget` as build/.../tests/ui/screenshots/NAME.png (to look at).
inline void saveScreenshot(QWidget *widget, const QString &name)
{
    const QString folder = QCoreApplication::applicationDirPath() + QStringLiteral("/screenshots");
    QDir().mkpath(folder);
    widget->grab().save(folder + QLatin1Char('/') + name + QStringLiteral(".png"));
}

} // namespace relaydesk::testing
