// SPDX-License-Identifier: MIT
#include "views/message_timeline_panel.h"

#include "charts/attempt_chart.h"
#include "models/message_text.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace relaydesk {

namespace {

QString text(const std::string &value) { return QString::fromStdString(value); }

// "+1.2 s", "−350 ms", "0 ms".
QString signedDuration(std::int64_t ms)
{
    const QString sign = ms > 0 ? QStringLiteral("+") : ms < 0 ? QStringLiteral("−") : QString();
    const std::int64_t magnitude = ms < 0 ? -ms : ms;
    if (magnitude >= 10000)
        return sign + QObject::tr("%1 s").arg(double(magnitude) / 1000.0, 0, 'f', 1);
    return sign + QObject::tr("%1 ms").arg(magnitude);
}

QString timeOnly(ClockTime time) { return message_text::timeText(time).mid(11); }

std::int64_t attemptsMade(const DeliveryTimeline &delivery)
{
    std::int64_t count = 0;
    for (const TimelineAttempt &attempt : delivery.attempts)
        if (attempt.record.outcome != "throttled-wait")
            ++count;
    return count;
}

} // namespace

MessageTimelinePanel::MessageTimelinePanel(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("messageTimeline"));
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    m_title = new QLabel(this);
    m_title->setTextFormat(Qt::PlainText);
    m_title->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    layout->addWidget(m_title);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("timelineSummary"));
    m_summary->setTextFormat(Qt::PlainText);
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);

    auto *buttons = new QHBoxLayout;
    m_deadLetter = new QPushButton(tr("Show &dead-letter queue"), this);
    m_deadLetter->setObjectName(QStringLiteral("showDeadLetterQueue"));
    m_redeliver = new QPushButton(tr("&Redeliver"), this);
    m_redeliver->setObjectName(QStringLiteral("redeliverButton"));
    m_redeliver->setToolTip(tr("Send this message to the subscription again, as a new delivery"));
    buttons->addWidget(m_deadLetter);
    buttons->addWidget(m_redeliver);
    buttons->addStretch(1);
    layout->addLayout(buttons);
    connect(m_deadLetter, &QPushButton::clicked, this, [this] {
        if (!m_timeline)
            return;
        for (auto it = m_timeline->deliveries.rbegin(); it != m_timeline->deliveries.rend(); ++it)
            if (it->deadLetterQueue)
                return emit deadLetterQueueRequested(text(*it->deadLetterQueue));
    });
    connect(m_redeliver, &QPushButton::clicked, this, [this] {
        if (m_timeline)
            emit redeliverRequested(text(m_timeline->subscriptionArn), text(m_timeline->messageId));
    });

    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("timelineAttempts"));
    m_tree->setAccessibleName(tr("Attempts of the message"));
    m_tree->setHeaderLabels({tr("Attempt"), tr("Phase"), tr("Planned"), tr("Started"), tr("Jitter"),
                             tr("Throttle wait"), tr("Status"), tr("Outcome")});
    m_tree->headerItem()->setToolTip(2, tr("The policy's plan for this attempt, before jitter (the chart's dashed "
                                           "line); the attempt log's Due is the engine's time, with jitter"));
    m_tree->headerItem()->setToolTip(4, tr("Started − Planned"));
    m_tree->setRootIsDecorated(true);
    m_tree->setUniformRowHeights(true);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    layout->addWidget(m_tree, 1);
    showMessage(tr("Pick an attempt to see its message's timeline."));
}

QString MessageTimelinePanel::endText(const DeliveryTimeline &delivery)
{
    const std::int64_t made = attemptsMade(delivery);
    const QString attempts = made == 1 ? tr("1 attempt") : tr("%1 attempts").arg(made);
    if (delivery.end == "delivered")
        return tr("Delivered after %1").arg(attempts);
    if (delivery.end == "deadLettered")
        return delivery.deadLetterQueue ? tr("Dead-lettered to %1 after %2").arg(text(*delivery.deadLetterQueue), attempts)
                                        : tr("Dead-lettered after %1").arg(attempts);
    if (delivery.end == "discarded")
        return tr("Discarded after %1 (no dead-letter queue)").arg(attempts);
    if (delivery.end == "confirmed")
        return tr("Confirmed elsewhere after %1").arg(attempts);
    QString pending = tr("Pending after %1").arg(attempts);
    if (delivery.nextAttemptAt)
        pending += tr("; next attempt at %1 UTC").arg(timeOnly(*delivery.nextAttemptAt));
    return pending;
}

void MessageTimelinePanel::showMessage(const QString &message)
{
    m_timeline.reset();
    m_title->setText(tr("Message timeline"));
    m_summary->setText(message);
    m_tree->clear();
    m_deadLetter->setVisible(false);
    m_redeliver->setEnabled(false);
}

void MessageTimelinePanel::showTimeline(const MessageTimeline &timeline)
{
    m_timeline = timeline;
    m_title->setText(tr("Message %1").arg(text(timeline.messageId)));
    m_tree->clear();
    bool deadLettered = false;
    for (const DeliveryTimeline &delivery : timeline.deliveries) {
        auto *top = new QTreeWidgetItem(m_tree);
        top->setText(0, delivery.redelivery == 0 ? tr("Delivery") : tr("Redelivery %1").arg(delivery.redelivery));
        top->setText(1, endText(delivery));
        for (const TimelineAttempt &attempt : delivery.attempts) {
            const AttemptRecord &record = attempt.record;
            auto *item = new QTreeWidgetItem(top);
            item->setText(0, QString::number(record.attempt));
            item->setText(1, text(record.phase));
            item->setData(1, Qt::DecorationRole,
                          AttemptChart::phaseColourOf(text(record.phase), palette()));
            item->setText(2, attempt.scheduledAt ? timeOnly(*attempt.scheduledAt) : QStringLiteral("—"));
            item->setText(3, timeOnly(record.startedAt));
            item->setText(4, attempt.scheduledAt ? signedDuration(attempt.jitterMs) : QString());
            item->setText(5, attempt.throttleWaitMs > 0 ? signedDuration(attempt.throttleWaitMs) : QString());
            item->setText(6, record.httpStatus ? QString::number(*record.httpStatus)
                                               : text(record.errorKind.value_or("—")));
            item->setText(7, record.final ? tr("%1 → %2").arg(text(record.outcome), text(*record.final))
                                          : text(record.outcome));
        }
        deadLettered = deadLettered || delivery.deadLetterQueue.has_value();
        top->setExpanded(&delivery == &timeline.deliveries.back());
    }
    m_summary->setText(timeline.deliveries.empty() ? tr("Nothing logged.") : endText(timeline.deliveries.back()));
    m_deadLetter->setVisible(deadLettered);
    m_redeliver->setEnabled(timeline.redeliverable);
}

} // namespace relaydesk
