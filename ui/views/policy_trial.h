// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QString>

namespace relaydesk {

class BrokerHost;

// What "Try a policy" sets up (issue 13).
struct PolicyTrialPlan {
    QString policyJson;                                     // any of the three forms (SPEC 2.2)
    QString topicName = QStringLiteral("try-policy");
    QString mockName = QStringLiteral("try-policy");
    QString script = QStringLiteral("503 x 7, then 200");   // mock_script.h grammar
    QString message = QStringLiteral("{\"trial\": \"Relaydesk: Try a policy\"}");
};

// "Try a policy": sets the mock endpoint's script (creating or reusing it;
// it starts afresh), creates the topic if needed, subscribes the mock's URL
// (host endpointUrl() + MockEndpoints::pathOf(name)) over http with
// auto-confirm, sets the policy (converted to the subscription form) as the
// subscription's DeliveryPolicy, and publishes one test message — all through
// BrokerService calls, one after the other. `finished` gives the
// subscription's ARN; `failed` the first refusal, in the broker's words.
// Ownership: borrows the host (it outlives the trial). Thread: GUI.
class PolicyTrial final : public QObject {
    Q_OBJECT
public:
    explicit PolicyTrial(BrokerHost &host, QObject *parent = nullptr);

    void start(const PolicyTrialPlan &plan);
    // The policy as a subscription's DeliveryPolicy, or the reason it cannot be one (`error`).
    static QString subscriptionPolicy(const QString &policyJson, QString *error);

signals:
    void finished(const QString &subscriptionArn);
    void failed(const QString &message);

private:
    void subscribe(const PolicyTrialPlan &plan, const std::string &policy);
    void publish(const PolicyTrialPlan &plan, const QString &subscriptionArn);

    BrokerHost &m_host;
};

} // namespace relaydesk
