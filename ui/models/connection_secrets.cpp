// SPDX-License-Identifier: MIT
#include "models/connection_secrets.h"

#include <qt6keychain/keychain.h>

#include <memory>

namespace relaydesk {

namespace {

const QString kService = QStringLiteral("Relaydesk");

// Jobs have no parent and delete themselves when finished: QtKeychain's
// libsecret backend answers a job after its parent is gone otherwise (a
// window closed while the secret service is asked). Their answers reach
// `this` only while it lives (the connection's context).

// Whether a job's answer says there is a secret service (a missing entry is an answer).
bool answered(const QKeychain::Job &job)
{
    return job.error() == QKeychain::NoError || job.error() == QKeychain::EntryNotFound;
}

} // namespace

ConnectionSecrets::ConnectionSecrets(QObject *parent) : QObject(parent)
{
    auto *probe = new QKeychain::ReadPasswordJob(kService);
    probe->setKey(QStringLiteral("relaydesk-probe"));
    connect(probe, &QKeychain::Job::finished, this, [this](QKeychain::Job *job) { m_persistent = answered(*job); });
    probe->start();
}

QString ConnectionSecrets::whereText() const
{
    if (m_persistent)
        return tr("Secrets (keys, tokens) are kept in the desktop's secret service, not in the settings file.");
    return tr("No secret service is reachable: secrets are kept in memory for this session only and must be "
              "entered again next time (never written to the settings file).");
}

void ConnectionSecrets::load(const QStringList &ids, std::function<void()> done)
{
    auto left = std::make_shared<int>(static_cast<int>(ids.size()));
    if (*left == 0)
        return done();
    for (const QString &id : ids) {
        auto *job = new QKeychain::ReadPasswordJob(kService);
        job->setKey(id);
        connect(job, &QKeychain::Job::finished, this, [this, id, left, done](QKeychain::Job *finished) {
            m_persistent = answered(*finished);
            const QString secret = static_cast<QKeychain::ReadPasswordJob *>(finished)->textData();
            if (finished->error() == QKeychain::NoError && !secret.isEmpty() && !m_memory.contains(id))
                m_memory.insert(id, secret);
            if (--*left == 0)
                done();
        });
        job->start();
    }
}

void ConnectionSecrets::store(const QString &id, const QString &secret)
{
    if (secret.isEmpty())
        return forget(id);
    m_memory.insert(id, secret);
    auto *job = new QKeychain::WritePasswordJob(kService);
    job->setKey(id);
    job->setTextData(secret);
    connect(job, &QKeychain::Job::finished, this, [this, id](QKeychain::Job *finished) {
        m_persistent = answered(*finished);
        emit written(id);
    });
    job->start();
}

void ConnectionSecrets::forget(const QString &id)
{
    m_memory.remove(id);
    auto *job = new QKeychain::DeletePasswordJob(kService);
    job->setKey(id);
    job->start();
}

} // namespace relaydesk
