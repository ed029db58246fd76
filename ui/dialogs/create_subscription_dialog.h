// SPDX-License-Identifier: MIT
#pragma once

#include <QDialog>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;

namespace relaydesk {

class FieldError;

class BrokerService;
class MockEndpoints;

// "Subscribe" to a topic (docs/behaviour.md §1, 4.6, 4.7, 8.4): protocol http, https or
// sqs; for sqs the endpoint is one of the broker's queues (its ARN); for http
// the broker's mock endpoints are offered — an existing one or a new one with
// its script ("503 x 3, then 200", mock_script.h) at
// endpointBaseUrl + "/_mock/NAME", so a policy can be watched without writing a
// server; else any URL. Filter policy (JSON) and raw delivery. A subscription
// to a mock is confirmed at once (a mock cannot confirm); for another URL
// "Confirm at once" is offered. OK subscribes through BrokerService and
// closes only on success; a refusal is shown at its field (the dialog stays
// open, and a mock it made for the attempt is removed again).
// Ownership: borrows the service and the mock endpoints (null: none offered).
// Thread: GUI thread; replies come back queued.
class CreateSubscriptionDialog final : public QDialog {
    Q_OBJECT
public:
    CreateSubscriptionDialog(BrokerService &service, MockEndpoints *mocks, const QString &endpointBaseUrl,
                             const QString &topicName, QWidget *parent = nullptr);
    ~CreateSubscriptionDialog() override;
    CreateSubscriptionDialog(const CreateSubscriptionDialog &) = delete;
    CreateSubscriptionDialog &operator=(const CreateSubscriptionDialog &) = delete;

    // The ARN of the subscription created (empty until then).
    QString createdArn() const { return m_created; }

    QComboBox *protocolSelector() const { return m_protocol; }
    QComboBox *queueSelector() const { return m_queue; }
    QCheckBox *useMock() const { return m_useMock; }
    QComboBox *mockName() const { return m_mockName; }
    QLineEdit *mockScript() const { return m_script; }
    QLineEdit *url() const { return m_url; }
    QPlainTextEdit *filterPolicy() const { return m_filter; }
    QCheckBox *rawDelivery() const { return m_raw; }
    // The error shown at `input` (one of the above), or empty.
    QString errorAt(QWidget *input) const;
    QString message() const;
    // The endpoint the subscription will get, as now chosen.
    QString endpoint() const;

    void accept() override;

signals:
    void answered();

private:
    QWidget *buildEndpointPage();
    QWidget *buildQueuePage();
    void updateEndpoint();
    void refuse(const QString &text, QWidget *at);
    void setBusy(bool busy);
    FieldError *errorLineOf(QWidget *input) const;

    BrokerService &m_service;
    MockEndpoints *m_mocks = nullptr;
    QString m_baseUrl;
    QString m_topic;
    QComboBox *m_protocol = nullptr;
    QStackedWidget *m_endpointPages = nullptr;
    QComboBox *m_queue = nullptr;
    QCheckBox *m_useMock = nullptr;
    QComboBox *m_mockName = nullptr;
    QLineEdit *m_script = nullptr;
    QLineEdit *m_url = nullptr;
    QCheckBox *m_confirm = nullptr;
    QPlainTextEdit *m_filter = nullptr;
    QCheckBox *m_raw = nullptr;
    QList<QPair<QWidget *, FieldError *>> m_errorLines;
    FieldError *m_message = nullptr;
    QDialogButtonBox *m_buttons = nullptr;
    QString m_created;
};

} // namespace relaydesk
