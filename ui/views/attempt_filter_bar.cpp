// SPDX-License-Identifier: MIT
#include "views/attempt_filter_bar.h"

#include "broker/clock.h"
#include "widgets/flow_layout.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QTimer>

namespace relaydesk {

namespace {

// A combo box whose first entry ("any") means no filter; the data of the others is the log's value.
QComboBox *choice(QWidget *parent, const QString &objectName, const QList<std::pair<QString, QVariant>> &entries)
{
    auto *box = new QComboBox(parent);
    box->setObjectName(objectName);
    box->addItem(QObject::tr("any"), QString());
    for (const auto &[text, value] : entries)
        box->addItem(text, value);
    return box;
}

} // namespace

AttemptFilterBar::AttemptFilterBar(const Clock &clock, QWidget *parent)
    : QWidget(parent), m_clock(clock)
{
    setObjectName(QStringLiteral("attemptFilterBar"));
    // Each filter with its label, the filters wrapping onto another row rather than widening the page.
    auto *layout = new FlowLayout(this, 12);
    auto add = [&](const QString &label, QWidget *field, int stretch = 0) {
        auto *pair = new QWidget(this);
        auto *row = new QHBoxLayout(pair);
        row->setContentsMargins(0, 0, 0, 0);
        auto *buddy = new QLabel(label, pair);
        buddy->setBuddy(field);
        field->setAccessibleName(QString(label).remove(QLatin1Char('&')).remove(QLatin1Char(':')));
        row->addWidget(buddy);
        row->addWidget(field, stretch);
        layout->addWidget(pair);
    };
    m_messageId = new QLineEdit(this);
    m_messageId->setObjectName(QStringLiteral("attemptMessageIdFilter"));
    m_messageId->setPlaceholderText(tr("any message"));
    m_messageId->setClearButtonEnabled(true);
    add(tr("&Message ID:"), m_messageId, 2);
    m_outcome = choice(this, QStringLiteral("attemptOutcomeFilter"),
                       {{tr("delivered"), QStringLiteral("delivered")},
                        {tr("retryable"), QStringLiteral("retryable")},
                        {tr("permanent"), QStringLiteral("permanent")},
                        {tr("timeout"), QStringLiteral("timeout")},
                        {tr("connection error"), QStringLiteral("connectionError")},
                        {tr("throttled wait"), QStringLiteral("throttled-wait")}});
    add(tr("&Outcome:"), m_outcome);
    m_phase = choice(this, QStringLiteral("attemptPhaseFilter"),
                     {{tr("initial"), QStringLiteral("initial")},
                      {tr("immediate"), QStringLiteral("immediate")},
                      {tr("preBackoff"), QStringLiteral("preBackoff")},
                      {tr("backoff"), QStringLiteral("backoff")},
                      {tr("postBackoff"), QStringLiteral("postBackoff")}});
    add(tr("P&hase:"), m_phase);
    m_status = choice(this, QStringLiteral("attemptStatusFilter"),
                      {{tr("2xx"), QStringLiteral("2xx")},
                       {tr("3xx"), QStringLiteral("3xx")},
                       {tr("4xx"), QStringLiteral("4xx")},
                       {tr("5xx"), QStringLiteral("5xx")},
                       {tr("no response"), QStringLiteral("none")}});
    add(tr("&Status:"), m_status);
    m_time = new QComboBox(this);
    m_time->setObjectName(QStringLiteral("attemptTimeFilter"));
    m_time->addItem(tr("any time"), 0);
    m_time->addItem(tr("last 5 minutes"), 5 * 60);
    m_time->addItem(tr("last 15 minutes"), 15 * 60);
    m_time->addItem(tr("last hour"), 3600);
    m_time->addItem(tr("last day"), 86400);
    add(tr("&Time:"), m_time);

    m_typing = new QTimer(this);
    m_typing->setSingleShot(true);
    m_typing->setInterval(kTypingPauseMs);
    connect(m_typing, &QTimer::timeout, this, &AttemptFilterBar::apply);
    connect(m_messageId, &QLineEdit::textEdited, m_typing, qOverload<>(&QTimer::start));
    connect(m_messageId, &QLineEdit::returnPressed, this, &AttemptFilterBar::apply);
    for (QComboBox *box : {m_outcome, m_phase, m_status, m_time})
        connect(box, &QComboBox::activated, this, &AttemptFilterBar::apply);
}

AttemptFilter AttemptFilterBar::filter() const
{
    AttemptFilter filter;
    filter.messageId = m_messageId->text().trimmed();
    filter.outcome = m_outcome->currentData().toString();
    filter.phase = m_phase->currentData().toString();
    filter.statusClass = m_status->currentData().toString();
    if (const int seconds = m_time->currentData().toInt(); seconds > 0)
        filter.since = m_clock.now() - std::chrono::seconds(seconds);
    return filter;
}

void AttemptFilterBar::setMessageId(const QString &messageId)
{
    m_messageId->setText(messageId);
    apply();
}

void AttemptFilterBar::apply()
{
    m_typing->stop();
    const AttemptFilter now = filter();
    // A relative time range moves with the clock: applying it again is a new filter.
    if (now == m_last && !now.since)
        return;
    m_last = now;
    emit filterChanged(now);
}

} // namespace relaydesk
