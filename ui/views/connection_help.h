// SPDX-License-Identifier: MIT
#pragma once

#include <QGroupBox>
#include <QList>
#include <QString>

class QLineEdit;
class QToolButton;

namespace relaydesk {

// The connection string the Azure SDKs take for a local broker at `amqpUrl`
// ("amqp://HOST:PORT"), as for the official emulator.
QString serviceBusConnectionString(const QString &amqpUrl);
// The connection string for Service Bus over TLS at `amqpsUrl`
// ("amqps://HOST:PORT"): without UseDevelopmentEmulator, as production code has it.
QString serviceBusTlsConnectionString(const QString &amqpsUrl);
// The connection string ServiceBusAdministrationClient takes for the
// management port at `managementUrl` ("https://HOST:PORT"), as for the
// emulator's port 5300: the SDKs build https:// URLs from it.
QString serviceBusManagementConnectionString(const QString &managementUrl);

// Where a broker answers, as the dashboard shows it: each empty member
// leaves its lines out.
struct BrokerEndpoints {
    QString url;            // the HTTP endpoint (SQS, SNS, Zaqar, native)
    QString region;
    QString amqpUrl;        // empty: no Service Bus line
    QString amqpsUrl;       // empty: no Service Bus over TLS line
    QString managementUrl;  // empty: no Service Bus management line
    QString authorityPath;  // empty: no CA line (TLS off, or the user's own certificate)
};

// An aws CLI command line that runs on a clean machine (no ~/.aws): the
// test keys as environment variables before it, then
// `aws --endpoint-url URL --region REGION ARGUMENTS`. The one place the
// window writes an aws command (the dashboard, a topic's "Publish from code").
QString awsCliLine(const QString &url, const QString &region, const QString &arguments);

// "Connect your code": what a developer pastes to point code at this
// broker — the endpoint, the aws CLI, boto3, the AWS SDK for JavaScript,
// curl, the Service Bus connection strings (plain, over TLS and for the
// management API) and the
// local CA's certificate to trust for TLS (docs/behaviour.md §8.7) — one
// line each in monospace, selectable, with a Copy button named after the
// line ("Copy aws CLI").
//
// Ownership: owns its widgets. Thread: GUI.
class ConnectionHelp final : public QGroupBox {
    Q_OBJECT
public:
    explicit ConnectionHelp(QWidget *parent = nullptr);

    // Fills the lines for the broker at `endpoints`; the CA line shows only
    // when a TLS port (AMQPS or management) is on.
    void showBroker(const BrokerEndpoints &endpoints);
    // The lines as shown, "label: text" (tests, accessibility).
    QStringList lines() const;
    QToolButton *copyButton(const QString &label) const;

private:
    struct Line {
        QString label;
        QLineEdit *text = nullptr;
        QToolButton *copy = nullptr;
    };
    QList<Line> m_lines;
};

} // namespace relaydesk
