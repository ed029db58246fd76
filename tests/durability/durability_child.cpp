// SPDX-License-Identifier: MIT
// The broker process the durability tests start, kill and restart (not a
// test itself). It opens a database file the way the application does
// (Database::open read-write, BrokerEngine, BrokerService), creates the
// queues "durable" and "durable.fifo" if missing, and sends with several
// producer threads. Each line on stdout is written with one write(2) of less
// than PIPE_BUF bytes, only after the reply said OK, so a line the test has
// read is an acknowledged send, whole, even if the process is killed.
//
//   durability_child send DB ROUND PRODUCERS [CHECKPOINT_PAGES]
//                                              sends forever (until killed)
//   durability_child hold DB                   sends one message, prints "ready",
//                                              waits for EOF on stdin, stops cleanly
//   durability_child fill DB LIMIT PRODUCERS   RLIMIT_FSIZE=LIMIT bytes, SIGXFSZ ignored;
//                                              sends large messages until every producer
//                                              saw 3 failures, prints "full", lifts the
//                                              limit, prints "space", sends 3 more each
//                                              and a receive + delete, stops cleanly
//
// Lines: "ack std ROUND P C MESSAGEID", "ack fifo ROUND P C GROUP SEQ MESSAGEID",
// "fail std|fifo ROUND P C ERRORNAME MESSAGE...", "refused KIND MESSAGE", and the
// markers above. Bodies: "std r=ROUND p=P c=C" / "fifo r=ROUND p=P c=C g=GROUP"
// (fill mode pads them to 16 KiB with '.'). Exit 0 after a clean stop, 2 when
// the database was refused, 3 on a setup failure.
#include "support/call_and_wait.h"

#include "broker/id_source.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/broker_service.h"
#include "store/database.h"

#include <QCoreApplication>
#include <QMetaObject>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <csignal>
#include <sys/resource.h>
#include <unistd.h>

using namespace relaydesk;
using relaydesk::testing::callAndWait;

namespace {

constexpr int kGroups = 3;
constexpr std::size_t kFillBodyBytes = 16 * 1024;

void emitLine(std::string line)
{
    line += '\n';
    const char *data = line.data();
    std::size_t left = line.size();
    while (left > 0) {
        const ssize_t written = ::write(STDOUT_FILENO, data, left);
        if (written <= 0)
            std::_Exit(4); // the reader is gone
        data += written;
        left -= std::size_t(written);
    }
}

std::string oneLine(std::string text)
{
    for (char &c : text)
        c = (c == '\n' || c == '\r') ? ' ' : c;
    return text;
}

class Producer final {
public:
    Producer(BrokerService &service, int round, int index, std::size_t bodyBytes)
        : m_service(service), m_round(round), m_index(index), m_bodyBytes(bodyBytes)
    {
    }

    // One standard and one FIFO send; false when either failed.
    bool sendPair()
    {
        const std::string prefix = " r=" + std::to_string(m_round) + " p=" + std::to_string(m_index) +
                                   " c=" + std::to_string(m_counter);
        const std::string position = std::to_string(m_round) + " " + std::to_string(m_index) + " " +
                                     std::to_string(m_counter);
        bool ok = true;
        {
            SendRequest request;
            request.body = pad("std" + prefix);
            auto sent = callAndWait<SendReceipt>(
                [&](auto reply) { m_service.sendMessage("durable", request, nullptr, reply); });
            if (sent)
                emitLine("ack std " + position + " " + sent->messageId);
            else
                ok = fail("std", position, sent.error());
        }
        {
            const std::string group = "g" + std::to_string(m_counter % kGroups);
            SendRequest request;
            request.body = pad("fifo" + prefix + " g=" + group);
            request.groupId = group;
            auto sent = callAndWait<SendReceipt>(
                [&](auto reply) { m_service.sendMessage("durable.fifo", request, nullptr, reply); });
            if (sent)
                emitLine("ack fifo " + position + " " + group + " " + std::to_string(sent->sequenceNumber.value_or(-1)) +
                         " " + sent->messageId);
            else
                ok = fail("fifo", position, sent.error());
        }
        ++m_counter;
        return ok;
    }

private:
    std::string pad(std::string body) const
    {
        if (body.size() < m_bodyBytes)
            body.append(m_bodyBytes - body.size(), '.');
        return body;
    }

    static bool fail(const char *kind, const std::string &position, const BrokerError &error)
    {
        emitLine(std::string("fail ") + kind + " " + position + " " + std::string(error.info().name) + " " +
                 oneLine(error.message));
        return false;
    }

    BrokerService &m_service;
    int m_round = 0;
    int m_index = 0;
    std::size_t m_bodyBytes = 0;
    long m_counter = 0;
};

bool createQueues(BrokerService &service)
{
    for (const auto &[name, attributes] :
         std::vector<std::pair<std::string, AttributeMap>>{
             {"durable", {}}, {"durable.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}}}}) {
        auto url = callAndWait<std::string>(
            [&](auto reply) { service.createQueue(name, attributes, {}, nullptr, reply); });
        if (!url) {
            emitLine("setup-failed createQueue " + name + ": " + oneLine(url.error().message));
            return false;
        }
    }
    return true;
}

// Sends forever from `producers` threads; never returns (the test kills us).
void sendForever(BrokerService &service, int round, int producers)
{
    std::vector<std::thread> threads;
    for (int p = 0; p < producers; ++p) {
        threads.emplace_back([&service, round, p] {
            Producer producer(service, round, p, 0);
            for (;;)
                producer.sendPair();
        });
    }
    for (std::thread &thread : threads)
        thread.join();
}

// Sends one message, says "ready" and waits for EOF on stdin.
void holdUntilStdinCloses(BrokerService &service)
{
    Producer producer(service, 0, 0, 0);
    producer.sendPair();
    emitLine("ready");
    char buffer[64];
    while (::read(STDIN_FILENO, buffer, sizeof buffer) > 0) {
    }
}

void fillTheDisk(BrokerService &service, int producers)
{
    std::vector<std::unique_ptr<Producer>> all;
    for (int p = 0; p < producers; ++p)
        all.push_back(std::make_unique<Producer>(service, 0, p, kFillBodyBytes));
    auto runAll = [&all](auto body) {
        std::vector<std::thread> threads;
        for (auto &producer : all)
            threads.emplace_back([&producer, &body] { body(*producer); });
        for (std::thread &thread : threads)
            thread.join();
    };
    runAll([](Producer &producer) {
        int failedPairs = 0; // go on failing a little: a full disk must keep failing cleanly
        for (int i = 0; i < 100000 && failedPairs < 3; ++i)
            failedPairs += producer.sendPair() ? 0 : 1;
    });
    emitLine("full");

    rlimit limit{};
    getrlimit(RLIMIT_FSIZE, &limit);
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
        emitLine("setup-failed cannot lift RLIMIT_FSIZE");
    emitLine("space");
    runAll([](Producer &producer) {
        for (int i = 0; i < 3; ++i)
            producer.sendPair();
    });

    ReceiveRequest request;
    auto received = callAndWait<ReceiveResult>(
        [&](auto reply) { service.receiveMessage("durable", request, nullptr, reply); });
    if (!received || received->messages.empty()) {
        emitLine("receive-failed " + (received ? std::string("empty") : oneLine(received.error().message)));
        return;
    }
    const ReceivedMessage &message = received->messages.front();
    auto deleted = callAndWait<void>(
        [&](auto reply) { service.deleteMessage("durable", message.receiptHandle, nullptr, reply); });
    emitLine(deleted ? "deleted " + message.messageId : "delete-failed " + oneLine(deleted.error().message));
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    if (args.size() < 3) {
        std::fprintf(stderr, "usage: durability_child send|hold|fill DB [ROUND|LIMIT] [PRODUCERS]\n");
        return 3;
    }
    const QString mode = args.at(1);
    const std::string path = args.at(2).toStdString();
    const int producers = args.size() > 4 ? args.at(4).toInt() : 16;
    if (mode == QLatin1String("fill")) {
        std::signal(SIGXFSZ, SIG_IGN); // a write past the limit fails with EFBIG instead of killing us
        rlimit limit{};
        getrlimit(RLIMIT_FSIZE, &limit);
        limit.rlim_cur = rlim_t(args.value(3).toLongLong());
        if (setrlimit(RLIMIT_FSIZE, &limit) != 0) {
            emitLine("setup-failed cannot set RLIMIT_FSIZE");
            return 3;
        }
    }

    auto opened = Database::open(path);
    if (!opened.ok()) {
        emitLine("refused " + std::string(storeStatusKindName(opened.status().kind())) + " " +
                 oneLine(opened.status().message()));
        return 2;
    }
    // send mode, optional 5th argument: checkpoint the WAL every N pages
    // instead of SQLite's 1000, so kills also land in and after checkpoints.
    if (mode == QLatin1String("send") && args.size() > 5) {
        const std::string pragma = "PRAGMA wal_autocheckpoint=" + std::to_string(args.at(5).toInt());
        if (StoreStatus status = (*opened)->execute(pragma); !status.ok()) {
            emitLine("setup-failed " + oneLine(status.toString()));
            return 3;
        }
    }
    SystemWallTimeSource wall;
    BrokerEngine engine(std::move(opened).value(), wall);
    auto service = std::make_unique<BrokerService>(engine);
    if (!createQueues(*service))
        return 3;

    std::thread work([&] {
        if (mode == QLatin1String("send"))
            sendForever(*service, args.value(3).toInt(), producers);
        else if (mode == QLatin1String("hold"))
            holdUntilStdinCloses(*service);
        else if (mode == QLatin1String("fill"))
            fillTheDisk(*service, producers);
        QMetaObject::invokeMethod(&app, &QCoreApplication::quit, Qt::QueuedConnection);
    });
    app.exec();
    work.join();
    service.reset();
    engine.stop();
    emitLine("stopped");
    return 0;
}
