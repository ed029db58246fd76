// SPDX-License-Identifier: MIT
#include "views/dashboard_page.h"

#include "models/entity_tree_model.h"
#include "net/broker_host.h"
#include "views/entity_actions.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QPushButton *buttonFor(QAction *action, QWidget *parent)
{
    auto *button = new QPushButton(QString(action->text()).remove(QLatin1Char('&')), parent);
    QObject::connect(button, &QPushButton::clicked, action, &QAction::trigger);
    QObject::connect(action, &QAction::changed, button, [button, action] { button->setEnabled(action->isEnabled()); });
    button->setEnabled(action->isEnabled());
    return button;
}

QLabel *plainLabel(QWidget *parent)
{
    auto *label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    return label;
}

} // namespace

DashboardPage::DashboardPage(EntityActions &actions, QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("dashboardPage"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(24, 24, 24, 24);
    m_title = plainLabel(this);
    QFont big = m_title->font();
    big.setPointSizeF(big.pointSizeF() * 1.4);
    big.setBold(true);
    m_title->setFont(big);
    layout->addWidget(m_title);
    m_summary = plainLabel(this);
    m_summary->setObjectName(QStringLiteral("dashboardSummary"));
    layout->addWidget(m_summary);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(buttonFor(actions.newQueue(), this));
    buttons->addWidget(buttonFor(actions.newTopic(), this));
    buttons->addStretch(1);
    layout->addLayout(buttons);
    m_howTo = plainLabel(this);
    m_howTo->setObjectName(QStringLiteral("dashboardHowTo"));
    QFont mono = m_howTo->font();
    mono.setFamily(QStringLiteral("monospace"));
    mono.setStyleHint(QFont::Monospace);
    m_howTo->setFont(mono);
    layout->addSpacing(12);
    layout->addWidget(m_howTo);
    layout->addStretch(1);
    refresh();
}

void DashboardPage::setBroker(BrokerHost *host, EntityTreeModel *model)
{
    m_host = host;
    m_model = model;
    if (model)
        connect(model, &EntityTreeModel::refreshed, this, &DashboardPage::refresh);
    refresh();
}

void DashboardPage::refresh()
{
    if (!m_host || !m_model) {
        m_title->setText(tr("No broker is running"));
        m_summary->setText(tr("Open or create a database (File menu) to start the broker."));
        m_howTo->clear();
        return;
    }
    const EntityOverview &overview = m_model->overview();
    qint64 messages = 0;
    for (const QueueOverview &queue : overview.queues)
        messages += queue.counts.available + queue.counts.inFlight + queue.counts.delayed + queue.counts.scheduled;
    const QLocale locale;
    m_title->setText(tr("Broker at %1").arg(m_host->endpointUrl()));
    m_summary->setText(tr("Topics: %1 · subscriptions: %2 · queues: %3 · messages in them: %4\n"
                          "Select a topic or a queue on the left to see its page; right-click for what you can do.")
                           .arg(overview.topics.size())
                           .arg(overview.subscriptions.size())
                           .arg(overview.queues.size())
                           .arg(locale.toString(messages)));
    const QString url = m_host->endpointUrl();
    m_howTo->setText(tr("Your code and the window share this broker. For example:\n\n"
                        "  aws --endpoint-url %1 sqs create-queue --queue-name orders\n"
                        "  aws --endpoint-url %1 sns create-topic --name events\n"
                        "  boto3.client(\"sqs\", endpoint_url=\"%1\", region_name=\"%2\")\n"
                        "  curl %1/api/v1/queues")
                         .arg(url, QString::fromStdString(m_host->identity().region)));
}

} // namespace relaydesk
