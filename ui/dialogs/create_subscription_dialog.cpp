// SPDX-License-Identifier: MIT
#include "dialogs/create_subscription_dialog.h"

#include "engine/broker_service.h"
#include "mock/mock_endpoints.h"
#include "widgets/accessible_names.h"
#include "models/entity_attribute_calls.h"
#include "widgets/field_error.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QGridLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace relaydesk {
namespace {

constexpr int kUrlPage = 0;
constexpr int kQueuePage = 1;
const char *const kDefaultScript = "503 x 3, then 200";

QLabel *helpLine(const QString &text, QWidget *parent)
{
    auto *help = new QLabel(text, parent);
    help->setWordWrap(true);
    help->setForegroundRole(QPalette::PlaceholderText);
    return help;
}

} // namespace

CreateSubscriptionDialog::CreateSubscriptionDialog(BrokerService &service, MockEndpoints *mocks,
                                                   const QString &endpointBaseUrl, const QString &topicName,
                                                   QWidget *parent)
    : QDialog(parent)
    , m_service(service)
    , m_mocks(mocks)
    , m_baseUrl(endpointBaseUrl)
    , m_topic(topicName)
{
    setObjectName(QStringLiteral("createSubscriptionDialog"));
    setWindowTitle(tr("Subscribe to %1").arg(topicName));
    auto *grid = new QGridLayout;
    int row = 0;
    // Adds "label: input" with a help line and an error line under the input.
    const auto addRow = [&](const QString &label, QWidget *input, const QString &help) {
        auto *caption = new QLabel(label, this);
        caption->setBuddy(input);
        input->setAccessibleName(accessibleLabelText(label));
        grid->addWidget(caption, row, 0, Qt::AlignLeft | Qt::AlignTop);
        grid->addWidget(input, row++, 1);
        if (!help.isEmpty())
            grid->addWidget(helpLine(help, this), row++, 1);
        auto *error = new FieldError(input, this);
        m_errorLines.append({input, error});
        grid->addWidget(error, row++, 1);
    };

    auto *topic = new QLabel(topicName, this);
    topic->setObjectName(QStringLiteral("topicName"));
    topic->setTextInteractionFlags(Qt::TextSelectableByMouse);
    grid->addWidget(new QLabel(tr("Topic"), this), row, 0);
    grid->addWidget(topic, row++, 1);

    m_protocol = new QComboBox(this);
    m_protocol->setObjectName(QStringLiteral("protocol"));
    m_protocol->addItems({QStringLiteral("http"), QStringLiteral("https"), QStringLiteral("sqs")});
    addRow(tr("&Protocol"), m_protocol,
           tr("http/https: the broker POSTs each message to a URL, retried by the delivery policy. sqs: into a queue "
              "of this broker."));

    m_endpointPages = new QStackedWidget(this);
    m_endpointPages->addWidget(buildEndpointPage());
    m_endpointPages->addWidget(buildQueuePage());
    grid->addWidget(m_endpointPages, row++, 0, 1, 2);

    m_filter = new QPlainTextEdit(this);
    m_filter->setObjectName(QStringLiteral("FilterPolicy"));
    m_filter->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_filter->setTabChangesFocus(true);
    m_filter->setPlaceholderText(tr("none: every message"));
    m_filter->setFixedHeight(m_filter->fontMetrics().lineSpacing() * 4 + 12);
    addRow(tr("&Filter policy"), m_filter,
           tr("Only messages whose attributes match are delivered, e.g. {\"kind\": [\"order\"], \"amount\": "
              "[{\"numeric\": [\">\", 100]}]}."));
    m_raw = new QCheckBox(this);
    m_raw->setObjectName(QStringLiteral("RawMessageDelivery"));
    addRow(tr("Ra&w message delivery"), m_raw, tr("Deliver the body as published, without the SNS JSON envelope."));
    grid->setColumnStretch(1, 1);

    m_message = new FieldError(nullptr, QStringLiteral("dialog"), this);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    m_buttons->button(QDialogButtonBox::Ok)->setText(tr("&Subscribe"));
    connect(m_buttons, &QDialogButtonBox::accepted, this, &CreateSubscriptionDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &CreateSubscriptionDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(grid);
    layout->addStretch(1);
    layout->addWidget(m_message);
    layout->addWidget(m_buttons);
    resize(680, sizeHint().height());

    connect(m_protocol, &QComboBox::currentIndexChanged, this, &CreateSubscriptionDialog::updateEndpoint);
    // SNS delivers a FIFO topic only to FIFO queues and a standard topic
    // only to standard ones: only those are offered.
    loadQueueChoices(m_service, this, [this](Result<QList<QPair<QString, QString>>> queues) {
        if (!queues)
            return;
        const bool fifoTopic = m_topic.endsWith(QLatin1String(".fifo"));
        for (const auto &[name, arn] : queues.value()) {
            if (name.endsWith(QLatin1String(".fifo")) == fifoTopic)
                m_queue->addItem(name, arn);
        }
        m_queue->setPlaceholderText(m_queue->count() > 0 ? QString()
                                    : fifoTopic         ? tr("no FIFO queues yet: create one first")
                                                        : tr("no standard queues yet: create one first"));
    });
    updateEndpoint();
}

CreateSubscriptionDialog::~CreateSubscriptionDialog() = default;

QWidget *CreateSubscriptionDialog::buildEndpointPage()
{
    auto *page = new QWidget(this);
    auto *grid = new QGridLayout(page);
    grid->setContentsMargins(0, 0, 0, 0);
    int row = 0;
    const auto addRow = [&](const QString &label, QWidget *input, const QString &help) {
        auto *caption = new QLabel(label, page);
        caption->setBuddy(input);
        caption->setObjectName(input->objectName() + QStringLiteral("Label"));
        input->setAccessibleName(accessibleLabelText(label));
        grid->addWidget(caption, row, 0, Qt::AlignLeft | Qt::AlignTop);
        grid->addWidget(input, row++, 1);
        if (!help.isEmpty()) {
            QLabel *line = helpLine(help, page);
            line->setObjectName(input->objectName() + QStringLiteral("Help"));
            grid->addWidget(line, row++, 1);
        }
        auto *error = new FieldError(input, page);
        m_errorLines.append({input, error});
        grid->addWidget(error, row++, 1);
    };

    m_useMock = new QCheckBox(tr("Deliver to a &mock endpoint of this broker"), page);
    m_useMock->setObjectName(QStringLiteral("useMock"));
    m_useMock->setToolTip(tr("A scriptable endpoint served by the broker itself (docs/behaviour.md §4.7): watch a delivery policy "
                             "at work without writing a server."));
    m_useMock->setChecked(m_mocks != nullptr);
    grid->addWidget(m_useMock, row++, 1);

    m_mockName = new QComboBox(page);
    m_mockName->setObjectName(QStringLiteral("mockName"));
    m_mockName->setEditable(true);
    if (m_mocks) {
        for (const MockEndpointSummary &mock : m_mocks->list())
            m_mockName->addItem(QString::fromStdString(mock.name));
    }
    if (m_mockName->count() == 0)
        m_mockName->addItem(m_topic + QStringLiteral("-endpoint"));
    addRow(tr("Mock &name"), m_mockName, tr("An existing mock, or a new name (letters, digits, '.', '_', '-')."));
    nameEditableComboText(m_mockName);
    m_script = new QLineEdit(QString::fromLatin1(kDefaultScript), page);
    m_script->setObjectName(QStringLiteral("mockScript"));
    addRow(tr("Sc&ript"), m_script,
           tr("How the mock answers, request by request; the last step repeats. E.g. 200 · 503 x 3, then 200 · "
              "429 always · delay 2 s then 200 · hang 20 s · close."));
    m_url = new QLineEdit(page);
    m_url->setObjectName(QStringLiteral("url"));
    m_url->setPlaceholderText(QStringLiteral("http://localhost:8080/hook"));
    addRow(tr("&URL"), m_url, {});
    m_confirm = new QCheckBox(tr("Confirm at &once (no SubscriptionConfirmation handshake)"), page);
    m_confirm->setObjectName(QStringLiteral("confirmAtOnce"));
    grid->addWidget(m_confirm, row++, 1);
    grid->setColumnStretch(1, 1);

    connect(m_useMock, &QCheckBox::toggled, this, &CreateSubscriptionDialog::updateEndpoint);
    connect(m_mockName, &QComboBox::currentTextChanged, this, [this] {
        if (m_mocks) {
            if (const auto mock = m_mocks->find(m_mockName->currentText().trimmed().toStdString()))
                m_script->setText(QString::fromStdString(mock->script));
        }
        updateEndpoint();
    });
    if (m_mocks) {
        if (const auto mock = m_mocks->find(m_mockName->currentText().toStdString()))
            m_script->setText(QString::fromStdString(mock->script));
    }
    return page;
}

QWidget *CreateSubscriptionDialog::buildQueuePage()
{
    auto *page = new QWidget(this);
    auto *grid = new QGridLayout(page);
    grid->setContentsMargins(0, 0, 0, 0);
    m_queue = new QComboBox(page);
    m_queue->setObjectName(QStringLiteral("queue"));
    m_queue->setAccessibleName(tr("Queue"));
    auto *caption = new QLabel(tr("&Queue"), page);
    caption->setBuddy(m_queue);
    auto *error = new FieldError(m_queue, QStringLiteral("queue"), page);
    m_errorLines.append({m_queue, error});
    grid->addWidget(caption, 0, 0);
    grid->addWidget(m_queue, 0, 1);
    grid->addWidget(helpLine(tr("Each message published to the topic is enqueued there in the same transaction."),
                             page),
                    1, 1);
    grid->addWidget(error, 2, 1);
    grid->setColumnStretch(1, 1);
    return page;
}

void CreateSubscriptionDialog::updateEndpoint()
{
    const bool sqs = m_protocol->currentText() == QLatin1String("sqs");
    m_endpointPages->setCurrentIndex(sqs ? kQueuePage : kUrlPage);
    const bool mockOffered = m_mocks && m_protocol->currentText() == QLatin1String("http");
    m_useMock->setVisible(mockOffered);
    const bool mock = mockOffered && m_useMock->isChecked();
    for (QWidget *widget : {static_cast<QWidget *>(m_mockName), static_cast<QWidget *>(m_script)}) {
        widget->setVisible(mock);
        for (const char *suffix : {"Label", "Help"}) {
            if (auto *label = findChild<QLabel *>(widget->objectName() + QLatin1String(suffix)))
                label->setVisible(mock);
        }
    }
    m_url->setReadOnly(mock);
    if (mock)
        m_url->setText(m_baseUrl + QString::fromStdString(MockEndpoints::pathOf(m_mockName->currentText().trimmed().toStdString())));
    else if (m_url->text().contains(QLatin1String("/_mock/")))
        m_url->clear();
    m_confirm->setVisible(!mock);
}

QString CreateSubscriptionDialog::endpoint() const
{
    if (m_protocol->currentText() == QLatin1String("sqs"))
        return m_queue->currentData().toString();
    return m_url->text().trimmed();
}

FieldError *CreateSubscriptionDialog::errorLineOf(QWidget *input) const
{
    for (const auto &[widget, line] : m_errorLines) {
        if (widget == input)
            return line;
    }
    return nullptr;
}

QString CreateSubscriptionDialog::errorAt(QWidget *input) const
{
    const FieldError *line = errorLineOf(input);
    return line ? line->message() : QString();
}

QString CreateSubscriptionDialog::message() const
{
    return m_message->message();
}

void CreateSubscriptionDialog::accept()
{
    for (const auto &[widget, line] : m_errorLines)
        line->clearMessage();
    m_message->clearMessage();
    const QString protocol = m_protocol->currentText();
    const bool sqs = protocol == QLatin1String("sqs");
    const bool mock = !sqs && !m_useMock->isHidden() && m_useMock->isChecked() && m_mocks;
    if (sqs && endpoint().isEmpty()) {
        refuse(tr("Choose a queue (create one first if there is none)."), m_queue);
        return;
    }
    // A mock endpoint is made (or its script replaced) before subscribing; removed again if the subscribe fails.
    QString madeMock;
    if (mock) {
        const std::string name = m_mockName->currentText().trimmed().toStdString();
        const std::string script = m_script->text().trimmed().toStdString();
        const std::optional<MockEndpointSummary> existing = m_mocks->find(name);
        if (!existing || existing->script != script) {
            const Status set = m_mocks->set(name, script);
            if (!set) {
                const QString text = QString::fromStdString(set.error().message);
                refuse(text, text.startsWith(QLatin1String("mock endpoint name")) ? static_cast<QWidget *>(m_mockName)
                                                                                  : m_script);
                return;
            }
            if (!existing)
                madeMock = QString::fromStdString(name);
        }
        updateEndpoint();
    }
    AttributeMap attributes;
    if (const QString filter = m_filter->toPlainText().trimmed(); !filter.isEmpty())
        attributes["FilterPolicy"] = filter.toStdString();
    if (m_raw->isChecked())
        attributes["RawMessageDelivery"] = "true";
    const bool autoConfirm = mock || (!sqs && m_confirm->isChecked());
    setBusy(true);
    m_service.subscribe(m_topic.toStdString(), protocol.toStdString(), endpoint().toStdString(), attributes,
                        autoConfirm, this, [this, sqs, madeMock](Result<SubscribeReceipt> receipt) {
                            if (!receipt) {
                                if (!madeMock.isEmpty() && m_mocks)
                                    m_mocks->remove(madeMock.toStdString());
                                const QString text = QString::fromStdString(receipt.error().message);
                                const QString named = attributeNamedIn(
                                    text, {QStringLiteral("FilterPolicy"), QStringLiteral("RawMessageDelivery"),
                                           QStringLiteral("Endpoint"), QStringLiteral("protocol")});
                                QWidget *at = named == QLatin1String("FilterPolicy")         ? m_filter
                                              : named == QLatin1String("RawMessageDelivery") ? m_raw
                                              : named == QLatin1String("Endpoint")           ? (sqs ? m_queue : static_cast<QWidget *>(m_url))
                                              : named == QLatin1String("protocol")           ? m_protocol
                                                                                             : nullptr;
                                refuse(text, at);
                                return;
                            }
                            m_created = QString::fromStdString(receipt->subscriptionArn);
                            setBusy(false);
                            emit answered();
                            QDialog::accept();
                        });
}

void CreateSubscriptionDialog::refuse(const QString &text, QWidget *at)
{
    FieldError *line = at ? errorLineOf(at) : nullptr;
    (line ? line : m_message)->setMessage(text);
    if (line)
        at->setFocus(Qt::OtherFocusReason);
    setBusy(false);
    emit answered();
}

void CreateSubscriptionDialog::setBusy(bool busy)
{
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(!busy);
}

} // namespace relaydesk
