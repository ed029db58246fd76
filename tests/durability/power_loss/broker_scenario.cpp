// SPDX-License-Identifier: MIT
#include "power_loss/broker_scenario.h"

#include "support/call_and_wait.h"

#include "broker/id_source.h"
#include "config/broker_config.h"
#include "store/database.h"

#include <QFile>

#include <chrono>
#include <functional>

namespace relaydesk::durability {

using testing::callAndWait;
using testing::callAndWaitStatus;

namespace {

const ClockTime kScenarioStart = fromEpochMilliseconds(1'800'000'000'000);

const char *const kRetryEverySecond =
    "{\"http\":{\"defaultHealthyRetryPolicy\":{\"numRetries\":100,\"numNoDelayRetries\":0,"
    "\"minDelayTarget\":1,\"maxDelayTarget\":2,\"backoffFunction\":\"linear\"}}}";

// One client of the scenario: each call waits for its reply and books it in the ledger.
class Client final {
public:
    Client(ScenarioBroker &broker, bool stopAtFirstError, Ledger &ledger)
        : m_broker(broker), m_service(broker.service()), m_stopAtFirstError(stopAtFirstError), m_ledger(ledger)
    {
    }

    // False once the scenario must stop (a refusal with stopAtFirstError).
    bool going() const { return !m_stopped; }

    void createQueue(const std::string &name, AttributeMap attributes = {})
    {
        if (m_stopped)
            return;
        auto url = callAndWait<std::string>(
            [&](auto reply) { m_service.createQueue(name, attributes, {}, nullptr, reply); });
        if (!booked("createQueue " + name, url) && !m_stopAtFirstError) {
            // After an I/O fault the same broker takes the client's retry (the later
            // steps need the queue).
            url = callAndWait<std::string>(
                [&](auto reply) { m_service.createQueue(name, attributes, {}, nullptr, reply); });
            if (!booked("createQueue again " + name, url))
                return;
        }
        if (url.ok())
            m_ledger.queues.insert(name);
    }

    // Peeks at a page of the queue: a read-only connection of its own reads the file.
    void browse(const std::string &queue)
    {
        if (m_stopped)
            return;
        booked("browse " + queue, callAndWait<BrowsePage>([&](auto reply) {
                   m_service.browseQueue(queue, std::nullopt, 10, nullptr, reply);
               }));
    }

    void createTopic(const std::string &name, AttributeMap attributes)
    {
        if (m_stopped)
            return;
        booked("createTopic " + name, callAndWait<std::string>([&](auto reply) {
                   m_service.createTopic(name, attributes, {}, nullptr, reply);
               }));
    }

    void subscribe(const std::string &topic, const std::string &protocol, const std::string &endpoint,
                   AttributeMap attributes)
    {
        if (m_stopped)
            return;
        booked("subscribe " + protocol, callAndWait<SubscribeReceipt>([&](auto reply) {
                   m_service.subscribe(topic, protocol, endpoint, attributes, true, nullptr, reply);
               }));
    }

    void send(const std::string &queue, const std::string &body, const std::string &group = {})
    {
        if (m_stopped)
            return;
        SendRequest request;
        request.body = body;
        if (!group.empty())
            request.groupId = group;
        auto sent = callAndWait<SendReceipt>([&](auto reply) { m_service.sendMessage(queue, request, nullptr, reply); });
        if (booked("send " + body, sent, {body}))
            m_ledger.live[body] = Ledger::Sent{queue, sent->messageId, group, sent->sequenceNumber.value_or(-1)};
    }

    void sendBatch(const std::string &queue, const std::vector<std::string> &bodies, const std::string &group = {})
    {
        if (m_stopped)
            return;
        std::vector<BatchEntry<SendRequest>> entries;
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            SendRequest request;
            request.body = bodies[i];
            if (!group.empty())
                request.groupId = group;
            entries.push_back({"e" + std::to_string(i), request});
        }
        auto sent = callAndWait<std::vector<BatchEntryResult<SendReceipt>>>(
            [&](auto reply) { m_service.sendMessageBatch(queue, entries, nullptr, reply); });
        if (!booked("sendBatch " + bodies.front(), sent, bodies))
            return;
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            const BatchEntryResult<SendReceipt> &entry = sent->at(i);
            if (entry.ok())
                m_ledger.live[bodies[i]] =
                    Ledger::Sent{queue, entry.value->messageId, group, entry.value->sequenceNumber.value_or(-1)};
            else
                refuse("sendBatch entry " + bodies[i], *entry.error, {bodies[i]});
        }
    }

    // Receives up to 10 and deletes every other one (single deletes and one batch).
    void receiveAndDeleteHalf(const std::string &queue)
    {
        if (m_stopped)
            return;
        ReceiveRequest request;
        request.maxNumberOfMessages = 10;
        auto received = callAndWait<ReceiveResult>(
            [&](auto reply) { m_service.receiveMessage(queue, request, nullptr, reply); });
        if (!booked("receive " + queue, received))
            return;
        for (const ReceivedMessage &message : received->messages)
            ++m_ledger.receives[message.body];
        std::vector<BatchEntry<std::string>> batch;
        std::vector<std::string> batchBodies;
        for (std::size_t i = 0; i < received->messages.size() && !m_stopped; i += 2) {
            const ReceivedMessage &message = received->messages[i];
            if (i % 4 == 0) {
                auto deleted = callAndWaitStatus([&](auto reply) {
                    m_service.deleteMessage(queue, message.receiptHandle, nullptr, reply);
                });
                if (booked("delete " + message.body, deleted))
                    markDeleted(message.body);
                else
                    unanswered({message.body});
            } else {
                batch.push_back({"d" + std::to_string(i), message.receiptHandle});
                batchBodies.push_back(message.body);
            }
        }
        if (batch.empty() || m_stopped)
            return;
        auto deleted = callAndWait<std::vector<BatchEntryResult<bool>>>(
            [&](auto reply) { m_service.deleteMessageBatch(queue, batch, nullptr, reply); });
        if (!booked("deleteBatch " + queue, deleted)) {
            unanswered(batchBodies);
            return;
        }
        for (std::size_t i = 0; i < batch.size(); ++i) {
            if (deleted->at(i).ok())
                markDeleted(batchBodies[i]);
        }
    }

    void publish(const std::string &topic, const std::string &message)
    {
        if (m_stopped)
            return;
        PublishRequest request;
        request.message = message;
        auto published = callAndWait<PublishReceipt>(
            [&](auto reply) { m_service.publish(topic, request, nullptr, reply); });
        if (booked("publish " + message, published, {message}))
            acknowledgePublish(message, published->messageId);
    }

    void publishBatch(const std::string &topic, const std::vector<std::string> &messages)
    {
        if (m_stopped)
            return;
        std::vector<BatchEntry<PublishRequest>> entries;
        for (std::size_t i = 0; i < messages.size(); ++i) {
            PublishRequest request;
            request.message = messages[i];
            entries.push_back({"p" + std::to_string(i), request});
        }
        auto published = callAndWait<std::vector<BatchEntryResult<PublishReceipt>>>(
            [&](auto reply) { m_service.publishBatch(topic, entries, nullptr, reply); });
        if (!booked("publishBatch " + messages.front(), published, messages))
            return;
        for (std::size_t i = 0; i < messages.size(); ++i) {
            if (published->at(i).ok())
                acknowledgePublish(messages[i], published->at(i).value->messageId);
            else
                refuse("publishBatch entry " + messages[i], *published->at(i).error, {messages[i]});
        }
    }

    void setVisibilityTimeout(const std::string &queue, int seconds)
    {
        if (m_stopped)
            return;
        m_ledger.visibilityInFlight = seconds;
        auto set = callAndWaitStatus([&](auto reply) {
            m_service.setQueueAttributes(queue, {{"VisibilityTimeout", std::to_string(seconds)}}, nullptr, reply);
        });
        if (booked("setQueueAttributes " + queue, set)) {
            m_ledger.visibilityTimeout = seconds;
            m_ledger.visibilityInFlight.reset();
        }
    }

    void importConfig(const std::string &queue)
    {
        if (m_stopped)
            return;
        const std::string text = "{\"version\": 1, \"queues\": [{\"name\": \"" + queue +
                                 "\", \"attributes\": {\"VisibilityTimeout\": \"45\"}, \"tags\": {\"team\": \"core\"}}]}";
        Result<BrokerConfig> config = readBrokerConfigText(text, BrokerIdentity{});
        if (!config) {
            m_ledger.errors.push_back("config unreadable: " + config.error().message);
            m_stopped = true;
            return;
        }
        auto applied = callAndWait<ConfigApplied>([&](auto reply) {
            applyBrokerConfig(m_broker.engine(), m_service, BrokerIdentity{}, *config, nullptr, reply);
        });
        if (booked("importConfig " + queue, applied))
            m_ledger.queues.insert(queue);
        else
            m_ledger.refusedQueues.insert(queue);
    }

    // Sends `bodies` to `source` (maxReceiveCount 1), receives twice (the
    // second receive dead-letters them) and moves them back by id.
    void deadLetterAndMoveBack(const std::string &source, const std::string &deadLetters,
                               const std::vector<std::string> &bodies)
    {
        for (const std::string &body : bodies)
            send(source, body);
        std::vector<std::string> ids;
        for (const std::string &body : bodies) {
            const auto found = m_ledger.live.find(body);
            if (found != m_ledger.live.end())
                ids.push_back(found->second.messageId);
        }
        for (int pass = 0; pass < 2 && !m_stopped; ++pass) {
            ReceiveRequest request;
            request.maxNumberOfMessages = 10;
            request.visibilityTimeout = 0;
            auto received = callAndWait<ReceiveResult>(
                [&](auto reply) { m_service.receiveMessage(source, request, nullptr, reply); });
            const bool ok = booked("receive " + source, received);
            if (!ok && pass == 1)
                unanswered(bodies);
            if (ok && pass == 1) {
                for (const std::string &body : bodies) {
                    if (m_ledger.live.contains(body))
                        m_ledger.live[body].queue = deadLetters;
                }
            }
        }
        if (m_stopped || ids.empty())
            return;
        auto moved = callAndWait<DeadLetterRedrive>(
            [&](auto reply) { m_service.redriveDeadLetters(deadLetters, ids, nullptr, reply); });
        if (!booked("redriveDeadLetters", moved)) {
            unanswered(bodies);
            return;
        }
        if (moved->moved != std::int64_t(ids.size()) && m_stopAtFirstError)
            m_ledger.errors.push_back("redriveDeadLetters moved " + std::to_string(moved->moved) + " of " +
                                      std::to_string(ids.size()));
        for (const std::string &body : bodies) {
            if (m_ledger.live.contains(body))
                m_ledger.live[body].queue = source;
        }
    }

    void advance(std::chrono::seconds by)
    {
        if (m_stopped)
            return;
        booked("advance", m_broker.engine().advanceClockAndWait(by));
    }

private:
    void acknowledgePublish(const std::string &message, const std::string &messageId)
    {
        m_ledger.live[message] = Ledger::Sent{"fanout", {}, {}, -1};
        m_ledger.publishedIds.push_back(messageId);
    }

    // A crash cut these bodies' delete or move short: it may have committed unheard.
    void unanswered(const std::vector<std::string> &bodies)
    {
        if (!m_stopAtFirstError)
            return; // an I/O fault: the refused operation changed nothing, the ledger stands
        for (const std::string &body : bodies) {
            if (m_ledger.live.erase(body) > 0)
                m_ledger.uncertain.insert(body);
        }
    }

    void markDeleted(const std::string &body)
    {
        m_ledger.live.erase(body);
        m_ledger.deleted.insert(body);
    }

    void refuse(const std::string &step, const BrokerError &error, const std::vector<std::string> &bodies)
    {
        m_ledger.errors.push_back(step + ": " + std::string(error.info().name) + " " + error.message);
        for (const std::string &body : bodies)
            m_ledger.refused.insert(body);
        if (m_stopAtFirstError)
            m_stopped = true;
    }

    template <class R>
    bool booked(const std::string &step, const R &result, const std::vector<std::string> &bodies = {})
    {
        if (result.ok()) {
            ++m_ledger.acknowledged;
            return true;
        }
        refuse(step, result.error(), bodies);
        return false;
    }

    ScenarioBroker &m_broker;
    BrokerService &m_service;
    bool m_stopAtFirstError = true;
    bool m_stopped = false;
    Ledger &m_ledger;
};


} // namespace

bool makeTemplateDatabase(const std::string &path, std::string *error)
{
    auto opened = Database::open(path);
    if (!opened.ok())
        *error = opened.status().toString();
    return opened.ok();
}

bool copyTemplateDatabase(const std::string &from, const std::string &to)
{
    const QString target = QString::fromStdString(to);
    QFile::remove(target);
    QFile::remove(target + QStringLiteral("-wal"));
    QFile::remove(target + QStringLiteral("-shm"));
    return QFile::copy(QString::fromStdString(from), target);
}

ScenarioBroker::ScenarioBroker()
{
    m_endpoint.setScript({testing::respond(500)});
    m_url = m_endpoint.url();
}

ScenarioBroker::~ScenarioBroker() { close(); }

bool ScenarioBroker::open(const std::string &path, std::string *error)
{
    close();
    auto opened = Database::open(path);
    if (!opened.ok()) {
        *error = opened.status().toString();
        return false;
    }
    BrokerEngineOptions options;
    options.clockMode = ClockMode::Virtual;
    options.clockStart = kScenarioStart;
    options.changeInterval = std::chrono::milliseconds(0);
    m_engine = std::make_unique<BrokerEngine>(std::move(opened).value(), m_wall, options);
    DeliveryWorkerOptions workerOptions;
    workerOptions.jitterFraction = 0;
    workerOptions.requestTimeout = std::chrono::seconds(60);
    m_worker = std::make_unique<DeliveryWorker>(*m_engine, m_wall, BrokerIdentity{}, workerOptions);
    m_worker->start();
    m_service = std::make_unique<BrokerService>(*m_engine, BrokerIdentity{}, std::make_unique<RandomIdSource>());
    m_service->setDeliveryWorker(m_worker.get());
    return true;
}

void ScenarioBroker::close()
{
    if (m_service)
        m_service->setDeliveryWorker(nullptr);
    if (m_worker)
        m_worker->stop();
    m_worker.reset();
    m_service.reset();
    if (m_engine)
        m_engine->stop();
    m_engine.reset();
}

void runScenario(ScenarioBroker &broker, int rounds, bool stopAtFirstError, Ledger &ledger,
                 const std::function<void()> &afterSetUp)
{
    Client client(broker, stopAtFirstError, ledger);
    client.createQueue("work");
    client.createQueue("work.fifo", {{"FifoQueue", "true"}, {"ContentBasedDeduplication", "true"}});
    client.createQueue("fanout");
    client.createQueue("dead");
    client.createTopic("events", {{"DeliveryPolicy", kRetryEverySecond}});
    client.subscribe("events", "sqs", BrokerIdentity{}.queueArn("fanout"), {{"RawMessageDelivery", "true"}});
    client.subscribe("events", "http", broker.httpEndpoint(), {});
    if (afterSetUp)
        afterSetUp();
    long counter = 0;
    auto body = [&counter](const char *kind, int round, const std::string &group = {}) {
        std::string text = std::string(kind) + " r=" + std::to_string(round) + " c=" + std::to_string(counter++);
        return group.empty() ? text : text + " g=" + group;
    };
    for (int round = 0; round < rounds && client.going(); ++round) {
        for (int i = 0; i < 3; ++i)
            client.send("work", body("std", round));
        client.sendBatch("work", {body("std", round), body("std", round), body("std", round), body("std", round)});
        for (int g = 0; g < 3; ++g) {
            const std::string group = "g" + std::to_string(g);
            client.send("work.fifo", body("fifo", round, group), group);
        }
        const std::string batchGroup = "g" + std::to_string(round % 3);
        client.sendBatch("work.fifo", {body("fifo", round, batchGroup), body("fifo", round, batchGroup),
                                       body("fifo", round, batchGroup)},
                         batchGroup);
        client.browse("work");
        client.receiveAndDeleteHalf("work");
        client.publish("events", body("pub", round));
        client.publishBatch("events", {body("pub", round), body("pub", round)});
        client.advance(std::chrono::seconds(2)); // the HTTP endpoint answers 500: attempts, retries pending
        client.setVisibilityTimeout("work", 31 + round);
        client.importConfig("imported-" + std::to_string(round));
        // A source queue per round: moved back, its dead letters are not received (and dead-lettered) again.
        const std::string source = "source-" + std::to_string(round);
        client.createQueue(source, {{"RedrivePolicy", "{\"deadLetterTargetArn\":\"" + BrokerIdentity{}.queueArn("dead") +
                                                          "\",\"maxReceiveCount\":\"1\"}"}});
        client.deadLetterAndMoveBack(source, "dead", {body("dlq", round), body("dlq", round)});
        client.advance(std::chrono::seconds(2));
    }
}

} // namespace relaydesk::durability
