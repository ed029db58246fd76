// SPDX-License-Identifier: MIT
#pragma once
// Fixture of the BrokerService delivery tests: an engine on the virtual
// clock over a database file, a DeliveryWorker (no jitter) and a
// BrokerService, and a scripted endpoint on loopback.

#include "engine/broker_service.h"

#include "broker/id_source.h"
#include "broker/wall_time_source.h"
#include "engine/broker_engine.h"
#include "engine/delivery_worker.h"
#include "support/engine_test_support.h"

#include "support/script_endpoint.h"

#include <QTemporaryDir>

#include <memory>
#include <string>

namespace relaydesk::testing {

// A BrokerService and a DeliveryWorker over one engine (virtual clock), and
// an endpoint answering 200 that stamps requests with the engine's clock.
class DeliveryServiceBench final {
public:
    DeliveryServiceBench(const QTemporaryDir &dir, const std::string &file, bool attachWorker)
    {
        m_engine = std::make_unique<BrokerEngine>(openDatabase(dir, file.c_str()), m_wall, virtualClockOptions());
        m_endpoint = std::make_unique<ScriptEndpoint>(&m_engine->clock());
        m_endpoint->setScript({respond(200)});
        DeliveryWorkerOptions workerOptions;
        workerOptions.jitterFraction = 0;
        m_worker = std::make_unique<DeliveryWorker>(*m_engine, m_wall, BrokerIdentity{}, workerOptions);
        m_worker->start();
        m_service = std::make_unique<BrokerService>(*m_engine, BrokerIdentity{}, std::make_unique<SequentialIdSource>());
        if (attachWorker)
            m_service->setDeliveryWorker(m_worker.get());
    }
    ~DeliveryServiceBench()
    {
        m_service->setDeliveryWorker(nullptr);
        m_worker->stop();
        m_worker.reset();
        m_service.reset();
        m_endpoint.reset();
        m_engine->stop();
    }

    BrokerEngine &engine() { return *m_engine; }
    BrokerService &service() { return *m_service; }
    ScriptEndpoint &endpoint() { return *m_endpoint; }

private:
    SystemWallTimeSource m_wall;
    std::unique_ptr<BrokerEngine> m_engine;
    std::unique_ptr<ScriptEndpoint> m_endpoint;
    std::unique_ptr<DeliveryWorker> m_worker;
    std::unique_ptr<BrokerService> m_service;
};

} // namespace relaydesk::testing
