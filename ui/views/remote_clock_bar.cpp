// SPDX-License-Identifier: MIT
#include "views/remote_clock_bar.h"

#include "connections/broker_connection.h"
#include "views/remote_messages_panel.h"
#include "widgets/connection_call_bar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPointer>
#include <QPushButton>
#include <QSpinBox>

namespace relaydesk {

RemoteClockBar::RemoteClockBar(BrokerConnection *connection, ConnectionCallBar *callBar, QWidget *parent)
    : QWidget(parent), m_connection(connection), m_callBar(callBar)
{
    setObjectName(QStringLiteral("remoteClock"));
    m_time = new QLabel(tr("Broker time: reading…"), this);
    m_time->setObjectName(QStringLiteral("remoteClockTime"));
    m_time->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_time->setWordWrap(true);   // holds at 800×600 and a 1.5× font
    m_seconds = new QSpinBox(this);
    m_seconds->setObjectName(QStringLiteral("remoteClockSeconds"));
    m_seconds->setRange(1, 365 * 24 * 3600);
    m_seconds->setValue(60);
    m_seconds->setSuffix(tr(" s"));
    m_seconds->setAccessibleName(tr("Seconds to advance"));
    m_advance = new QPushButton(tr("Ad&vance clock"), this);
    m_advance->setObjectName(QStringLiteral("remoteClockAdvance"));
    m_error = errorLabel(QStringLiteral("remoteClockError"), this);
    connect(m_advance, &QPushButton::clicked, this, &RemoteClockBar::advance);
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    // The time takes the room; the seconds and the button keep their own size.
    m_seconds->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    m_advance->setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Fixed);
    layout->addWidget(m_time, 1);
    layout->addWidget(m_seconds);
    layout->addWidget(m_advance);
    layout->addWidget(m_error, 1);
    setBusy(false);
    read();
}

void RemoteClockBar::setBusy(bool busy)
{
    m_busy = busy;
    const bool offered = m_virtual && !busy;
    offerAction(m_advance, offered, m_virtual ? QString() : tr("The broker's clock is not virtual: only a virtual clock advances."));
    m_seconds->setEnabled(offered);
}

void RemoteClockBar::show(const BrokerClock &clock)
{
    m_virtual = clock.isVirtual();
    m_time->setText(tr("Broker time: %1 UTC — %2")
                        .arg(clock.now.toUTC().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")), clock.mode));
    setBusy(m_busy);
}

// A small read, not tracked by the call bar: the page's actions stay as they are.
void RemoteClockBar::read()
{
    m_connection->clock([bar = QPointer<RemoteClockBar>(this)](ConnectionResult<BrokerClock> result) {
        if (!bar)
            return;   // the page closed first
        showConnectionError(bar->m_error, result.ok ? QString() : result.error.text());
        if (result.ok)
            bar->show(result.value);
    });
}

void RemoteClockBar::advance()
{
    emit busyChanged(true);
    ConnectionCall *call = m_connection->advanceClock(m_seconds->value(), [this](ConnectionResult<BrokerClock> result) {
        showConnectionError(m_error, result.ok ? QString() : result.error.text());
        if (result.ok)
            show(result.value);
    });
    m_callBar->track(call, tr("Advancing the broker's clock by %1 s…").arg(m_seconds->value()));
}

} // namespace relaydesk
