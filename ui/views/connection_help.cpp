// SPDX-License-Identifier: MIT
#include "views/connection_help.h"

#include <QApplication>
#include <QClipboard>
#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QUrl>

namespace relaydesk {

QString serviceBusConnectionString(const QString &amqpUrl)
{
    return QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName=RootManageSharedAccessKey;"
                          "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true")
        .arg(QUrl(amqpUrl).port());
}

QString serviceBusTlsConnectionString(const QString &amqpsUrl)
{
    return QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName=RootManageSharedAccessKey;"
                          "SharedAccessKey=SAS_KEY_VALUE")
        .arg(QUrl(amqpsUrl).port());
}

QString serviceBusManagementConnectionString(const QString &managementUrl)
{
    return QStringLiteral("Endpoint=sb://localhost:%1;SharedAccessKeyName=RootManageSharedAccessKey;"
                          "SharedAccessKey=SAS_KEY_VALUE;UseDevelopmentEmulator=true")
        .arg(QUrl(managementUrl).port());
}

ConnectionHelp::ConnectionHelp(QWidget *parent) : QGroupBox(tr("Connect your code"), parent)
{
    setObjectName(QStringLiteral("connectionHelp"));
    auto *grid = new QGridLayout(this);
    const QStringList labels{tr("Endpoint"), tr("aws CLI"), tr("boto3 (Python)"), tr("AWS SDK for JavaScript"),
                             tr("curl"), tr("Service Bus"), tr("Service Bus over TLS"),
                             tr("Service Bus management"), tr("CA certificate to trust")};
    for (const QString &label : labels) {
        Line line;
        line.label = label;
        auto *name = new QLabel(label, this);
        line.text = new QLineEdit(this);
        line.text->setReadOnly(true);
        line.text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
        line.text->setAccessibleName(label);
        name->setBuddy(line.text);
        line.copy = new QToolButton(this);
        line.copy->setText(tr("Copy"));
        line.copy->setAccessibleName(tr("Copy %1").arg(label));
        line.copy->setToolTip(tr("Copy the %1 line").arg(label));
        line.copy->setFocusPolicy(Qt::StrongFocus);
        connect(line.copy, &QToolButton::clicked, line.text,
                [text = line.text] { QApplication::clipboard()->setText(text->text()); });
        const int row = int(m_lines.size());
        grid->addWidget(name, row, 0);
        grid->addWidget(line.text, row, 1);
        grid->addWidget(line.copy, row, 2);
        m_lines << line;
    }
    const QString trust = tr("Trust this file once for TLS: NODE_EXTRA_CA_CERTS=FILE (Node), SSL_CERT_FILE or "
                             "REQUESTS_CA_BUNDLE (Python), keytool -importcert (Java), or "
                             "/usr/local/share/ca-certificates and update-ca-certificates (the system)");
    m_lines.last().text->setToolTip(trust);
    m_lines.last().text->setAccessibleDescription(trust);
    grid->setColumnStretch(1, 1);
}

QString awsCliLine(const QString &url, const QString &region, const QString &arguments)
{
    return QStringLiteral("AWS_ACCESS_KEY_ID=test AWS_SECRET_ACCESS_KEY=test aws --endpoint-url %1 --region %2 %3")
        .arg(url, region, arguments);
}

void ConnectionHelp::showBroker(const BrokerEndpoints &endpoints)
{
    const QString &url = endpoints.url;
    const QString &region = endpoints.region;
    const bool tls = !endpoints.amqpsUrl.isEmpty() || !endpoints.managementUrl.isEmpty();
    const QString texts[] = {
        url,
        awsCliLine(url, region, QStringLiteral("sqs create-queue --queue-name orders")),
        QStringLiteral("boto3.client(\"sqs\", endpoint_url=\"%1\", region_name=\"%2\", aws_access_key_id=\"test\", "
                       "aws_secret_access_key=\"test\")")
            .arg(url, region),
        QStringLiteral("new SQSClient({ endpoint: \"%1\", region: \"%2\", credentials: { accessKeyId: \"test\", "
                       "secretAccessKey: \"test\" } })")
            .arg(url, region),
        QStringLiteral("curl %1/api/v1/queues").arg(url),
        endpoints.amqpUrl.isEmpty() ? QString() : serviceBusConnectionString(endpoints.amqpUrl),
        endpoints.amqpsUrl.isEmpty() ? QString() : serviceBusTlsConnectionString(endpoints.amqpsUrl),
        endpoints.managementUrl.isEmpty() ? QString() : serviceBusManagementConnectionString(endpoints.managementUrl),
        tls ? endpoints.authorityPath : QString(),
    };
    for (qsizetype i = 0; i < m_lines.size(); ++i) {
        m_lines[i].text->setText(texts[i]);
        m_lines[i].text->setCursorPosition(0); // the start in sight
        const bool shown = !texts[i].isEmpty();
        m_lines[i].text->setVisible(shown);
        m_lines[i].copy->setVisible(shown);
        if (QWidget *name = qobject_cast<QGridLayout *>(layout())->itemAtPosition(int(i), 0)->widget())
            name->setVisible(shown);
    }
}

QStringList ConnectionHelp::lines() const
{
    QStringList result;
    for (const Line &line : m_lines)
        if (!line.text->text().isEmpty())
            result << line.label + QStringLiteral(": ") + line.text->text();
    return result;
}

QToolButton *ConnectionHelp::copyButton(const QString &label) const
{
    for (const Line &line : m_lines)
        if (line.label == label)
            return line.copy;
    return nullptr;
}

} // namespace relaydesk
